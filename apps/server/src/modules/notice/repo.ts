// SQL of the platform notices: a page of them with the audience organisation's name, one insert,
// one delete (with the read marks of it), and who a notice reaches: every user for a notice to
// everyone; for one to an organisation's tree, the users of that tree and of the organisations
// above it (whose inbox lists the notices of the organisations below them, modules/inbox/repo.ts).
import { count, desc, eq, sql } from 'drizzle-orm';
import type { NoticeRow } from '@iotc/shared/notice';
import { rowsOf, type Db, type Tx } from '../../db/client.ts';
import { inboxReads, notices, orgs } from '../../db/schema.ts';

export type NewNotice = typeof notices.$inferInsert;
type Stored = typeof notices.$inferSelect;

const rowOf = (r: Stored, orgName: string | null): NoticeRow => ({
  id: r.id,
  titleZh: r.titleZh,
  titleEn: r.titleEn,
  bodyZh: r.bodyZh,
  bodyEn: r.bodyEn,
  level: r.level,
  orgId: r.orgId,
  orgName,
  publishedAt: r.publishedAt.toISOString(),
});

export function noticeRepo(db: Db) {
  return {
    async page(limit: number, offset: number): Promise<{ rows: NoticeRow[]; total: number }> {
      const [rows, [total]] = await Promise.all([
        db
          .select({ n: notices, orgName: orgs.name })
          .from(notices)
          .leftJoin(orgs, eq(orgs.id, notices.orgId))
          .orderBy(desc(notices.publishedAt), desc(notices.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(notices),
      ]);
      return { rows: rows.map((r) => rowOf(r.n, r.orgName)), total: Number(total?.n ?? 0) };
    },

    async orgName(q: Db | Tx, orgId: string): Promise<string | undefined> {
      return (await q.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, orgId)))[0]?.name;
    },

    async insert(q: Db | Tx, values: NewNotice, orgName: string | null): Promise<NoticeRow> {
      const [row] = await q.insert(notices).values(values).returning();
      return rowOf(row!, orgName);
    },

    async byId(q: Db | Tx, id: string): Promise<Stored | undefined> {
      return (await q.select().from(notices).where(eq(notices.id, id)))[0];
    },

    /** Deletes the notice and every read mark of it; whether it was there. */
    async remove(q: Db | Tx, id: string): Promise<boolean> {
      const gone = await q.delete(notices).where(eq(notices.id, id)).returning({ id: notices.id });
      await q.delete(inboxReads).where(eq(inboxReads.itemId, id));
      return gone.length > 0;
    },

    /** The users whose inbox a notice to `orgId` (null: everyone) is in. */
    async audience(orgId: string | null): Promise<string[]> {
      const res = orgId
        ? await db.execute(sql`
            with recursive down(id) as (
                   select id from orgs where id = ${orgId}::uuid
                   union all select o.id from orgs o join down on o.parent_id = down.id),
                 up(id, parent_id) as (
                   select id, parent_id from orgs where id = ${orgId}::uuid
                   union all select o.id, o.parent_id from orgs o join up on o.id = up.parent_id)
            select u.id from users u where u.org_id in (select id from down union select id from up)`)
        : await db.execute(sql`select id from users`);
      return rowsOf<{ id: string }>(res).map((r) => r.id);
    },
  };
}
export type NoticeRepo = ReturnType<typeof noticeRepo>;

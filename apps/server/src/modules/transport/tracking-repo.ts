// SQL of the consignee tracking links (transport_tracking_links): one by token hash or id, the
// insert, the revocation, and a page of links (of one task or of an organisation tree) with the
// task's code and each link's status.
import { and, count, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { TrackingLinkQuery, TrackingLinkRow, TrackingLinkStatus } from '@iotc/shared/transport-tracking';
import type { Db } from '../../db/client.ts';
import { inOrgs, isoOrNull, limitOffset, orderBy, type Sortable } from '../../db/list.ts';
import { transportTasks, transportTrackingLinks } from '../../db/schema.ts';
import { linkStatusAt } from '../../lib/public-link.ts';

export type TrackingLinkRecord = typeof transportTrackingLinks.$inferSelect;
type NewTrackingLink = typeof transportTrackingLinks.$inferInsert;

export async function linkByTokenHash(db: Db, tokenHash: string): Promise<TrackingLinkRecord | undefined> {
  return (await db.select().from(transportTrackingLinks).where(eq(transportTrackingLinks.tokenHash, tokenHash)))[0];
}

export async function linkById(db: Db, id: string): Promise<TrackingLinkRecord | undefined> {
  return (await db.select().from(transportTrackingLinks).where(eq(transportTrackingLinks.id, id)))[0];
}

export async function insertLink(db: Db, values: NewTrackingLink): Promise<TrackingLinkRecord> {
  return (await db.insert(transportTrackingLinks).values(values).returning())[0]!;
}

/** Marks the link revoked unless it already is; whether this call revoked it. */
export async function revokeLink(db: Db, id: string, by: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(transportTrackingLinks)
    .set({ revokedAt: at, revokedBy: by })
    .where(and(eq(transportTrackingLinks.id, id), isNull(transportTrackingLinks.revokedAt)))
    .returning({ id: transportTrackingLinks.id });
  return rows.length > 0;
}

const SORTABLE: Sortable = { createdAt: transportTrackingLinks.createdAt, expiresAt: transportTrackingLinks.expiresAt };

async function readRows(db: Db, where: SQL | undefined, now: Date, page: { sort?: string; limit: number; offset: number }): Promise<TrackingLinkRow[]> {
  const rows = await db
    .select({
      id: transportTrackingLinks.id,
      taskId: transportTrackingLinks.taskId,
      taskCode: transportTasks.code,
      createdBy: transportTrackingLinks.createdBy,
      createdAt: transportTrackingLinks.createdAt,
      expiresAt: transportTrackingLinks.expiresAt,
      revokedAt: transportTrackingLinks.revokedAt,
      revokedBy: transportTrackingLinks.revokedBy,
      status: linkStatusAt<TrackingLinkStatus>(transportTrackingLinks, now),
    })
    .from(transportTrackingLinks)
    .innerJoin(transportTasks, eq(transportTasks.id, transportTrackingLinks.taskId))
    .where(where)
    .orderBy(...orderBy(page.sort, SORTABLE, 'createdAt,desc', transportTrackingLinks.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    revokedAt: isoOrNull(r.revokedAt),
  }));
}

export async function linkRow(db: Db, id: string, now: Date): Promise<TrackingLinkRow | undefined> {
  return (await readRows(db, eq(transportTrackingLinks.id, id), now, { limit: 1, offset: 0 }))[0];
}

/** A page of the links of `orgIds` (of one task when `taskId`), newest first unless sorted. */
export async function linkPage(db: Db, q: TrackingLinkQuery, orgIds: readonly string[], now: Date, taskId?: string): Promise<{ rows: TrackingLinkRow[]; total: number }> {
  const where = and(
    inOrgs(transportTrackingLinks.orgId, orgIds),
    taskId ? eq(transportTrackingLinks.taskId, taskId) : undefined,
    q.status ? sql`${linkStatusAt<TrackingLinkStatus>(transportTrackingLinks, now)} = ${q.status}` : undefined,
  );
  const [rows, [total]] = await Promise.all([readRows(db, where, now, { sort: q.sort, ...limitOffset(q) }), db.select({ n: count() }).from(transportTrackingLinks).where(where)]);
  return { rows, total: Number(total?.n ?? 0) };
}

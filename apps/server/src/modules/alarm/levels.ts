// Alarm levels of the caller's organisation tree: list, create, change, delete (refused while a
// policy rule or an alarm uses the level).
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { LevelBody, LevelRow } from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import type { ListQuery } from '@iotc/shared/list';
import type { Db } from '../../db/client.ts';
import { inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { alarmLevels, alarms, orgs } from '../../db/schema.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';

const SORTABLE: Sortable = { priority: alarmLevels.priority, code: alarmLevels.code, createdAt: alarmLevels.createdAt };

/** How many rules of the organisation's policies name the level (rules are kept as JSON). */
const rulesUsing = sql<number>`(select coalesce(sum((select count(*) from jsonb_array_elements(p.rules) r where r->>'levelId' = ${alarmLevels.id}::text)), 0)::int
  from alarm_policies p where p.org_id = ${alarmLevels.orgId})`;

export function levelService(db: Db, audit: AuditWriter) {
  const record = successRecorder(audit);

  const select = () =>
    db
      .select({
        id: alarmLevels.id,
        orgId: alarmLevels.orgId,
        orgName: orgs.name,
        code: alarmLevels.code,
        nameZh: alarmLevels.nameZh,
        nameEn: alarmLevels.nameEn,
        color: alarmLevels.color,
        priority: alarmLevels.priority,
        sound: alarmLevels.sound,
        rulesUsing,
        createdAt: alarmLevels.createdAt,
        updatedAt: alarmLevels.updatedAt,
      })
      .from(alarmLevels)
      .innerJoin(orgs, eq(orgs.id, alarmLevels.orgId));

  type Selected = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];
  const toRow = (r: Selected): LevelRow => ({ ...r, rulesUsing: Number(r.rulesUsing), createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() });

  async function visible(caller: Caller, id: string): Promise<LevelRow> {
    const scope = caller.scope.orgs;
    const [row] = await select().where(eq(alarmLevels.id, id));
    if (!row || !scope.includes(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return toRow(row);
  }

  async function codeTaken(orgId: string, code: string, exceptId?: string) {
    const [row] = await db
      .select({ id: alarmLevels.id })
      .from(alarmLevels)
      .where(and(eq(alarmLevels.orgId, orgId), eq(alarmLevels.code, code), exceptId ? ne(alarmLevels.id, exceptId) : undefined));
    return Boolean(row);
  }

  const values = (b: LevelBody) => ({ code: b.code, nameZh: b.nameZh, nameEn: b.nameEn, color: b.color.toLowerCase(), priority: b.priority, sound: b.sound });

  return {
    async list(caller: Caller, q: ListQuery & { orgId?: string }): Promise<Page<LevelRow>> {
      const where = inOrgs(alarmLevels.orgId, caller.scope.within(q.orgId));
      const [rows, [total]] = await Promise.all([
        select()
          .where(where)
          .orderBy(...orderBy(q.sort, SORTABLE, 'priority,asc', alarmLevels.id))
          .limit(limitOffset(q).limit)
          .offset(limitOffset(q).offset),
        db.select({ n: count() }).from(alarmLevels).where(where),
      ]);
      return toPage(rows.map(toRow), Number(total?.n ?? 0), q);
    },

    get: visible,

    async create(caller: Caller, body: LevelBody, meta: ClientMeta): Promise<LevelRow> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      if (await codeTaken(orgId, body.code)) throw new AppError(409, 'LEVEL_CODE_TAKEN');
      const row = await db.transaction(async (tx) => {
        const [made] = await tx.insert(alarmLevels).values({ orgId, ...values(body) }).onConflictDoNothing().returning({ id: alarmLevels.id });
        if (!made) throw new AppError(409, 'LEVEL_CODE_TAKEN');
        await record(tx, caller, orgId, 'alarm_level_create', body.code, meta);
        return made;
      });
      return visible(caller, row.id);
    },

    async update(caller: Caller, id: string, body: LevelBody, meta: ClientMeta): Promise<LevelRow> {
      const before = await visible(caller, id);
      if (await codeTaken(before.orgId, body.code, id)) throw new AppError(409, 'LEVEL_CODE_TAKEN');
      await db.transaction(async (tx) => {
        await tx
          .update(alarmLevels)
          .set({ ...values(body), updatedAt: new Date() })
          .where(eq(alarmLevels.id, id));
        await record(tx, caller, before.orgId, 'alarm_level_update', before.code, meta);
      });
      return visible(caller, id);
    },

    async remove(caller: Caller, id: string, meta: ClientMeta) {
      const before = await visible(caller, id);
      const [used] = await db.select({ n: count() }).from(alarms).where(eq(alarms.levelId, id));
      if (before.rulesUsing > 0 || Number(used?.n ?? 0) > 0) throw new AppError(409, 'LEVEL_IN_USE');
      await db.transaction(async (tx) => {
        await tx.delete(alarmLevels).where(eq(alarmLevels.id, id));
        await record(tx, caller, before.orgId, 'alarm_level_delete', before.code, meta);
      });
    },

    /** The levels an organisation's rules may use, by id (for checking a policy). */
    async idsOf(orgId: string): Promise<Map<string, string>> {
      const rows = await db.select({ id: alarmLevels.id, code: alarmLevels.code }).from(alarmLevels).where(eq(alarmLevels.orgId, orgId)).orderBy(asc(alarmLevels.priority));
      return new Map(rows.map((r) => [r.id, r.code]));
    },
  };
}
export type LevelService = ReturnType<typeof levelService>;

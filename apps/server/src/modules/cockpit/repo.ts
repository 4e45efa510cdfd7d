// The cockpit's SQL: counts over one organisation tree (assets by kind, tasks in transit,
// active alarms per level, warehouses per province), today's temperature compliance in one
// query, and the trend buckets. Every query is bounded by the scope and a time window.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { inOrgs, uuidList } from '../../db/list.ts';
import { alarmLevels, alarms, assets, transportTasks } from '../../db/schema.ts';
import { abnormalSql } from '../transport/repo.ts';

/** `column` lies in the org scope, written as plain SQL for the hand-written queries. */
const scopeSql = (column: string, scope: readonly string[]) => sql`${sql.raw(column)} = any(${uuidList(scope)})`;

export function cockpitRepo(db: Db) {
  return {
    async assetTotals(scope: readonly string[]) {
      const rows = await db.select({ kind: assets.kind, n: count() }).from(assets).where(inOrgs(assets.orgId, scope)).groupBy(assets.kind);
      return rows.map((r) => ({ kind: r.kind, n: Number(r.n) }));
    },

    async tasks(scope: readonly string[]) {
      const [row] = await db
        .select({ inTransit: sql<number>`count(*)::int`, abnormal: sql<number>`count(*) filter (where ${abnormalSql})::int` })
        .from(transportTasks)
        .where(and(inOrgs(transportTasks.orgId, scope), eq(transportTasks.status, 'in_transit')));
      return { inTransit: Number(row?.inTransit ?? 0), abnormal: Number(row?.abnormal ?? 0) };
    },

    /** Every level of the scope with its active alarms (levels of several organisations may share a code). */
    async levels(scope: readonly string[]) {
      return db
        .select({
          orgId: alarmLevels.orgId,
          code: alarmLevels.code,
          nameZh: alarmLevels.nameZh,
          nameEn: alarmLevels.nameEn,
          color: alarmLevels.color,
          priority: alarmLevels.priority,
          active: sql<number>`(select count(*)::int from alarms a where a.level_id = alarm_levels.id and a.status = 'active')`,
        })
        .from(alarmLevels)
        .where(inOrgs(alarmLevels.orgId, scope));
    },

    /**
     * Today's readings of devices mounted on an asset with a temperature range, and how many of
     * them lie inside it. One query: readings since local midnight (the (org, time) index)
     * joined to the current bindings and their assets.
     */
    async compliance(scope: readonly string[], since: Date) {
      const rows = rowsOf<{ readings: number; in_range: number }>(
        await db.execute(sql`
          select count(*)::int as readings,
                 count(*) filter (where (a.temp_min is null or (t.sensors->>'temperature')::float8 >= a.temp_min)
                                    and (a.temp_max is null or (t.sensors->>'temperature')::float8 <= a.temp_max))::int as in_range
          from telemetry t
          join device_bindings b on b.device_ref = t.device_ref and b.unbound_at is null
          join assets a on a.id = b.asset_ref
          where ${scopeSql('t.org_id', scope)}
            and t.time >= ${since.toISOString()}::timestamptz and t.time <= now()
            and t.time >= b.bound_at
            and jsonb_typeof(t.sensors->'temperature') = 'number'
            and (a.temp_min is not null or a.temp_max is not null)`),
      );
      return { readings: Number(rows[0]?.readings ?? 0), inRange: Number(rows[0]?.in_range ?? 0) };
    },

    /** Warehouses per `attrs.province`, with the cold rooms and refrigerators under them. */
    async provinces(scope: readonly string[]) {
      const rows = rowsOf<{ province: string; warehouses: number; cold_rooms: number }>(
        await db.execute(sql`
          select coalesce(nullif(trim(w.attrs->>'province'), ''), '') as province,
                 count(*)::int as warehouses,
                 coalesce(sum((select count(*) from assets c where c.parent_id = w.id and c.kind = 'cold_room')
                            + (select count(*) from assets r join assets c on c.id = r.parent_id where c.parent_id = w.id and r.kind = 'refrigerator')), 0)::int as cold_rooms
          from assets w
          where w.kind = 'warehouse' and ${scopeSql('w.org_id', scope)}
          group by 1
          order by 2 desc, 1`),
      );
      return rows.filter((r) => r.province !== '').map((r) => ({ province: r.province, warehouses: Number(r.warehouses), coldRooms: Number(r.cold_rooms) }));
    },

    /** Alarms opened per hour bucket (0 = the one starting at `from`) and level code. */
    async alarmsByHour(scope: readonly string[], from: Date) {
      const rows = rowsOf<{ bucket: number; code: string; n: number }>(
        await db.execute(sql`
          select floor(extract(epoch from (a.started_at - ${from.toISOString()}::timestamptz)) / 3600)::int as bucket, l.code, count(*)::int as n
          from alarms a join alarm_levels l on l.id = a.level_id
          where ${scopeSql('a.org_id', scope)} and a.started_at >= ${from.toISOString()}::timestamptz
          group by 1, 2`),
      );
      return rows.map((r) => ({ bucket: Number(r.bucket), code: r.code, n: Number(r.n) }));
    },

    async readingsByHour(scope: readonly string[], from: Date) {
      const rows = rowsOf<{ bucket: number; n: number }>(
        await db.execute(sql`
          select floor(extract(epoch from (t.time - ${from.toISOString()}::timestamptz)) / 3600)::int as bucket, count(*)::int as n
          from telemetry t
          where ${scopeSql('t.org_id', scope)} and t.time >= ${from.toISOString()}::timestamptz and t.time <= now()
          group by 1`),
      );
      return rows.map((r) => ({ bucket: Number(r.bucket), n: Number(r.n) }));
    },

    /** Tasks started and arrived per local day (YYYY-MM-DD in `tz`) since `from`. */
    async tasksByDay(scope: readonly string[], from: Date, tz: string) {
      const per = async (column: 'started_at' | 'arrived_at') =>
        rowsOf<{ day: string; n: number }>(
          await db.execute(sql`
            select to_char(${sql.raw(column)} at time zone ${tz}, 'YYYY-MM-DD') as day, count(*)::int as n
            from transport_tasks
            where ${scopeSql('org_id', scope)} and ${sql.raw(column)} >= ${from.toISOString()}::timestamptz
            group by 1`),
        ).map((r) => ({ day: r.day, n: Number(r.n) }));
      return { started: await per('started_at'), arrived: await per('arrived_at') };
    },

    /** Local midnight of today in `tz`, by the database's clock. */
    async localMidnight(tz: string): Promise<Date> {
      const rows = rowsOf<{ t: string | Date }>(await db.execute(sql`select (date_trunc('day', now() at time zone ${tz}) at time zone ${tz}) as t`));
      return new Date(rows[0]!.t);
    },

    /** Ids of the newest alarms of the scope (by when they opened). */
    async newestAlarmIds(scope: readonly string[], limit: number): Promise<string[]> {
      const rows = await db.select({ id: alarms.id }).from(alarms).where(inOrgs(alarms.orgId, scope)).orderBy(desc(alarms.startedAt), desc(alarms.id)).limit(limit);
      return rows.map((r) => r.id);
    },
  };
}
export type CockpitRepo = ReturnType<typeof cockpitRepo>;


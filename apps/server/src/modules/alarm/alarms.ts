// Alarm records of the caller's organisation tree: the query (time range, type, level, status,
// device, asset, task, policy, keyword), one alarm with its timeline, export to Excel or CSV,
// statistics by type, by level and over time, and handling: acknowledge, close with a reason.
import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { ALARM_TYPE_INFO, type AlarmQuery, type AlarmRow, type AlarmStats, type AlarmStatsQuery, type AlarmType } from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import type { Lang } from '@iotc/shared/i18n';
import { MAX_EXPORT_ROWS, type ExportFormat } from '@iotc/shared/list';
import type { Db, Tx } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { alarmEvents, alarmLevels, alarms, dictItems, users } from '../../db/schema.ts';
import { exportRows, type ExportFile } from '../../lib/export.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import type { AlarmEventKind, AlarmEventRow } from '@iotc/shared/alarm';
import { alarmsByIds, selectAlarms, toAlarmRow } from './records.ts';

const SORTABLE: Sortable = {
  startedAt: alarms.startedAt,
  lastAt: alarms.lastAt,
  endedAt: alarms.endedAt,
  priority: alarmLevels.priority,
  peak: alarms.peak,
  count: alarms.count,
};

export function alarmService(db: Db, opts: { audit: AuditWriter; publish: (rows: AlarmRow[]) => void; acknowledged?: (row: AlarmRow) => void }) {
  /** Handling an alarm is audited in the transaction of the change (the alarm's own timeline has it too). */
  const record = successRecorder(opts.audit);
  async function where(caller: Caller, q: Omit<AlarmQuery, 'page' | 'size' | 'sort'>): Promise<SQL | undefined> {
    const scope = caller.scope.within(q.orgId);
    return and(
      inOrgs(alarms.orgId, scope),
      q.from ? gte(alarms.startedAt, new Date(q.from)) : undefined,
      q.to ? lt(alarms.startedAt, new Date(q.to)) : undefined,
      q.type?.length ? inArray(alarms.type, q.type) : undefined,
      q.levelId?.length ? inArray(alarms.levelId, q.levelId) : undefined,
      q.status?.length ? inArray(alarms.status, q.status) : undefined,
      q.acknowledged === 'true' ? isNotNull(alarms.acknowledgedAt) : q.acknowledged === 'false' ? isNull(alarms.acknowledgedAt) : undefined,
      q.deviceId ? eq(alarms.deviceRef, q.deviceId) : undefined,
      q.assetId ? eq(alarms.assetRef, q.assetId) : undefined,
      q.taskId ? eq(alarms.taskId, q.taskId) : undefined,
      q.inTask === 'true' ? isNotNull(alarms.taskId) : q.inTask === 'false' ? isNull(alarms.taskId) : undefined,
      q.policyId ? eq(alarms.policyId, q.policyId) : undefined,
      q.assigneeId ? eq(alarms.assigneeId, q.assigneeId) : undefined,
      q.mine === 'true' ? eq(alarms.assigneeId, caller.userId) : undefined,
      q.inWorkOrder === 'true' ? inWorkOrder : q.inWorkOrder === 'false' ? sql`not ${inWorkOrder}` : undefined,
      q.keyword ? keywordOf(containsPattern(q.keyword)) : undefined,
    );
  }

  const inWorkOrder = sql`exists (select 1 from work_order_alarms wa where wa.alarm_id = ${alarms.id})`;

  /** Alarms whose device (id or name), asset (code or name) or policy name contain the text; no join needed. */
  function keywordOf(pattern: string): SQL {
    return sql`(exists (select 1 from devices kd where kd.id = ${alarms.deviceRef} and (kd.device_id ilike ${pattern} or kd.name ilike ${pattern}))
      or exists (select 1 from assets ka where ka.id = ${alarms.assetRef} and (ka.code ilike ${pattern} or ka.name ilike ${pattern}))
      or ${alarms.policyName} ilike ${pattern})`;
  }

  async function countOf(w: SQL | undefined): Promise<number> {
    const [row] = await db.select({ n: count() }).from(alarms).where(w);
    return Number(row?.n ?? 0);
  }

  async function visible(caller: Caller, id: string): Promise<AlarmRow> {
    const scope = caller.scope.orgs;
    const [row] = await selectAlarms(db).where(eq(alarms.id, id));
    if (!row || !scope.includes(row.a.orgId)) throw new AppError(404, 'NOT_FOUND');
    return toAlarmRow(row);
  }

  async function changed(id: string, caller: Caller) {
    const [row] = await alarmsByIds(db, [id]);
    opts.publish([row!]);
    return visible(caller, id);
  }

  async function event(q: Db | Tx, alarmId: string, kind: AlarmEventKind, actor: string, detail: Record<string, unknown> = {}) {
    await q.insert(alarmEvents).values({ alarmId, kind, actor, detail });
  }
  /** The audit detail of an alarm: its device and type. */
  const about = (a: AlarmRow) => `${a.device.deviceId} ${a.type}`;

  return {
    async list(caller: Caller, q: AlarmQuery): Promise<Page<AlarmRow>> {
      const w = await where(caller, q);
      const { limit, offset } = limitOffset(q);
      const [rows, total] = await Promise.all([
        selectAlarms(db)
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, 'startedAt,desc', alarms.id))
          .limit(limit)
          .offset(offset),
        countOf(w),
      ]);
      return toPage(rows.map(toAlarmRow), total, q);
    },

    get: visible,

    /** The alarm's story, first recorded first. */
    async events(caller: Caller, id: string): Promise<AlarmEventRow[]> {
      await visible(caller, id);
      // In the order things were recorded (a report's device time may run ahead of the server's clock).
      const rows = await db.select().from(alarmEvents).where(eq(alarmEvents.alarmId, id)).orderBy(asc(alarmEvents.id));
      return rows.map((r) => ({ id: r.id, at: r.at.toISOString(), kind: r.kind, actor: r.actor, detail: r.detail as Record<string, unknown> }));
    },

    async acknowledge(caller: Caller, id: string, meta: ClientMeta): Promise<AlarmRow> {
      const before = await visible(caller, id);
      if (before.acknowledgedAt) return before;
      const done = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(alarms)
          .set({ acknowledgedAt: new Date(), acknowledgedBy: caller.account })
          .where(and(eq(alarms.id, id), isNull(alarms.acknowledgedAt)))
          .returning({ id: alarms.id });
        if (row) {
          await event(tx, id, 'acknowledged', caller.account);
          await record(tx, caller, before.orgId, 'alarm_acknowledge', about(before), meta);
        }
        return row;
      });
      const row = await changed(id, caller);
      if (done) opts.acknowledged?.(row);
      return row;
    },

    /** A comment in the timeline (the alarm itself does not change). */
    async comment(caller: Caller, id: string, text: string, meta: ClientMeta): Promise<AlarmEventRow[]> {
      const before = await visible(caller, id);
      await db.transaction(async (tx) => {
        await event(tx, id, 'commented', caller.account, { text });
        await record(tx, caller, before.orgId, 'alarm_comment', about(before), meta);
      });
      return this.events(caller, id);
    },

    /** Hands the alarm to a user of the alarm's organisation tree. */
    async assign(caller: Caller, id: string, userId: string, meta: ClientMeta): Promise<AlarmRow> {
      const before = await visible(caller, id);
      const [user] = await db.select({ id: users.id, account: users.account, name: users.name, orgId: users.orgId }).from(users).where(eq(users.id, userId));
      const scope = caller.scope.orgs;
      if (!user || !scope.includes(user.orgId)) throw new AppError(400, 'ASSIGNEE_UNKNOWN');
      if (before.assignee?.id === userId) return before;
      await db.transaction(async (tx) => {
        await tx.update(alarms).set({ assigneeId: userId }).where(eq(alarms.id, id));
        await event(tx, id, 'assigned', caller.account, { userId, account: user.account, name: user.name });
        await record(tx, caller, before.orgId, 'alarm_assign', `${about(before)} -> ${user.account}`, meta);
      });
      return changed(id, caller);
    },

    /** Closes by hand with a reason; the condition may still hold (its rule then waits for it to clear before opening another). */
    async close(caller: Caller, id: string, reason: string, meta: ClientMeta): Promise<AlarmRow> {
      const before = await visible(caller, id);
      if (before.status === 'closed') throw new AppError(409, 'ALARM_CLOSED');
      const now = new Date();
      await db.transaction(async (tx) => {
        await tx
          .update(alarms)
          .set({ status: 'closed', endedAt: before.endedAt ? new Date(before.endedAt) : now, closedBy: caller.account, closeReason: reason })
          .where(eq(alarms.id, id));
        await event(tx, id, 'closed', caller.account, { reason });
        await record(tx, caller, before.orgId, 'alarm_close', `${about(before)}: ${reason}`, meta);
      });
      return changed(id, caller);
    },

    async export(caller: Caller, q: AlarmQuery, format: ExportFormat, lang: Lang, tz: string): Promise<ExportFile> {
      const w = await where(caller, q);
      if ((await countOf(w)) > MAX_EXPORT_ROWS) throw new AppError(400, 'EXPORT_TOO_LARGE');
      const rows = (await selectAlarms(db).where(w).orderBy(desc(alarms.startedAt), desc(alarms.id)).limit(MAX_EXPORT_ROWS)).map(toAlarmRow);
      const typeNames = await dictNames('alarm_type', lang);
      const statusNames: Record<string, { zh: string; en: string }> = {
        active: { zh: '告警中', en: 'Active' },
        cleared: { zh: '已恢复', en: 'Cleared' },
        closed: { zh: '已关闭', en: 'Closed' },
      };
      const withUnit = (v: number | null, r: AlarmRow) => (v === null ? '' : `${v}${r.unit ? ` ${r.unit}` : ''}`);
      return exportRows({
        format,
        lang,
        timezone: tz,
        name: { zh: '告警记录', en: 'alarms' },
        sheet: { zh: '告警记录', en: 'Alarms' },
        columns: [
          { header: { zh: '开始时间', en: 'Started' }, value: (r) => new Date(r.startedAt), width: 21 },
          { header: { zh: '结束时间', en: 'Ended' }, value: (r) => (r.endedAt ? new Date(r.endedAt) : null), width: 21 },
          { header: { zh: '告警类型', en: 'Type' }, value: (r) => typeNames.get(r.type) ?? r.type, width: 20 },
          { header: { zh: '告警等级', en: 'Level' }, value: (r) => (lang === 'zh' ? r.level.nameZh : r.level.nameEn) },
          { header: { zh: '状态', en: 'Status' }, value: (r) => statusNames[r.status]![lang] },
          { header: { zh: '设备编号', en: 'Device ID' }, value: (r) => r.device.deviceId, width: 20 },
          { header: { zh: '设备名称', en: 'Device name' }, value: (r) => r.device.name, width: 20 },
          { header: { zh: '资产', en: 'Asset' }, value: (r) => (r.asset ? `${r.asset.code} ${r.asset.name}` : ''), width: 24 },
          { header: { zh: '阈值', en: 'Threshold' }, value: (r) => withUnit(r.threshold, r) },
          { header: { zh: '告警值', en: 'Value' }, value: (r) => withUnit(r.value, r) },
          { header: { zh: '峰值', en: 'Peak' }, value: (r) => withUnit(r.peak, r) },
          { header: { zh: '次数', en: 'Count' }, value: (r) => r.count },
          { header: { zh: '纬度', en: 'Latitude' }, value: (r) => r.lat },
          { header: { zh: '经度', en: 'Longitude' }, value: (r) => r.lon },
          { header: { zh: '告警策略', en: 'Policy' }, value: (r) => r.policyName, width: 24 },
          { header: { zh: '所属任务', en: 'Task' }, value: (r) => r.task?.code ?? '', width: 20 },
          { header: { zh: '确认人', en: 'Acknowledged by' }, value: (r) => r.acknowledgedBy },
          { header: { zh: '确认时间', en: 'Acknowledged' }, value: (r) => (r.acknowledgedAt ? new Date(r.acknowledgedAt) : null), width: 21 },
          { header: { zh: '关闭原因', en: 'Close reason' }, value: (r) => r.closeReason, width: 30 },
          { header: { zh: '组织', en: 'Organisation' }, value: (r) => r.orgName, width: 24 },
        ],
        rows,
      });
    },

    /** Counts by type and by level, and alarms started per bucket and level, in the request's time zone. */
    async stats(caller: Caller, q: AlarmStatsQuery, tz: string): Promise<AlarmStats> {
      const w = await where(caller, q);
      const byType = await db
        .select({ type: alarms.type, count: count() })
        .from(alarms)
        .where(w)
        .groupBy(alarms.type)
        .orderBy(desc(count()));
      const byLevel = await db
        .select({ levelId: alarmLevels.id, code: alarmLevels.code, nameZh: alarmLevels.nameZh, nameEn: alarmLevels.nameEn, color: alarmLevels.color, priority: alarmLevels.priority, count: count() })
        .from(alarms)
        .innerJoin(alarmLevels, eq(alarmLevels.id, alarms.levelId))
        .where(w)
        .groupBy(alarmLevels.id)
        .orderBy(asc(alarmLevels.priority));
      const bucket = sql<string>`date_trunc(${q.bucket}, ${alarms.startedAt} at time zone ${tz})`;
      const overTime = await db
        .select({ bucket, levelId: alarms.levelId, count: count() })
        .from(alarms)
        .where(w)
        // By position: the bucket's parameters would make a repeated expression a different one.
        .groupBy(sql`1`, alarms.levelId)
        .orderBy(sql`1`);
      return {
        byType: byType.filter((r) => r.type in ALARM_TYPE_INFO).map((r) => ({ type: r.type as AlarmType, count: Number(r.count) })),
        byLevel: byLevel.map(({ priority: _p, ...r }) => ({ ...r, count: Number(r.count) })),
        overTime: overTime.map((r) => ({ bucket: localIso(r.bucket), levelId: r.levelId, count: Number(r.count) })),
      };
    },
  };

  async function dictNames(code: string, lang: Lang): Promise<Map<string, string>> {
    const rows = await db
      .select({ key: dictItems.dictKey, zh: dictItems.valZh, en: dictItems.valEn })
      .from(dictItems)
      .where(eq(dictItems.dictCode, code));
    return new Map(rows.map((r) => [r.key, lang === 'zh' ? r.zh : r.en]));
  }
}
export type AlarmService = ReturnType<typeof alarmService>;

/** A bucket's local start (timestamp without zone) as `YYYY-MM-DDTHH:mm:ss`. */
function localIso(v: unknown): string {
  if (v instanceof Date) return v.toISOString().slice(0, 19);
  return String(v).replace(' ', 'T').slice(0, 19);
}

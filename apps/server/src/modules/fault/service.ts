// Device faults of the caller's organisation tree: the query (kind, status, device, last seen,
// keyword), counts by kind and status for the same filters, one fault with its repair records,
// export to Excel or CSV, and recording a repair (which puts the fault under repair or resolves it).
import { and, asc, count, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { FAULT_KINDS, FAULT_STATUSES, FAULT_THRESHOLDS, type FaultDetail, type FaultKind, type FaultQuery, type FaultRow, type FaultStats, type RepairBody } from '@iotc/shared/fault';
import type { Page } from '@iotc/shared/envelope';
import type { I18nText, Lang } from '@iotc/shared/i18n';
import { MAX_EXPORT_ROWS, type ExportFormat } from '@iotc/shared/list';
import type { Db } from '../../db/client.ts';
import { CURRENT_BINDING } from '../../db/devices.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable, isoOrNull } from '../../db/list.ts';
import { assets, deviceBindings, devices, faultCounters, faultRepairs, faults, orgs } from '../../db/schema.ts';
import { exportRows, type ExportFile } from '../../lib/export.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { lockFaultCounters } from './detector.ts';

const SORTABLE: Sortable = { lastAt: faults.lastAt, firstAt: faults.firstAt, count: faults.count };
const DEFAULT_SORT = 'lastAt,desc';

export const KIND_NAMES: Record<FaultKind, I18nText> = {
  sensor_failure: { zh: '传感器故障', en: 'Sensor failure' },
  gps_failure: { zh: 'GPS 故障', en: 'GPS failure' },
  low_battery: { zh: '电量不足', en: 'Low battery' },
  offline_repeatedly: { zh: '频繁离线', en: 'Repeatedly offline' },
  bad_reports: { zh: '异常上报', en: 'Bad reports' },
};
const STATUS_NAMES: Record<FaultRow['status'], I18nText> = {
  open: { zh: '待处理', en: 'Open' },
  repairing: { zh: '维修中', en: 'Repairing' },
  resolved: { zh: '已解决', en: 'Resolved' },
};

/** What the detector saw, as a sentence (the same wording as the web's fault screen). */
export function seenText(kind: FaultKind, detail: Record<string, unknown>, lang: Lang): string {
  const num = (k: string, fallback: number) => (typeof detail[k] === 'number' ? (detail[k] as number) : fallback);
  const T = FAULT_THRESHOLDS;
  switch (kind) {
    case 'sensor_failure': {
      const n = num('reports', T.sensorFailureReports);
      return lang === 'zh' ? `连续 ${n} 次上报无有效温湿度读数` : `No valid temperature or humidity reading in ${n} reports running`;
    }
    case 'gps_failure': {
      const n = num('reports', T.gpsFailureReports);
      return lang === 'zh' ? `连续 ${n} 次上报无有效 GPS 定位` : `No usable GPS position in ${n} reports running`;
    }
    case 'low_battery': {
      const limit = num('limit', T.lowBatteryPercent);
      if (typeof detail.value !== 'number') return lang === 'zh' ? `电量低于 ${limit}%` : `Battery below ${limit}%`;
      return lang === 'zh' ? `电量 ${detail.value}%，低于 ${limit}%` : `Battery at ${detail.value}%, below ${limit}%`;
    }
    case 'offline_repeatedly': {
      const times = num('times', T.offlineTimes);
      const hours = num('hours', T.offlineWindowHours);
      return lang === 'zh' ? `${hours} 小时内离线 ${times} 次` : `Offline ${times} times within ${hours} hours`;
    }
    case 'bad_reports': {
      const times = num('times', T.badReports);
      const minutes = num('minutes', T.badReportsWindowMinutes);
      return lang === 'zh' ? `${minutes} 分钟内 ${times} 条上报被拒收` : `${times} reports refused within ${minutes} minutes`;
    }
  }
}

function selectFaults(db: Db) {
  return db
    .select({
      f: faults,
      orgName: orgs.name,
      device: { id: devices.id, deviceId: devices.deviceId, name: devices.name },
      assetId: assets.id,
      assetKind: assets.kind,
      assetCode: assets.code,
      assetName: assets.name,
      repairCount: sql<number>`(select count(*) from fault_repairs r where r.fault_id = ${faults.id})::int`,
    })
    .from(faults)
    .innerJoin(orgs, eq(orgs.id, faults.orgId))
    .innerJoin(devices, eq(devices.id, faults.deviceRef))
    .leftJoin(deviceBindings, CURRENT_BINDING)
    .leftJoin(assets, eq(assets.id, deviceBindings.assetRef));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectFaults>['execute']>>[number];

function toRow(r: Selected): FaultRow {
  const f = r.f;
  return {
    id: f.id,
    orgId: f.orgId,
    orgName: r.orgName,
    kind: f.kind,
    status: f.status,
    device: r.device,
    asset: r.assetId ? { id: r.assetId, kind: r.assetKind!, code: r.assetCode!, name: r.assetName! } : null,
    firstAt: f.firstAt.toISOString(),
    lastAt: f.lastAt.toISOString(),
    count: f.count,
    detail: (f.detail ?? {}) as Record<string, unknown>,
    resolvedAt: isoOrNull(f.resolvedAt),
    resolvedBy: f.resolvedBy,
    repairCount: Number(r.repairCount),
  };
}

type Filters = Omit<FaultQuery, 'page' | 'size' | 'sort'>;

export function faultService(db: Db, audit: AuditWriter) {
  const record = successRecorder(audit);
  async function where(caller: Caller, q: Filters): Promise<SQL | undefined> {
    const scope = caller.scope.within(q.orgId);
    return and(
      inOrgs(faults.orgId, scope),
      q.kind?.length ? inArray(faults.kind, q.kind) : undefined,
      q.status?.length ? inArray(faults.status, q.status) : undefined,
      q.deviceId ? eq(faults.deviceRef, q.deviceId) : undefined,
      q.from ? gte(faults.lastAt, new Date(q.from)) : undefined,
      q.to ? lt(faults.lastAt, new Date(q.to)) : undefined,
      q.keyword ? keywordOf(containsPattern(q.keyword)) : undefined,
    );
  }

  /** Faults whose device (id or name) or the asset it is mounted on (code or name) contain the text. */
  function keywordOf(pattern: string): SQL {
    return sql`(exists (select 1 from devices kd where kd.id = ${faults.deviceRef} and (kd.device_id ilike ${pattern} or kd.name ilike ${pattern}))
      or exists (select 1 from device_bindings kb join assets ka on ka.id = kb.asset_ref
        where kb.device_ref = ${faults.deviceRef} and kb.unbound_at is null and (ka.code ilike ${pattern} or ka.name ilike ${pattern})))`;
  }

  async function countOf(w: SQL | undefined): Promise<number> {
    const [row] = await db.select({ n: count() }).from(faults).where(w);
    return Number(row?.n ?? 0);
  }

  /** The fault, when it belongs to the caller's organisation tree; otherwise 404, as if it did not exist. */
  async function visible(caller: Caller, id: string): Promise<FaultRow> {
    const [row] = await selectFaults(db).where(eq(faults.id, id));
    if (!row || !caller.scope.has(row.f.orgId)) throw new AppError(404, 'NOT_FOUND');
    return toRow(row);
  }

  async function detail(caller: Caller, id: string): Promise<FaultDetail> {
    const row = await visible(caller, id);
    const repairs = await db.select().from(faultRepairs).where(eq(faultRepairs.faultId, id)).orderBy(asc(faultRepairs.id));
    return { ...row, repairs: repairs.map((r) => ({ id: r.id, at: r.at.toISOString(), by: r.by, action: r.action, result: r.result, note: r.note })) };
  }

  return {
    async list(caller: Caller, q: FaultQuery): Promise<Page<FaultRow>> {
      const w = await where(caller, q);
      const { limit, offset } = limitOffset(q);
      const [rows, total] = await Promise.all([
        selectFaults(db)
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, DEFAULT_SORT, faults.id))
          .limit(limit)
          .offset(offset),
        countOf(w),
      ]);
      return toPage(rows.map(toRow), total, q);
    },

    /** Every kind and every status with how many faults the filters match (zeros included). */
    async stats(caller: Caller, q: Filters): Promise<FaultStats> {
      const w = await where(caller, q);
      const [kinds, statuses] = await Promise.all([
        db.select({ kind: faults.kind, n: count() }).from(faults).where(w).groupBy(faults.kind),
        db.select({ status: faults.status, n: count() }).from(faults).where(w).groupBy(faults.status),
      ]);
      const byKind = new Map(kinds.map((r) => [r.kind, Number(r.n)]));
      const byStatus = new Map(statuses.map((r) => [r.status, Number(r.n)]));
      return {
        byKind: FAULT_KINDS.map((kind) => ({ kind, count: byKind.get(kind) ?? 0 })),
        byStatus: FAULT_STATUSES.map((status) => ({ status, count: byStatus.get(status) ?? 0 })),
      };
    },

    get: detail,

    /**
     * A repair record. `in_progress` puts the fault under repair; any other result resolves it,
     * and the device's counting towards that kind starts again (a new occurrence opens a new
     * fault). A resolved fault takes no more records.
     */
    async repair(caller: Caller, id: string, body: RepairBody, meta: ClientMeta): Promise<FaultDetail> {
      const before = await visible(caller, id);
      await db.transaction(async (tx) => {
        // The detector's lock first, as the detector takes it, then the fault.
        await lockFaultCounters(tx, [before.device.id]);
        const [row] = await tx.select({ status: faults.status }).from(faults).where(eq(faults.id, id)).for('update');
        if (!row) throw new AppError(404, 'NOT_FOUND');
        if (row.status === 'resolved') throw new AppError(409, 'FAULT_RESOLVED');
        const at = new Date();
        await tx.insert(faultRepairs).values({ faultId: id, at, by: caller.account, action: body.action, result: body.result, note: body.note });
        if (body.result === 'in_progress') {
          await tx.update(faults).set({ status: 'repairing' }).where(eq(faults.id, id));
        } else {
          await tx.update(faults).set({ status: 'resolved', resolvedAt: at, resolvedBy: caller.account }).where(eq(faults.id, id));
          // Kept at zero, not deleted: an offline window remembers its last episode.
          await tx
            .update(faultCounters)
            .set({ count: 0 })
            .where(and(eq(faultCounters.deviceRef, before.device.id), eq(faultCounters.kind, before.kind)));
        }
        await record(tx, caller, before.orgId, 'fault_repair', `${before.device.deviceId} ${before.kind}: ${body.result}`, meta);
      });
      return detail(caller, id);
    },

    async export(caller: Caller, q: FaultQuery, format: ExportFormat, lang: Lang, tz: string): Promise<ExportFile> {
      const w = await where(caller, q);
      if ((await countOf(w)) > MAX_EXPORT_ROWS) throw new AppError(400, 'EXPORT_TOO_LARGE');
      const rows = (
        await selectFaults(db)
          .where(w)
          .orderBy(...orderBy(q.sort, SORTABLE, DEFAULT_SORT, faults.id))
          .limit(MAX_EXPORT_ROWS)
      ).map(toRow);
      return exportRows({
        format,
        lang,
        timezone: tz,
        name: { zh: '设备故障', en: 'device-faults' },
        sheet: { zh: '设备故障', en: 'Device faults' },
        columns: [
          { header: { zh: '最近发生', en: 'Last seen' }, value: (r) => new Date(r.lastAt), width: 21 },
          { header: { zh: '首次发现', en: 'First seen' }, value: (r) => new Date(r.firstAt), width: 21 },
          { header: { zh: '故障类型', en: 'Fault type' }, value: (r) => KIND_NAMES[r.kind][lang], width: 16 },
          { header: { zh: '状态', en: 'Status' }, value: (r) => STATUS_NAMES[r.status][lang] },
          { header: { zh: '设备编号', en: 'Device ID' }, value: (r) => r.device.deviceId, width: 20 },
          { header: { zh: '设备名称', en: 'Device name' }, value: (r) => r.device.name, width: 20 },
          { header: { zh: '资产', en: 'Asset' }, value: (r) => (r.asset ? `${r.asset.code} ${r.asset.name}` : ''), width: 24 },
          { header: { zh: '发生次数', en: 'Occurrences' }, value: (r) => r.count },
          { header: { zh: '故障现象', en: 'What was seen' }, value: (r) => seenText(r.kind, r.detail, lang), width: 40 },
          { header: { zh: '维修次数', en: 'Repairs' }, value: (r) => r.repairCount },
          { header: { zh: '解决时间', en: 'Resolved' }, value: (r) => (r.resolvedAt ? new Date(r.resolvedAt) : null), width: 21 },
          { header: { zh: '解决人', en: 'Resolved by' }, value: (r) => r.resolvedBy },
          { header: { zh: '组织', en: 'Organisation' }, value: (r) => r.orgName, width: 24 },
        ],
        rows,
      });
    },
  };
}
export type FaultService = ReturnType<typeof faultService>;

// Operational data comparison: two to six warehouses, vehicles or routes on one metric over two
// periods. Metrics of tasks are one SQL query per period for all targets; metrics of readings
// read the targets' devices' readings of the period through the readings archive's reader (packs
// and rows alike) and compute in Node. The definitions are those written in
// packages/shared/src/compare.ts. Targets outside the caller's organisations answer 404.
import { sql, type SQL } from 'drizzle-orm';
import type { Lang } from '@iotc/shared/i18n';
import type { ExportFormat } from '@iotc/shared/list';
import {
  MAX_COMPARE_DAYS,
  METRIC_UNITS,
  METRICS_BY_KIND,
  type CompareAnswer,
  type CompareKind,
  type CompareMetric,
  type CompareQuery,
  type CompareRoutes,
} from '@iotc/shared/compare';
import { rowsOf, type Db } from '../../db/client.ts';
import { tsParam as ts } from '../../db/list.ts';
import { exportRows, formatInstant, type ExportFile } from '../../lib/export.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import { firstReadingUs, readPackRows, sensorsOf, sensorText } from '../archive/reader.ts';
import type { PackRow } from '../archive/pack.ts';

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Longest interval one "door open" reading counts for (30 minutes, in microseconds). */
const DOOR_CAP_US = 30 * 60 * 1_000_000;

interface Period {
  from: Date;
  to: Date;
}
interface Target {
  id: string;
  name: string;
}
type Values = Map<string, number | null>;
type Raw = { target: string; v: number | string | null };

const round2 = (v: number) => Math.round(v * 100) / 100;
const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
const list = (values: readonly string[], cast: SQL) => sql.join(values.map((v) => sql`${v}${cast}`), sql`, `);

/** A reading's temperature when it is a number. */
const temperatureOf = (r: PackRow): number | null => {
  const v = sensorsOf(r).temperature;
  return typeof v === 'number' ? v : null;
};
const TASK_AT = sql`coalesce(tt.started_at, tt.planned_start, tt.created_at)`;
const DELIVERED = sql`tt.status in ('arrived', 'completed')`;
const FINISHED = sql`coalesce(tt.arrived_at, tt.completed_at)`;

/** On-time rate in percent of the delivered tasks (alias tt) with a planned arrival. */
const onTimeRate = sql`100.0 * count(*) filter (where ${DELIVERED} and tt.planned_arrival is not null and ${FINISHED} <= tt.planned_arrival)
  / nullif(count(*) filter (where ${DELIVERED} and tt.planned_arrival is not null), 0)`;
/** `column` is one of the caller's organisations. */
const orgIn = (column: SQL, scope: readonly string[]) => sql`${column} in (${list(scope, sql`::uuid`)})`;

export const METRIC_NAMES: Record<CompareMetric, Record<Lang, string>> = {
  compliance: { zh: '温度合格率', en: 'Temperature compliance rate' },
  alarmRate: { zh: '每千小时告警数', en: 'Alarms per 1,000 hours' },
  avgTemp: { zh: '平均温度', en: 'Average temperature' },
  doorOpen: { zh: '开门时长', en: 'Door-open time' },
  onTime: { zh: '准时率', en: 'On-time rate' },
  mileage: { zh: '里程', en: 'Mileage' },
};
const KIND_NAMES: Record<CompareKind, Record<Lang, string>> = {
  warehouse: { zh: '仓库', en: 'Warehouse' },
  vehicle: { zh: '车辆', en: 'Vehicle' },
  route: { zh: '线路', en: 'Route' },
};

function checkPeriod(from: string, to: string): Period {
  const p = { from: new Date(from), to: new Date(to) };
  if (p.to.getTime() <= p.from.getTime()) throw new AppError(400, 'TRACK_RANGE_INVERTED');
  if (p.to.getTime() - p.from.getTime() > MAX_COMPARE_DAYS * DAY_MS) throw new AppError(400, 'COMPARE_RANGE_TOO_LONG');
  return p;
}

/** The current devices of the target assets (a warehouse's include its rooms'), with the range that applies to each. */
function targetDevices(ids: string[]): SQL {
  return sql`dev as (
    select tg.id as target, b.device_ref,
      case when a.temp_min is null and a.temp_max is null then tg.temp_min else a.temp_min end as lo,
      case when a.temp_min is null and a.temp_max is null then tg.temp_max else a.temp_max end as hi
    from assets tg
    join assets a on a.id = tg.id or a.parent_id = tg.id
    join device_bindings b on b.asset_ref = a.id and b.unbound_at is null and b.device_ref is not null
    where tg.id in (${list(ids, sql`::uuid`)}))`;
}

export function compareService(db: Db) {
  const byTarget = (rows: Raw[]): Values => new Map(rows.map((r) => [r.target, num(r.v)]));

  /** The targets' devices (targetDevices), each with the readings of the period, through the readings archive's reader. */
  async function targetReadings(ids: string[], p: Period) {
    const devs = rowsOf<{ target: string; device_ref: string; lo: number | string | null; hi: number | string | null }>(await db.execute(sql`with ${targetDevices(ids)} select * from dev`));
    const out: { target: string; deviceRef: string; lo: number | null; hi: number | null; readings: PackRow[] }[] = [];
    for (const d of devs) {
      out.push({ target: d.target, deviceRef: d.device_ref, lo: num(d.lo), hi: num(d.hi), readings: await readPackRows(db, d.device_ref, { from: p.from.getTime(), to: p.to.getTime() }, { fields: ['temperature', 'door', 'mileage'] }) });
    }
    return out;
  }

  /** Sums per target: `add(target, value)` then `values(of)` (a target with nothing added is absent). */
  function perTarget<T>(start: () => T) {
    const acc = new Map<string, T>();
    return {
      get: (target: string) => acc.get(target) ?? acc.set(target, start()).get(target)!,
      values: (of: (x: T) => number | null): Values => new Map([...acc].map(([k, x]) => [k, of(x)])),
    };
  }

  async function assetMetric(kind: 'warehouse' | 'vehicle', metric: CompareMetric, ids: string[], p: Period, scope: readonly string[]): Promise<Values> {
    const dev = targetDevices(ids);
    const run = async (q: SQL) => byTarget(rowsOf<Raw>(await db.execute(q)));
    switch (metric) {
      case 'avgTemp': {
        const acc = perTarget(() => ({ sum: 0, n: 0 }));
        for (const d of await targetReadings(ids, p)) {
          const a = acc.get(d.target);
          for (const r of d.readings) {
            const v = temperatureOf(r);
            if (v === null) continue;
            a.sum += v;
            a.n++;
          }
        }
        return acc.values((a) => (a.n > 0 ? a.sum / a.n : null));
      }
      case 'compliance': {
        const acc = perTarget(() => ({ ranged: 0, inside: 0 }));
        for (const d of await targetReadings(ids, p)) {
          const a = acc.get(d.target);
          if (d.lo === null && d.hi === null) continue;
          for (const r of d.readings) {
            const v = temperatureOf(r);
            if (v === null) continue;
            a.ranged++;
            if ((d.lo === null || v >= d.lo) && (d.hi === null || v <= d.hi)) a.inside++;
          }
        }
        return acc.values((a) => (a.ranged > 0 ? (100 * a.inside) / a.ranged : null));
      }
      case 'doorOpen': {
        // Each "open" reading counts until the next reading of its device (or the period's end), at most DOOR_CAP.
        const acc = perTarget(() => ({ doors: 0, openUs: 0 }));
        const endUs = p.to.getTime() * 1000;
        for (const d of await targetReadings(ids, p)) {
          const a = acc.get(d.target);
          d.readings.forEach((r, i) => {
            const door = sensorText(sensorsOf(r), 'door');
            if (door === null) return;
            a.doors++;
            if (door !== 'open') return;
            const next = d.readings[i + 1]?.timeUs ?? endUs;
            a.openUs += Math.min(next, r.timeUs + DOOR_CAP_US) - r.timeUs;
          });
        }
        return acc.values((a) => (a.doors === 0 ? null : a.openUs / 1_000_000 / 60));
      }
      case 'alarmRate': {
        // Per 1,000 hours of each device's life in the period: from when it existed (created, or
        // its first reading when that is earlier, as with back-filled history) to the period's end
        // (never past now). A device installed today is not divided by the whole period.
        const end = new Date(Math.min(p.to.getTime(), Date.now()));
        if (end.getTime() <= p.from.getTime()) return new Map();
        const rows = rowsOf<{ target: string; device_ref: string; created_us: number | string; alarms: number | string }>(
          await db.execute(sql`with ${dev}
            select dev.target, dev.device_ref, (extract(epoch from d.created_at) * 1000000)::int8 as created_us,
              (select count(*) from alarms al where al.device_ref = dev.device_ref and al.started_at >= ${ts(p.from)} and al.started_at < ${ts(p.to)}) as alarms
            from dev join devices d on d.id = dev.device_ref`),
        );
        const acc = perTarget(() => ({ hours: 0, alarms: 0 }));
        for (const r of rows) {
          const first = await firstReadingUs(db, r.device_ref);
          const born = Math.min(Number(r.created_us), first ?? Number(r.created_us));
          const a = acc.get(r.target);
          a.hours += Math.max(end.getTime() * 1000 - Math.max(p.from.getTime() * 1000, born), 0) / 3_600_000_000;
          a.alarms += Number(r.alarms);
        }
        const v = acc.values((a) => (a.hours > 0 ? (a.alarms / a.hours) * 1000 : null));
        return new Map([...v].filter(([, x]) => x !== null));
      }
      case 'mileage': {
        // Per device, the last odometer reading of the period less the first; summed per target.
        const acc = perTarget(() => ({ km: 0, any: false }));
        for (const d of await targetReadings(ids, p)) {
          const odo = d.readings.map((r) => sensorsOf(r).mileage).filter((m): m is number => typeof m === 'number');
          if (odo.length === 0) continue;
          const a = acc.get(d.target);
          a.km += odo[odo.length - 1]! - odo[0]!;
          a.any = true;
        }
        return new Map([...acc.values((a) => (a.any ? a.km : null))].filter(([, x]) => x !== null));
      }
      case 'onTime':
        if (kind !== 'vehicle') return new Map();
        return run(sql`select tt.asset_ref as target, ${onTimeRate} as v from transport_tasks tt
          where ${orgIn(sql`tt.org_id`, scope)} and tt.asset_ref in (${list(ids, sql`::uuid`)})
            and ${TASK_AT} >= ${ts(p.from)} and ${TASK_AT} < ${ts(p.to)}
          group by tt.asset_ref`);
    }
  }

  async function routeMetric(metric: CompareMetric, keys: string[], p: Period, scope: readonly string[]): Promise<Values> {
    const tasks = sql`tasks as (select tt.*, tt.origin_name || ' → ' || tt.destination_name as target from transport_tasks tt
      where ${orgIn(sql`tt.org_id`, scope)} and tt.origin_name || ' → ' || tt.destination_name in (${list(keys, sql`::text`)})
        and ${TASK_AT} >= ${ts(p.from)} and ${TASK_AT} < ${ts(p.to)})`;
    // While a task ran: from its start to its arrival (or completion), or to the period's end (never past now).
    const ranTo = sql`coalesce(tt.arrived_at, tt.completed_at, least(${ts(p.to)}, now()))`;
    const run = async (q: SQL) => byTarget(rowsOf<Raw>(await db.execute(q)));
    switch (metric) {
      case 'onTime':
        return run(sql`with ${tasks} select tt.target, ${onTimeRate} as v from tasks tt group by tt.target`);
      case 'mileage':
        return run(sql`with ${tasks} select tt.target, coalesce(sum(tt.planned_distance_m) filter (where ${DELIVERED}), 0) / 1000.0 as v from tasks tt group by tt.target`);
      case 'alarmRate':
        return run(sql`with ${tasks}, ran as (
            select tt.target, greatest(extract(epoch from ${ranTo} - tt.started_at), 0) / 3600.0 as hours,
              (select count(*) from alarms al where al.task_id = tt.id) as alarms
            from tasks tt where tt.started_at is not null and tt.status <> 'cancelled')
          select target, sum(alarms) * 1000.0 / nullif(sum(hours), 0) as v from ran group by target`);
      case 'avgTemp': {
        const ran = rowsOf<{ target: string; device_ref: string; from_ms: number | string; to_ms: number | string }>(
          await db.execute(sql`with ${tasks} select tt.target, td.device_ref,
              (extract(epoch from tt.started_at) * 1000)::float8 as from_ms, (extract(epoch from ${ranTo}) * 1000)::float8 as to_ms
            from tasks tt join transport_task_devices td on td.task_id = tt.id where tt.started_at is not null`),
        );
        const acc = perTarget(() => ({ sum: 0, n: 0 }));
        for (const t of ran) {
          const a = acc.get(t.target);
          for (const r of await readPackRows(db, t.device_ref, { from: Number(t.from_ms), to: Number(t.to_ms), toInclusive: true }, { fields: ['temperature'] })) {
            const v = temperatureOf(r);
            if (v === null) continue;
            a.sum += v;
            a.n++;
          }
        }
        return new Map([...acc.values((a) => (a.n > 0 ? a.sum / a.n : null))].filter(([, x]) => x !== null));
      }
      default:
        return new Map();
    }
  }

  /** The targets, checked to be the caller's; any other answers 404, as if it did not exist. */
  async function targets(q: CompareQuery, scope: readonly string[]): Promise<Target[]> {
    if (q.kind === 'route') {
      const rows = rowsOf<{ key: string }>(
        await db.execute(sql`select distinct tt.origin_name || ' → ' || tt.destination_name as key from transport_tasks tt
          where ${orgIn(sql`tt.org_id`, scope)} and tt.origin_name || ' → ' || tt.destination_name in (${list(q.ids, sql`::text`)})`),
      );
      const found = new Set(rows.map((r) => r.key));
      if (q.ids.some((id) => !found.has(id))) throw new AppError(404, 'NOT_FOUND');
      return q.ids.map((id) => ({ id, name: id }));
    }
    if (q.ids.some((id) => !UUID.test(id))) throw new AppError(404, 'NOT_FOUND');
    const rows = rowsOf<{ id: string; name: string }>(
      await db.execute(sql`select a.id, a.name from assets a
        where ${orgIn(sql`a.org_id`, scope)} and a.kind = ${q.kind} and a.id in (${list(q.ids, sql`::uuid`)})`),
    );
    const names = new Map(rows.map((r) => [r.id, r.name]));
    if (q.ids.some((id) => !names.has(id.toLowerCase()))) throw new AppError(404, 'NOT_FOUND');
    return q.ids.map((id) => ({ id: id.toLowerCase(), name: names.get(id.toLowerCase())! }));
  }

  async function compare(caller: Caller, q: CompareQuery): Promise<CompareAnswer & { periods: [Period, Period] }> {
    if (!METRICS_BY_KIND[q.kind].includes(q.metric)) throw new AppError(400, 'COMPARE_METRIC_NOT_ALLOWED');
    const a = checkPeriod(q.aFrom, q.aTo);
    const b = checkPeriod(q.bFrom, q.bTo);
    if (new Set(q.kind === 'route' ? q.ids : q.ids.map((id) => id.toLowerCase())).size !== q.ids.length) throw new AppError(400, 'COMPARE_TARGETS_REPEATED');
    const scope = caller.scope.orgs;
    const chosen = await targets(q, scope);
    const ids = chosen.map((x) => x.id);
    const metricOf = (p: Period) => (q.kind === 'route' ? routeMetric(q.metric, ids, p, scope) : assetMetric(q.kind, q.metric, ids, p, scope));
    const [va, vb] = await Promise.all([metricOf(a), metricOf(b)]);
    const value = (m: Values, id: string) => {
      const v = m.get(id);
      return v === null || v === undefined || !Number.isFinite(v) ? null : round2(v);
    };
    return {
      metric: q.metric,
      unit: METRIC_UNITS[q.metric],
      rows: chosen.map((x) => {
        const av = value(va, x.id);
        const bv = value(vb, x.id);
        return { id: x.id, name: x.name, a: av, b: bv, change: av === null || bv === null ? null : round2(av - bv) };
      }),
      periods: [a, b],
    };
  }

  return {
    async compare(caller: Caller, q: CompareQuery): Promise<CompareAnswer> {
      const { periods: _periods, ...answer } = await compare(caller, q);
      return answer;
    },

    /** The route keys of the caller's organisations, most tasks first. */
    async routes(caller: Caller): Promise<CompareRoutes> {
      const scope = caller.scope.orgs;
      const rows = rowsOf<{ key: string; tasks: number | string }>(
        await db.execute(sql`select tt.origin_name || ' → ' || tt.destination_name as key, count(*) as tasks from transport_tasks tt
          where ${orgIn(sql`tt.org_id`, scope)} group by 1 order by 2 desc, 1 limit 500`),
      );
      return rows.map((r) => ({ key: r.key, tasks: Number(r.tasks) }));
    },

    async export(caller: Caller, q: CompareQuery, format: ExportFormat, lang: Lang, tz: string): Promise<ExportFile> {
      const r = await compare(caller, q);
      const unit = r.unit === '/1000h' ? '' : ` (${r.unit})`;
      const span = (p: Period) => `${formatInstant(p.from, tz).slice(0, 16)} – ${formatInstant(p.to, tz).slice(0, 16)}`;
      const [a, b] = r.periods;
      const metric = METRIC_NAMES[q.metric];
      return exportRows<(typeof r.rows)[number]>({
        format,
        lang,
        timezone: tz,
        name: { zh: `运营数据对比-${metric.zh}`, en: `Comparison-${metric.en}` },
        sheet: { zh: '运营数据对比', en: 'Comparison' },
        columns: [
          { header: KIND_NAMES[q.kind], value: (x) => x.name, width: 30 },
          { header: { zh: `周期 A ${span(a)}${unit}`, en: `Period A ${span(a)}${unit}` }, value: (x) => x.a, width: 36 },
          { header: { zh: `周期 B ${span(b)}${unit}`, en: `Period B ${span(b)}${unit}` }, value: (x) => x.b, width: 36 },
          { header: { zh: '变化（A − B）', en: 'Change (A − B)' }, value: (x) => x.change, width: 16 },
        ],
        rows: r.rows,
      });
    },
  };
}

export type CompareService = ReturnType<typeof compareService>;

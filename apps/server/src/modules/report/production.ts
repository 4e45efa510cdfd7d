// Production reports of the transport scenario: the tasks of a time range (by their start, or
// planned start, or creation) counted per period (day, week from Monday, month, in the request's
// time zone), customer, route (origin → destination) or vehicle/container, with deliveries, the
// on-time rate, the alarm rate and distances. One SQL query with the grouping done by the
// database; the totals are the same query without grouping.
import { sql, type SQL } from 'drizzle-orm';
import type { Lang } from '@iotc/shared/i18n';
import type { ExportFormat } from '@iotc/shared/list';
import { MAX_PRODUCTION_DAYS, type ProductionQuery, type ProductionReport, type ProductionRow } from '@iotc/shared/report';
import { rowsOf, type Db } from '../../db/client.ts';
import { inOrgs } from '../../db/list.ts';
import { transportTasks } from '../../db/schema.ts';
import { exportRows, type ExportFile } from '../../lib/export.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';

type Raw = Record<Exclude<keyof ProductionRow, 'onTimeRate' | 'alarmRate' | 'key'>, number | string> & { key: string | null; not_cancelled: number | string };

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

function toRow(r: Raw): ProductionRow {
  const n = (v: number | string) => Number(v);
  const onTime = n(r.onTime);
  const late = n(r.late);
  const withAlarms = n(r.withAlarms);
  return {
    key: r.key ?? '',
    tasks: n(r.tasks),
    pending: n(r.pending),
    inTransit: n(r.inTransit),
    delivered: n(r.delivered),
    cancelled: n(r.cancelled),
    onTime,
    late,
    onTimeRate: rate(onTime, onTime + late),
    withAlarms,
    alarms: n(r.alarms),
    alarmRate: rate(withAlarms, n(r.not_cancelled)),
    distanceM: Math.round(n(r.distanceM)),
    goodsValue: n(r.goodsValue),
  };
}

export function productionService(db: Db) {
  async function report(caller: Caller, q: ProductionQuery, tz: string): Promise<ProductionReport> {
    const from = new Date(q.from);
    const to = new Date(q.to);
    if (to.getTime() <= from.getTime()) throw new AppError(400, 'TRACK_RANGE_INVERTED');
    if (to.getTime() - from.getTime() > MAX_PRODUCTION_DAYS * 86_400_000) throw new AppError(400, 'REPORT_RANGE_TOO_LONG');
    const scope = caller.scope.within(q.orgId);
    const at = sql`coalesce(transport_tasks.started_at, transport_tasks.planned_start, transport_tasks.created_at)`;
    const key: SQL =
      q.groupBy === 'period'
        ? sql`to_char(date_trunc(${q.period}, ${at} at time zone ${tz}), 'YYYY-MM-DD')`
        : q.groupBy === 'customer'
          ? sql`transport_tasks.customer`
          : q.groupBy === 'route'
            ? sql`transport_tasks.origin_name || ' → ' || transport_tasks.destination_name`
            : sql`coalesce(assets.code, '')`;
    const delivered = sql`transport_tasks.status in ('arrived', 'completed')`;
    const finishedAt = sql`coalesce(transport_tasks.arrived_at, transport_tasks.completed_at)`;
    const measures = sql`count(*)::int as "tasks",
      count(*) filter (where transport_tasks.status = 'pending')::int as "pending",
      count(*) filter (where transport_tasks.status = 'in_transit')::int as "inTransit",
      count(*) filter (where ${delivered})::int as "delivered",
      count(*) filter (where transport_tasks.status = 'cancelled')::int as "cancelled",
      count(*) filter (where ${delivered} and transport_tasks.planned_arrival is not null and ${finishedAt} <= transport_tasks.planned_arrival)::int as "onTime",
      count(*) filter (where ${delivered} and transport_tasks.planned_arrival is not null and ${finishedAt} > transport_tasks.planned_arrival)::int as "late",
      count(*) filter (where transport_tasks.status <> 'cancelled' and x.alarms > 0)::int as "withAlarms",
      coalesce(sum(x.alarms) filter (where transport_tasks.status <> 'cancelled'), 0)::int as "alarms",
      count(*) filter (where transport_tasks.status <> 'cancelled')::int as not_cancelled,
      coalesce(sum(transport_tasks.planned_distance_m) filter (where ${delivered}), 0)::float8 as "distanceM",
      coalesce(sum(transport_tasks.goods_value), 0)::float8 as "goodsValue"`;
    const body = sql`from transport_tasks
      left join assets on assets.id = transport_tasks.asset_ref
      cross join lateral (select count(*)::int as alarms from alarms a where a.task_id = transport_tasks.id) x
      where ${inOrgs(transportTasks.orgId, scope)} and ${at} >= ${from.toISOString()}::timestamptz and ${at} < ${to.toISOString()}::timestamptz`;
    const [rows, totals] = await Promise.all([
      db.execute(sql`select ${key} as key, ${measures} ${body} group by 1 order by 1`),
      db.execute(sql`select null as key, ${measures} ${body}`),
    ]);
    return { rows: rowsOf<Raw>(rows).map(toRow), totals: toRow(rowsOf<Raw>(totals)[0]!) };
  }

  return {
    report,
    async export(caller: Caller, q: ProductionQuery, format: ExportFormat, lang: Lang, tz: string): Promise<ExportFile> {
      const r = await report(caller, q, tz);
      const none = { zh: '（未填写）', en: '(none)' }[lang];
      const total = { zh: '合计', en: 'Total' }[lang];
      const pct = (v: number | null) => (v === null ? '' : `${(v * 100).toFixed(1)}%`);
      const group = {
        period: { zh: { day: '日期', week: '周（起始日）', month: '月份' }[q.period], en: { day: 'Day', week: 'Week (from)', month: 'Month' }[q.period] },
        customer: { zh: '客户', en: 'Customer' },
        route: { zh: '线路', en: 'Route' },
        vehicle: { zh: '车辆或集装箱', en: 'Vehicle or container' },
      }[q.groupBy];
      return exportRows<ProductionRow & { label: string }>({
        format,
        lang,
        timezone: tz,
        name: { zh: '生产报表', en: 'Production report' },
        sheet: { zh: '生产报表', en: 'Production report' },
        columns: [
          { header: group, value: (x) => x.label, width: 26 },
          { header: { zh: '任务数', en: 'Tasks' }, value: (x) => x.tasks, width: 10 },
          { header: { zh: '待出发', en: 'Pending' }, value: (x) => x.pending, width: 10 },
          { header: { zh: '在途', en: 'In transit' }, value: (x) => x.inTransit, width: 10 },
          { header: { zh: '已送达', en: 'Delivered' }, value: (x) => x.delivered, width: 10 },
          { header: { zh: '已取消', en: 'Cancelled' }, value: (x) => x.cancelled, width: 10 },
          { header: { zh: '准时', en: 'On time' }, value: (x) => x.onTime, width: 10 },
          { header: { zh: '延误', en: 'Late' }, value: (x) => x.late, width: 10 },
          { header: { zh: '准时率', en: 'On-time rate' }, value: (x) => pct(x.onTimeRate), width: 12 },
          { header: { zh: '有告警任务', en: 'Tasks with alarms' }, value: (x) => x.withAlarms, width: 14 },
          { header: { zh: '告警数', en: 'Alarms' }, value: (x) => x.alarms, width: 10 },
          { header: { zh: '告警率', en: 'Alarm rate' }, value: (x) => pct(x.alarmRate), width: 12 },
          { header: { zh: '计划里程（km）', en: 'Planned distance (km)' }, value: (x) => Math.round(x.distanceM / 100) / 10, width: 16 },
          { header: { zh: '货值', en: 'Goods value' }, value: (x) => x.goodsValue, width: 14 },
        ],
        rows: [...r.rows.map((x) => ({ ...x, label: x.key || none })), { ...r.totals, label: total }],
      });
    },
  };
}

export type ProductionService = ReturnType<typeof productionService>;

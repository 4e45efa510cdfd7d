// The alarm report of the Reports menu (packages/shared/src/ops-report.ts): the alarms of the
// caller's organisation tree that STARTED in a local day, ISO week or month, grouped by asset,
// device, type or level, with counts per level, acknowledgements, the ones still open at the end
// of the period, the mean time to the (first) acknowledgement, the mean duration of the ended
// ones and the active time clipped to the period; per day counts by level. The grouping and the
// sums are done by the database (one query grouped by key and level, one by day and level).
// As JSON, PDF (with a bar chart per day by level) and Excel, in the request's language.
import { eq, sql, type SQL } from 'drizzle-orm';
import { chartSvg } from '../../lib/chart-svg.ts';
import type { Lang } from '@iotc/shared/i18n';
import { reportRange, type AlarmReport, type AlarmReportQuery, type AlarmReportRow } from '@iotc/shared/ops-report';
import { rowsOf, type Db } from '../../db/client.ts';
import { tsParam as ts, uuidList as uuids } from '../../db/list.ts';
import { orgs } from '../../db/schema.ts';
import type { ExportFile } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import { CONTENT_W } from '../../lib/pdf-kit.ts';
import { fileDate, opsPdf, opsXlsx, shortDuration, type OpsDocument } from './ops-pdf.ts';
import { OPS_TEXTS } from './ops-texts.ts';
import { REPORT_TEXTS } from './texts.ts';

type Raw = {
  key: string | null;
  label: string | null;
  level: string;
  total: number | string;
  acknowledged: number | string;
  open: number | string;
  ack_sum: number | string | null;
  ended: number | string;
  duration_sum: number | string | null;
  active_sum: number | string | null;
};

interface Acc {
  key: string;
  label: string;
  byLevel: Record<string, number>;
  total: number;
  acknowledged: number;
  open: number;
  ackSum: number;
  ended: number;
  durationSum: number;
  activeSum: number;
}

const newAcc = (key: string, label: string): Acc => ({ key, label, byLevel: {}, total: 0, acknowledged: 0, open: 0, ackSum: 0, ended: 0, durationSum: 0, activeSum: 0 });

function add(a: Acc, r: Raw) {
  const n = Number(r.total);
  a.byLevel[r.level] = (a.byLevel[r.level] ?? 0) + n;
  a.total += n;
  a.acknowledged += Number(r.acknowledged);
  a.open += Number(r.open);
  a.ackSum += Number(r.ack_sum ?? 0);
  a.ended += Number(r.ended);
  a.durationSum += Number(r.duration_sum ?? 0);
  a.activeSum += Number(r.active_sum ?? 0);
}

const round1 = (v: number) => Math.round(v * 10) / 10;

function toRow(a: Acc): AlarmReportRow {
  return {
    key: a.key,
    label: a.label,
    total: a.total,
    byLevel: a.byLevel,
    acknowledged: a.acknowledged,
    open: a.open,
    meanAckS: a.acknowledged > 0 ? round1(a.ackSum / a.acknowledged) : null,
    meanDurationS: a.ended > 0 ? round1(a.durationSum / a.ended) : null,
    activeS: round1(a.activeSum),
  };
}

export function alarmReportService(db: Db) {
  async function report(caller: Caller, q: AlarmReportQuery, tz: string, lang: Lang = 'en'): Promise<AlarmReport> {
    const range = reportRange(q.period, q.date, tz);
    const now = Date.now();
    const scope = caller.scope.orgs;
    const assetIds = q.assetIds ? [...new Set(q.assetIds.map((id) => id.toLowerCase()))] : undefined;
    if (assetIds?.length) {
      // Explicit assets must all be the caller's: any other answers 404, as if it did not exist.
      const found = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from assets where id = any(${uuids(assetIds)}) and org_id = any(${uuids(scope)})`));
      if (Number(found[0]!.n) !== assetIds.length) throw new AppError(404, 'NOT_FOUND');
    }
    const where = sql`al.org_id = any(${uuids(scope)}) and al.started_at >= ${ts(range.from)} and al.started_at < ${ts(range.to)}
      ${q.type ? sql`and al.type = ${q.type}` : sql``}
      ${assetIds?.length ? sql`and al.asset_ref = any(${uuids(assetIds)})` : sql``}`;
    const [key, label]: [SQL, SQL] =
      q.groupBy === 'asset'
        ? [sql`al.asset_ref::text`, sql`min(a.name)`]
        : q.groupBy === 'device'
          ? [sql`al.device_ref::text`, sql`min(coalesce(nullif(d.name, ''), d.device_id))`]
          : q.groupBy === 'type'
            ? [sql`al.type`, sql`al.type`]
            : [sql`lv.code`, sql`lv.code`];
    // Active inside the period: from its start to its end (or now, or the period's end), whichever is first.
    const end = sql`least(coalesce(al.ended_at, ${ts(now)}), ${ts(range.to)})`;
    const secs = (a: SQL, b: SQL) => sql`extract(epoch from (${a}) - (${b}))`;
    const groupRows = rowsOf<Raw>(
      await db.execute(sql`select ${key} as key, ${label} as label, lv.code as level,
          count(*) as total,
          count(al.acknowledged_at) as acknowledged,
          count(*) filter (where al.ended_at is null or al.ended_at > ${ts(range.to)}) as open,
          sum(${secs(sql`al.acknowledged_at`, sql`al.started_at`)}) as ack_sum,
          count(al.ended_at) as ended,
          sum(${secs(sql`al.ended_at`, sql`al.started_at`)}) as duration_sum,
          sum(greatest(${secs(end, sql`al.started_at`)}, 0)) as active_sum
        from alarms al
        join alarm_levels lv on lv.id = al.level_id
        left join assets a on a.id = al.asset_ref
        left join devices d on d.id = al.device_ref
        where ${where}
        group by ${key}, lv.code`),
    );
    const dayRows = rowsOf<{ day: string; level: string; n: number | string }>(
      await db.execute(sql`select to_char(al.started_at at time zone ${tz}, 'YYYY-MM-DD') as day, lv.code as level, count(*) as n
        from alarms al join alarm_levels lv on lv.id = al.level_id
        where ${where} group by 1, 2`),
    );
    // The levels: the caller's organisation's own first, then its children's (codes are per organisation).
    const levelRows = rowsOf<{ code: string; name_zh: string; name_en: string; color: string; priority: number | string }>(
      await db.execute(sql`select distinct on (code) code, name_zh, name_en, color, priority from alarm_levels
        where org_id = any(${uuids(scope)}) order by code, (org_id = ${caller.orgId}::uuid) desc, priority`),
    );
    levelRows.sort((a, b) => Number(a.priority) - Number(b.priority) || a.code.localeCompare(b.code));

    const groups = new Map<string, Acc>();
    const totals = newAcc('', '');
    for (const r of groupRows) {
      const k = r.key ?? '';
      let g = groups.get(k);
      if (!g) groups.set(k, (g = newAcc(k, r.label ?? '')));
      add(g, r);
      add(totals, r);
    }
    const perDay = range.days.map((d) => ({ date: d.date, byLevel: {} as Record<string, number>, total: 0 }));
    const dayIndex = new Map(perDay.map((d, i) => [d.date, i]));
    for (const r of dayRows) {
      const d = perDay[dayIndex.get(r.day) ?? -1];
      if (!d) continue;
      d.byLevel[r.level] = (d.byLevel[r.level] ?? 0) + Number(r.n);
      d.total += Number(r.n);
    }
    const { key: _k, label: _l, ...total } = toRow(totals);
    return {
      period: range.period,
      start: range.start,
      end: range.end,
      timezone: tz,
      groupBy: q.groupBy,
      levels: levelRows.map((l) => ({ code: l.code, name: lang === 'zh' ? l.name_zh : l.name_en, color: l.color })),
      rows: [...groups.values()].map(toRow).sort((a, b) => b.total - a.total || a.label.localeCompare(b.label)),
      perDay,
      totals: total,
      generatedAt: new Date(now).toISOString(),
    };
  }

  async function file(caller: Caller, q: AlarmReportQuery, format: 'pdf' | 'xlsx', lang: Lang, tz: string): Promise<ExportFile> {
    const r = await report(caller, q, tz, lang);
    const [org] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, caller.orgId));
    const x = OPS_TEXTS[lang];
    const a = x.alarm;
    const typeName = (code: string) => REPORT_TEXTS[lang].alarmTypes[code] ?? code;
    const levelName = (code: string) => r.levels.find((l) => l.code === code)?.name ?? code;
    const labelOf = (row: AlarmReportRow) =>
      q.groupBy === 'type' ? typeName(row.key) : q.groupBy === 'level' ? levelName(row.key) : row.label || (q.groupBy === 'asset' ? a.noAsset : x.none);
    const dur = (s: number | null) => (s === null ? '—' : shortDuration(s, lang));
    const cells = (row: Omit<AlarmReportRow, 'key' | 'label'>) => [
      row.total,
      ...r.levels.map((l) => row.byLevel[l.code] ?? 0),
      row.acknowledged,
      row.open,
      dur(row.meanAckS),
      dur(row.meanDurationS),
      dur(row.activeS),
    ];
    const doc: OpsDocument = {
      lang,
      title: a.title,
      docName: a.fileName,
      orgName: org?.name ?? '',
      period: r.period,
      start: r.start,
      end: r.end,
      timezone: r.timezone,
      generatedAt: r.generatedAt,
      extraFacts: q.type ? [[a.type, typeName(q.type)]] : [],
      chartSvg: r.perDay.length > 1 && r.totals.total > 0 ? { svg: perDayChart(r, Math.round(CONTENT_W), 200), height: 200, legend: r.levels.map((l) => ({ label: l.name, color: l.color })) } : null,
      days: {
        headers: [x.date, a.total, ...r.levels.map((l) => l.name)],
        widths: [24, 14, ...r.levels.map(() => 14)],
        rows: r.perDay.map((d) => [d.date, d.total, ...r.levels.map((l) => d.byLevel[l.code] ?? 0)]),
        totals: [x.total, r.totals.total, ...r.levels.map((l) => r.totals.byLevel[l.code] ?? 0)],
      },
      table: {
        headers: [a.groupBy[q.groupBy]!, a.total, ...r.levels.map((l) => l.name), a.acknowledged, a.open, a.meanAck, a.meanDuration, a.active],
        widths: [40, 12, ...r.levels.map(() => 11), 14, 14, 22, 22, 22],
        rows: r.rows.map((row) => [labelOf(row), ...cells(row)]),
        totals: [x.total, ...cells(r.totals)],
      },
      sheetName: a.sheet,
      daysSheetName: a.sheetDays,
    };
    const name = `${a.fileName}-${fileDate(r.period, r.start, r.end)}`;
    if (format === 'xlsx') return { contentType: XLSX_TYPE, filename: `${name}.xlsx`, body: await opsXlsx(doc) };
    return { contentType: 'application/pdf', filename: `${name}.pdf`, body: await opsPdf(doc) };
  }

  return { report, file };
}

export type AlarmReportService = ReturnType<typeof alarmReportService>;

/** Alarms started per day, stacked by level in the levels' colours (ECharts rendered to SVG). */
function perDayChart(r: AlarmReport, width: number, height: number): string {
  return chartSvg(
    {
      textStyle: { fontFamily: 'Noto Sans SC' },
      grid: { left: 40, right: 12, top: 12, bottom: 28 },
      xAxis: { type: 'category', data: r.perDay.map((d) => d.date.slice(5)), axisLabel: { fontSize: 8, hideOverlap: true } },
      yAxis: { type: 'value', minInterval: 1, axisLabel: { fontSize: 8 } },
      series: r.levels.map((l) => ({ type: 'bar', stack: 'all', name: l.name, itemStyle: { color: l.color }, data: r.perDay.map((d) => d.byLevel[l.code] ?? 0) })),
    },
    { width, height },
  );
}

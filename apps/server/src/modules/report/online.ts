// The device online rate of the Reports menu (packages/shared/src/ops-report.ts): per device and
// local day, the time it was online (from each stored report for the offline threshold, or until
// its next report, whichever is first) over the time counted (the day, from the device's creation
// and never past now), the outages (gaps past the threshold that began inside the period) and the
// longest offline stretch. The database does the work with window functions (lead over each
// device's reports in time order) and returns a handful of numbers per device and day, so a month
// of many devices never brings their reports into Node. As JSON, PDF and Excel.
import { eq, sql } from 'drizzle-orm';
import type { Lang } from '@iotc/shared/i18n';
import { MAX_REPORT_SUBJECTS, reportRange, type OnlineReport, type OnlineReportQuery, type OnlineReportRow } from '@iotc/shared/ops-report';
import { rowsOf, type Db } from '../../db/client.ts';
import { orgTree, tsParam as ts, uuidList as uuids } from '../../db/list.ts';
import { orgs } from '../../db/schema.ts';
import { formatInstant, type ExportFile } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import { AppError } from '../../plugins/errors.ts';
import type { Caller } from '../auth/service.ts';
import { fileDate, opsPdf, opsXlsx, shortDuration, type OpsDocument } from './ops-pdf.ts';
import { OPS_TEXTS } from './ops-texts.ts';
import { percent } from './gsp-lines.ts';

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1_000_000) / 1_000_000 : null);
const round1 = (v: number) => Math.round(v * 10) / 10;

interface DeviceRow {
  id: string;
  device_id: string;
  name: string;
  created_at: Date | string;
  asset: string | null;
  last_seen: Date | string | null;
}

export function onlineReportService(db: Db, opts: { offlineAfterMs: number }) {
  const thrS = opts.offlineAfterMs / 1000;

  /** The devices listed: the requested ones (all the caller's, else 404) or the organisation tree's, at most MAX_REPORT_SUBJECTS. */
  async function devicesOf(caller: Caller, q: OnlineReportQuery, to: number): Promise<DeviceRow[]> {
    const scope = await orgTree(db, caller.orgId);
    const ids = q.deviceIds?.length ? [...new Set(q.deviceIds.map((id) => id.toLowerCase()))] : null;
    const rows = rowsOf<DeviceRow>(
      // Counted from the device's creation, or from its first stored report when that is earlier
      // (history uploaded for a device registered afterwards, as the demo's is).
      await db.execute(sql`select d.id, d.device_id, d.name, least(d.created_at, (select min(t.time) from telemetry t where t.device_ref = d.id)) as created_at,
          (select b.asset_name from device_bindings b where b.device_ref = d.id and b.unbound_at is null limit 1) as asset,
          (select max(t.time) from telemetry t where t.device_ref = d.id and t.time < ${ts(to)}) as last_seen
        from devices d
        where d.org_id = any(${uuids(scope)}) ${ids ? sql`and d.id = any(${uuids(ids)})` : sql``}
        order by d.device_id limit ${MAX_REPORT_SUBJECTS}`),
    );
    if (ids && rows.length !== ids.length) throw new AppError(404, 'NOT_FOUND');
    return rows;
  }

  async function report(caller: Caller, q: OnlineReportQuery, tz: string): Promise<OnlineReport> {
    const range = reportRange(q.period, q.date, tz);
    const now = Date.now();
    const until = Math.min(range.to, now);
    const list = await devicesOf(caller, q, range.to);
    const dates = range.days.map((d) => d.date);
    const empty: OnlineReport = {
      period: range.period,
      start: range.start,
      end: range.end,
      timezone: tz,
      offlineAfterS: thrS,
      dates,
      rows: [],
      overall: { days: range.days.map(() => null), rate: null },
      generatedAt: new Date(now).toISOString(),
    };
    if (list.length === 0) return empty;

    const thr = sql`(${thrS}::float8 * interval '1 second')`;
    const days = sql.join(
      range.days.map((d, i) => sql`(${i}::int, ${ts(d.from)}, ${ts(d.to)})`),
      sql`, `,
    );
    // dev: each device's counted span [s0, s1); r: its reports from one threshold before the
    // period (an earlier report keeps it online into the period), each with the next one.
    const base = sql`dev as (
        select id, greatest(least(created_at, (select min(t.time) from telemetry t where t.device_ref = devices.id)), ${ts(range.from)}) as s0, ${ts(until)}::timestamptz as s1
        from devices where id = any(${uuids(list.map((d) => d.id))})),
      r as (
        select t.device_ref, t.time, lead(t.time) over (partition by t.device_ref order by t.time) as next
        from telemetry t
        where t.device_ref = any(${uuids(list.map((d) => d.id))}) and t.time >= ${ts(range.from)} - ${thr} and t.time < ${ts(range.to)}),
      w as (
        select r.device_ref, r.time, r.next, dev.s0, dev.s1, least(coalesce(r.next, r.time + ${thr}), r.time + ${thr}) as e
        from r join dev on dev.id = r.device_ref)`;
    const [perDay, stats] = await Promise.all([
      // The windows [time, e) of one device do not overlap (e is at most the next report): their union is their sum.
      db.execute(sql`with ${base}, days(i, d0, d1) as (values ${days})
        select w.device_ref, days.i,
          sum(extract(epoch from least(w.e, days.d1, w.s1) - greatest(w.time, days.d0, w.s0))) as online
        from w join days on w.time < days.d1 and w.e > days.d0
        where least(w.e, days.d1, w.s1) > greatest(w.time, days.d0, w.s0)
        group by 1, 2`),
      // Offline stretches after a report: [time + threshold, next report (or the end)).
      db.execute(sql`with ${base}
        select w.device_ref,
          count(*) filter (where w.time >= ${ts(range.from)}) as reports,
          min(w.time) as first_t,
          count(*) filter (where coalesce(w.next, w.s1) > w.time + ${thr} and w.time + ${thr} >= w.s0 and w.time + ${thr} < w.s1) as outages,
          max(extract(epoch from least(coalesce(w.next, w.s1), w.s1) - greatest(w.time + ${thr}, w.s0)))
            filter (where least(coalesce(w.next, w.s1), w.s1) > greatest(w.time + ${thr}, w.s0)) as longest
        from w group by 1`),
    ]);
    const online = new Map<string, number[]>();
    for (const r of rowsOf<{ device_ref: string; i: number | string; online: number | string }>(perDay)) {
      let arr = online.get(r.device_ref);
      if (!arr) online.set(r.device_ref, (arr = range.days.map(() => 0)));
      arr[Number(r.i)] = Number(r.online);
    }
    const statOf = new Map(
      rowsOf<{ device_ref: string; reports: number | string; first_t: Date | string | null; outages: number | string; longest: number | string | null }>(stats).map((r) => [r.device_ref, r]),
    );

    const dayOnline = range.days.map(() => 0);
    const dayExpected = range.days.map(() => 0);
    const rows: OnlineReportRow[] = list.map((d) => {
      const created = new Date(d.created_at).getTime();
      const s0 = Math.max(created, range.from);
      const st = statOf.get(d.id);
      const on = online.get(d.id) ?? range.days.map(() => 0);
      let onlineS = 0;
      let expectedS = 0;
      const days = range.days.map((day, i) => {
        const exp = Math.max(0, Math.min(day.to, until) - Math.max(day.from, s0)) / 1000;
        if (exp <= 0) return null;
        const o = Math.min(on[i]!, exp);
        onlineS += o;
        expectedS += exp;
        dayOnline[i]! += o;
        dayExpected[i]! += exp;
        return rate(o, exp);
      });
      // Offline from the start of the counted span until the first report (none: all of it).
      const first = st?.first_t ? new Date(st.first_t).getTime() : null;
      const head = until > s0 ? Math.max(0, Math.min(first ?? until, until) - s0) / 1000 : 0;
      return {
        deviceId: d.device_id,
        name: d.name,
        asset: d.asset,
        days,
        onlineS: round1(onlineS),
        expectedS: round1(expectedS),
        rate: rate(onlineS, expectedS),
        outages: Number(st?.outages ?? 0),
        longestOutageS: round1(Math.max(head, Number(st?.longest ?? 0))),
        reports: Number(st?.reports ?? 0),
        lastSeenAt: d.last_seen ? new Date(d.last_seen).toISOString() : null,
      };
    });
    const totalOnline = dayOnline.reduce((s, v) => s + v, 0);
    const totalExpected = dayExpected.reduce((s, v) => s + v, 0);
    return {
      ...empty,
      rows,
      overall: { days: dayOnline.map((o, i) => (dayExpected[i]! > 0 ? rate(o, dayExpected[i]!) : null)), rate: rate(totalOnline, totalExpected) },
    };
  }

  async function file(caller: Caller, q: OnlineReportQuery, format: 'pdf' | 'xlsx', lang: Lang, tz: string): Promise<ExportFile> {
    const r = await report(caller, q, tz);
    const [org] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, caller.orgId));
    const x = OPS_TEXTS[lang];
    const o = x.online;
    const dur = (s: number) => shortDuration(s, lang);
    const totalOnline = r.rows.reduce((s, row) => s + row.onlineS, 0);
    const doc: OpsDocument = {
      lang,
      title: o.title,
      docName: o.fileName,
      orgName: org?.name ?? '',
      period: r.period,
      start: r.start,
      end: r.end,
      timezone: r.timezone,
      generatedAt: r.generatedAt,
      extraFacts: [[o.threshold, o.rule(Math.round((r.offlineAfterS / 60) * 10) / 10)]],
      days: {
        headers: [x.date, `${o.rate} (${o.overall})`],
        widths: [30, 30],
        rows: r.dates.map((date, i) => [date, r.overall.days[i] === null ? null : percent(r.overall.days[i]!)]),
        totals: [x.total, percent(r.overall.rate)],
      },
      table: {
        headers: [o.device, o.name, o.asset, o.rate, o.online, o.outages, o.longest, o.reports, o.lastSeen],
        widths: [30, 26, 24, 16, 24, 14, 24, 14, 34],
        rows: r.rows.map((row) => [
          row.deviceId,
          row.name,
          row.asset,
          percent(row.rate),
          dur(row.onlineS),
          row.outages,
          dur(row.longestOutageS),
          row.reports,
          row.lastSeenAt ? formatInstant(new Date(row.lastSeenAt), r.timezone) : null,
        ]),
        totals: [o.overall, '', '', percent(r.overall.rate), dur(totalOnline), r.rows.reduce((s, row) => s + row.outages, 0), '', r.rows.reduce((s, row) => s + row.reports, 0), ''],
      },
      xlsxExtra: {
        headers: r.dates,
        rows: r.rows.map((row) => row.days.map((v) => (v === null ? null : percent(v)))),
      },
      sheetName: o.sheet,
      daysSheetName: x.sectionDays,
    };
    const name = `${o.fileName}-${fileDate(r.period, r.start, r.end)}`;
    if (format === 'xlsx') return { contentType: XLSX_TYPE, filename: `${name}.xlsx`, body: await opsXlsx(doc) };
    return { contentType: 'application/pdf', filename: `${name}.pdf`, body: await opsPdf(doc) };
  }

  return { report, file };
}

export type OnlineReportService = ReturnType<typeof onlineReportService>;

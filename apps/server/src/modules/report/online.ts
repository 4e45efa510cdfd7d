// The device online rate of the Reports menu (packages/shared/src/ops-report.ts): per device and
// local day, the time it was online (from each stored report for the offline threshold, or until
// its next report, whichever is first) over the time counted (the day, from the device's creation
// and never past now), the outages (gaps past the threshold that began inside the period) and the
// longest offline stretch. Each device's report times come through the readings archive's one
// reader (packs and rows alike, times only: no sensors unpacked), in microseconds as the database
// keeps them, so the figures are the same whichever way the readings are stored. As JSON, PDF and Excel.
import { eq, sql } from 'drizzle-orm';
import type { Lang } from '@iotc/shared/i18n';
import { MAX_REPORT_SUBJECTS, reportRange, type OnlineReport, type OnlineReportQuery, type OnlineReportRow } from '@iotc/shared/ops-report';
import { rowsOf, type Db } from '../../db/client.ts';
import { uuidList as uuids } from '../../db/list.ts';
import { orgs } from '../../db/schema.ts';
import { formatInstant, type ExportFile } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import { fileDate, opsPdf, opsXlsx, shortDuration, type OpsDocument } from './ops-pdf.ts';
import { OPS_TEXTS } from './ops-texts.ts';
import { percent } from './gsp-lines.ts';
import { firstReadingUs, lastReadingUsBefore, readPackRows } from '../archive/reader.ts';

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1_000_000) / 1_000_000 : null);
const round1 = (v: number) => Math.round(v * 10) / 10;

interface DeviceRow {
  id: string;
  device_id: string;
  name: string;
  /** Its creation, or its first stored report when that is earlier (microseconds). */
  createdUs: number;
  asset: string | null;
  lastSeenUs: number | null;
}

export function onlineReportService(db: Db, opts: { offlineAfterMs: number }) {
  const thrS = opts.offlineAfterMs / 1000;

  /** The devices listed: the requested ones (all the caller's, else 404) or the organisation tree's, at most MAX_REPORT_SUBJECTS. */
  async function devicesOf(caller: Caller, q: OnlineReportQuery, to: number): Promise<DeviceRow[]> {
    const scope = caller.scope.orgs;
    const ids = q.deviceIds?.length ? [...new Set(q.deviceIds.map((id) => id.toLowerCase()))] : null;
    const found = rowsOf<{ id: string; device_id: string; name: string; created_us: string | number; asset: string | null }>(
      await db.execute(sql`select d.id, d.device_id, d.name, (extract(epoch from d.created_at) * 1000000)::int8 as created_us,
          (select b.asset_name from device_bindings b where b.device_ref = d.id and b.unbound_at is null limit 1) as asset
        from devices d
        where d.org_id = any(${uuids(scope)}) ${ids ? sql`and d.id = any(${uuids(ids)})` : sql``}
        order by d.device_id limit ${MAX_REPORT_SUBJECTS}`),
    );
    if (ids && found.length !== ids.length) throw new AppError(404, 'NOT_FOUND');
    // Counted from the device's creation, or from its first stored report when that is earlier
    // (history uploaded for a device registered afterwards, as the demo's is); packs and rows alike.
    const rows: DeviceRow[] = [];
    for (const d of found) {
      const first = await firstReadingUs(db, d.id);
      const last = await lastReadingUsBefore(db, d.id, to);
      rows.push({ id: d.id, device_id: d.device_id, name: d.name, createdUs: Math.min(Number(d.created_us), first ?? Number.POSITIVE_INFINITY), asset: d.asset, lastSeenUs: last });
    }
    return rows;
  }

  /** One device's online time per day and its outage figures, from its readings' times (microseconds throughout, as the database keeps them). */
  async function deviceFigures(d: DeviceRow, range: ReturnType<typeof reportRange>, until: number) {
    const thrUs = thrS * 1_000_000;
    const s0 = Math.max(d.createdUs, range.from * 1000);
    const s1 = until * 1000;
    // Its reports from one threshold before the period (an earlier report keeps it online into the period).
    const times = (await readPackRows(db, d.id, { from: range.from - thrS * 1000, to: range.to }, { sensors: false })).map((p) => p.timeUs);
    const online = range.days.map(() => 0);
    let reports = 0;
    let outages = 0;
    let longest: number | null = null;
    for (let k = 0; k < times.length; k++) {
      const t = times[k]!;
      const next = k + 1 < times.length ? times[k + 1]! : null;
      // Online from each report for the threshold, or until the next report, whichever is first.
      const e = Math.min(next ?? t + thrUs, t + thrUs);
      range.days.forEach((day, i) => {
        const d0 = day.from * 1000;
        const d1 = day.to * 1000;
        if (!(t < d1 && e > d0)) return;
        const span = Math.min(e, d1, s1) - Math.max(t, d0, s0);
        if (span > 0) online[i]! += span;
      });
      if (t >= range.from * 1000) reports++;
      // Offline stretches after a report: [time + threshold, next report (or the end)).
      const gapEnd = next ?? s1;
      if (gapEnd > t + thrUs && t + thrUs >= s0 && t + thrUs < s1) outages++;
      const stretch = Math.min(gapEnd, s1) - Math.max(t + thrUs, s0);
      if (stretch > 0) longest = Math.max(longest ?? 0, stretch);
    }
    return { online: online.map((us) => us / 1_000_000), reports, firstUs: times.length ? times[0]! : null, outages, longestS: longest === null ? 0 : longest / 1_000_000 };
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

    const figures = new Map<string, Awaited<ReturnType<typeof deviceFigures>>>();
    for (const d of list) figures.set(d.id, await deviceFigures(d, range, until));

    const dayOnline = range.days.map(() => 0);
    const dayExpected = range.days.map(() => 0);
    const rows: OnlineReportRow[] = list.map((d) => {
      const s0 = Math.max(Math.floor(d.createdUs / 1000), range.from);
      const f = figures.get(d.id)!;
      let onlineS = 0;
      let expectedS = 0;
      const days = range.days.map((day, i) => {
        const exp = Math.max(0, Math.min(day.to, until) - Math.max(day.from, s0)) / 1000;
        if (exp <= 0) return null;
        const o = Math.min(f.online[i]!, exp);
        onlineS += o;
        expectedS += exp;
        dayOnline[i]! += o;
        dayExpected[i]! += exp;
        return rate(o, exp);
      });
      // Offline from the start of the counted span until the first report (none: all of it).
      const first = f.firstUs === null ? null : Math.floor(f.firstUs / 1000);
      const head = until > s0 ? Math.max(0, Math.min(first ?? until, until) - s0) / 1000 : 0;
      return {
        deviceId: d.device_id,
        name: d.name,
        asset: d.asset,
        days,
        onlineS: round1(onlineS),
        expectedS: round1(expectedS),
        rate: rate(onlineS, expectedS),
        outages: f.outages,
        longestOutageS: round1(Math.max(head, f.longestS)),
        reports: f.reports,
        lastSeenAt: d.lastSeenUs === null ? null : new Date(Math.floor(d.lastSeenUs / 1000)).toISOString(),
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

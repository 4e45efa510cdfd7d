// The mileage report of the Reports menu (packages/shared/src/ops-report.ts): the distance of each
// vehicle and container of the caller's organisation tree per local day, from the devices bound
// to it during the period (device_bindings, each device only while bound, as the GSP record does).
// Where a device reports the odometer (`mileage`, km) the day's distance is the last reading up to
// the day's end minus the last one before (looking back at most ODOMETER_LOOKBACK_DAYS before the
// period); else it is the distance of the trips detected in its GPS track by the shared trip
// detection (packages/shared/src/trips.ts: jumps and LBS positions left out, stops' wander not
// counted), each stretch counted on the local day it ends. Driving time, trips and the top speed
// come from the same trips. When two devices report for one asset at once (a tracker and a logger)
// the day's distance is the larger of theirs, and the trips are those of the one that drove
// farthest, so nothing is counted twice. As JSON, PDF and Excel.
import { and, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Lang } from '@iotc/shared/i18n';
import { distanceM } from '@iotc/shared/alarm-rules';
import { MAX_REPORT_SUBJECTS, reportRange, type MileageReport, type MileageReportQuery, type MileageReportRow, type ReportRange } from '@iotc/shared/ops-report';
import { detectTrips, GPS_ERROR_M, TRIP_DEFAULTS } from '@iotc/shared/trips';
import type { Db } from '../../db/client.ts';
import { assets, deviceBindings, orgs } from '../../db/schema.ts';
import type { ExportFile } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import { fileDate, opsPdf, opsXlsx, shortDuration, type OpsDocument } from './ops-pdf.ts';
import { OPS_TEXTS } from './ops-texts.ts';
import { readPackRows, sensorsOf } from '../archive/reader.ts';
import type { PackRow } from '../archive/pack.ts';

const MILEAGE_KINDS = ['vehicle', 'container'] as const;
/** How far before the period the last odometer reading is looked for. */
const ODOMETER_LOOKBACK_DAYS = 31;
/** Most readings of one device read for one report (a month at one every 10 s). */
const MAX_DEVICE_READINGS = 300_000;
const DAY_MS = 86_400_000;

const round2 = (v: number) => Math.round(v * 100) / 100;

interface Reading {
  t: number;
  lat: number | null;
  lon: number | null;
  lbs: boolean;
  speed: number | null;
  mileage: number | null;
}

interface DeviceResult {
  source: 'odometer' | 'gps' | 'none';
  /** km per day, null outside the device's window. */
  days: (number | null)[];
  gpsKm: number;
  drivingS: number;
  trips: number;
  maxSpeedKmh: number | null;
}

/** The local day index of instant t, or -1 outside the period. */
function dayOf(range: ReportRange, t: number): number {
  for (let i = 0; i < range.days.length; i++) if (t >= range.days[i]!.from && t < range.days[i]!.to) return i;
  return -1;
}

/** Distance per day along the trips' accepted GPS fixes (jumps and LBS positions left out). */
function gpsPerDay(range: ReportRange, fixes: Reading[]): { days: number[]; drivingS: number; trips: number; maxSpeedKmh: number | null } {
  const days = range.days.map(() => 0);
  const track = {
    t: Float64Array.from(fixes, (r) => r.t),
    lat: Float64Array.from(fixes, (r) => r.lat!),
    lon: Float64Array.from(fixes, (r) => r.lon!),
    lbs: Uint8Array.from(fixes, (r) => (r.lbs ? 1 : 0)),
    speed: Float64Array.from(fixes, (r) => r.speed ?? Number.NaN),
  };
  const res = detectTrips(track);
  const ignored = new Set(res.ignored);
  const maxMPerMs = TRIP_DEFAULTS.maxSpeedKmh / 3600;
  let drivingS = 0;
  let maxSpeed: number | null = null;
  for (const trip of res.trips) {
    drivingS += trip.durationS;
    maxSpeed = Math.max(maxSpeed ?? 0, trip.maxSpeedKmh);
    let prev = -1;
    for (let i = trip.startIndex; i <= trip.endIndex; i++) {
      if (ignored.has(i) || track.lbs[i]) continue;
      if (prev >= 0) {
        const d = distanceM(track.lat[prev]!, track.lon[prev]!, track.lat[i]!, track.lon[i]!);
        // A believed jump (a break) counts no distance, as in the trip detection.
        const day = dayOf(range, track.t[i]!);
        if (day >= 0 && d <= maxMPerMs * (track.t[i]! - track.t[prev]!) + GPS_ERROR_M) days[day]! += d / 1000;
      }
      prev = i;
    }
  }
  return { days, drivingS, trips: res.trips.length, maxSpeedKmh: maxSpeed };
}

export function mileageReportService(db: Db) {
  /** The odometer of a reading when it is a number (`jsonb_typeof(sensors->'mileage') = 'number'`). */
  const odometer = (p: PackRow) => {
    const m = sensorsOf(p).mileage;
    return typeof m === 'number' ? m : null;
  };

  async function readingsOf(deviceRef: string, from: number, to: number): Promise<Reading[]> {
    const rows = await readPackRows(db, deviceRef, { from, to }, { limit: MAX_DEVICE_READINGS, fields: ['mileage'], filter: (p) => (p.lat !== null && p.lon !== null) || odometer(p) !== null });
    return rows.map((p) => ({ t: Math.floor(p.timeUs / 1000), lat: p.lat, lon: p.lon, lbs: p.positioning === 'LBS', speed: p.speed, mileage: odometer(p) }));
  }

  /** The last odometer reading in [from, to), or null. */
  async function lastOdometer(deviceRef: string, from: number, to: number): Promise<number | null> {
    if (to <= from) return null;
    const [last] = await readPackRows(db, deviceRef, { from, to }, { desc: true, limit: 1, fields: ['mileage'], filter: (p) => odometer(p) !== null });
    return last ? odometer(last) : null;
  }

  async function device(range: ReportRange, deviceRef: string, boundAt: number, w0: number, w1: number): Promise<DeviceResult> {
    const readings = await readingsOf(deviceRef, w0, w1);
    const inWindow = range.days.map((d) => d.from < w1 && d.to > w0);
    const fixes = readings.filter((r) => r.lat !== null && r.lon !== null && Number.isFinite(r.lat) && Number.isFinite(r.lon) && !(r.lat === 0 && r.lon === 0));
    const gps = gpsPerDay(range, fixes);
    const gpsKm = gps.days.reduce((s, v) => s + v, 0);
    const odo = readings.filter((r) => r.mileage !== null);
    let source: DeviceResult['source'] = 'none';
    let days: (number | null)[] = range.days.map(() => null);
    if (odo.length > 0) {
      source = 'odometer';
      // The last reading before the window (while bound), else the window's first.
      let last = (await lastOdometer(deviceRef, Math.max(boundAt, range.from - ODOMETER_LOOKBACK_DAYS * DAY_MS), w0)) ?? odo[0]!.mileage!;
      let k = 0;
      days = range.days.map((d, i) => {
        let dayEnd = last;
        while (k < odo.length && odo[k]!.t < d.to) dayEnd = odo[k++]!.mileage!;
        // A reading below the one before (a reset or a replaced device) counts nothing.
        const km = Math.max(0, dayEnd - last);
        last = dayEnd;
        return inWindow[i] ? km : null;
      });
    } else if (fixes.length > 0) {
      source = 'gps';
      days = gps.days.map((v, i) => (inWindow[i] ? v : null));
    }
    return { source, days, gpsKm, drivingS: gps.drivingS, trips: gps.trips, maxSpeedKmh: gps.maxSpeedKmh };
  }

  async function report(caller: Caller, q: MileageReportQuery, tz: string): Promise<MileageReport> {
    const range = reportRange(q.period, q.date, tz);
    const now = Date.now();
    const until = Math.min(range.to, now);
    const scope = caller.scope.orgs;
    const ids = q.assetIds?.length ? [...new Set(q.assetIds.map((id) => id.toLowerCase()))] : null;
    const list = await db
      .select({ id: assets.id, name: assets.name, code: assets.code, kind: assets.kind })
      .from(assets)
      .where(and(inArray(assets.orgId, scope), inArray(assets.kind, [...MILEAGE_KINDS]), ids ? inArray(assets.id, ids) : undefined))
      .orderBy(assets.kind, assets.code)
      .limit(MAX_REPORT_SUBJECTS);
    // Explicit assets must all be the caller's vehicles or containers: any other answers 404, as if it did not exist.
    if (ids && list.length !== ids.length) throw new AppError(404, 'NOT_FOUND');
    const bindings = list.length
      ? await db
          .select({ assetRef: deviceBindings.assetRef, deviceRef: deviceBindings.deviceRef, boundAt: deviceBindings.boundAt, unboundAt: deviceBindings.unboundAt })
          .from(deviceBindings)
          .where(
            and(
              inArray(
                deviceBindings.assetRef,
                list.map((a) => a.id),
              ),
              lt(deviceBindings.boundAt, new Date(until)),
              or(isNull(deviceBindings.unboundAt), gt(deviceBindings.unboundAt, new Date(range.from))),
            ),
          )
      : [];
    const rows: MileageReportRow[] = [];
    for (const a of list) {
      const results: DeviceResult[] = [];
      for (const b of bindings) {
        if (b.assetRef !== a.id || !b.deviceRef) continue;
        const w0 = Math.max(range.from, b.boundAt.getTime());
        const w1 = Math.min(until, b.unboundAt?.getTime() ?? until);
        if (w1 > w0) results.push(await device(range, b.deviceRef, b.boundAt.getTime(), w0, w1));
      }
      const source: MileageReportRow['source'] = results.some((r) => r.source === 'odometer') ? 'odometer' : results.some((r) => r.source === 'gps') ? 'gps' : 'none';
      const chosen = results.filter((r) => r.source === source);
      const days = range.days.map((_, i) => {
        const values = chosen.map((r) => r.days[i]).filter((v): v is number => v !== null && v !== undefined);
        return values.length ? round2(Math.max(...values)) : null;
      });
      const driver = results.reduce<DeviceResult | null>((best, r) => (!best || r.gpsKm > best.gpsKm ? r : best), null);
      rows.push({
        assetId: a.id,
        name: a.name,
        kind: a.kind,
        plate: a.kind === 'vehicle' ? a.code : null,
        days,
        totalKm: round2(days.reduce<number>((s, v) => s + (v ?? 0), 0)),
        source,
        drivingS: Math.round(driver?.drivingS ?? 0),
        trips: driver?.trips ?? 0,
        maxSpeedKmh: driver?.maxSpeedKmh === null || driver?.maxSpeedKmh === undefined ? null : round2(driver.maxSpeedKmh),
      });
    }
    return {
      period: range.period,
      start: range.start,
      end: range.end,
      timezone: tz,
      dates: range.days.map((d) => d.date),
      rows,
      totalKm: round2(rows.reduce((s, r) => s + r.totalKm, 0)),
      generatedAt: new Date(now).toISOString(),
    };
  }

  async function file(caller: Caller, q: MileageReportQuery, format: 'pdf' | 'xlsx', lang: Lang, tz: string): Promise<ExportFile> {
    const r = await report(caller, q, tz);
    const [org] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, caller.orgId));
    const x = OPS_TEXTS[lang];
    const m = x.mileage;
    const km = (v: number | null) => (v === null ? null : v.toFixed(1));
    const doc: OpsDocument = {
      lang,
      title: m.title,
      docName: m.fileName,
      orgName: org?.name ?? '',
      period: r.period,
      start: r.start,
      end: r.end,
      timezone: r.timezone,
      generatedAt: r.generatedAt,
      extraFacts: [[m.method, m.rule]],
      days: {
        headers: [x.date, m.total],
        widths: [30, 30],
        rows: r.dates.map((date, i) => {
          const values = r.rows.map((row) => row.days[i]).filter((v): v is number => v !== null);
          return [date, values.length ? km(values.reduce((s, v) => s + v, 0)) : null];
        }),
        totals: [x.total, km(r.totalKm)],
      },
      table: {
        headers: [m.asset, m.kind, m.plate, m.source, m.total, m.driving, m.trips, m.maxSpeed],
        widths: [36, 16, 22, 20, 18, 26, 12, 18],
        rows: r.rows.map((row) => [row.name, m.kinds[row.kind] ?? row.kind, row.plate, m.sources[row.source] ?? row.source, km(row.totalKm), shortDuration(row.drivingS, lang), row.trips, km(row.maxSpeedKmh)]),
        totals: [x.total, '', '', '', km(r.totalKm), shortDuration(r.rows.reduce((s, row) => s + row.drivingS, 0), lang), r.rows.reduce((s, row) => s + row.trips, 0), ''],
      },
      xlsxExtra: { headers: r.dates, rows: r.rows.map((row) => row.days.map((v) => (v === null ? null : round2(v)))) },
      sheetName: m.sheet,
      daysSheetName: x.sectionDays,
    };
    const name = `${m.fileName}-${fileDate(r.period, r.start, r.end)}`;
    if (format === 'xlsx') return { contentType: XLSX_TYPE, filename: `${name}.xlsx`, body: await opsXlsx(doc) };
    return { contentType: 'application/pdf', filename: `${name}.pdf`, body: await opsPdf(doc) };
  }

  return { report, file };
}

export type MileageReportService = ReturnType<typeof mileageReportService>;

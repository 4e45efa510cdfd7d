// The shipment report of one transport task: what happened to the goods between the start and
// the arrival, with proof. Temperature statistics (min, max, average and the mean kinetic
// temperature of USP <1160>, time out of range with the longest excursion and the cumulative
// time) from packages/shared/src/shipment.ts over the task's first device; humidity; distance
// driven; the task's alarms. As JSON (the screen), as a PDF in the request's language and time
// zone (shipment-pdf.ts), and as Excel with the raw readings.
import { and, asc, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Lang } from '@iotc/shared/i18n';
import { placeText } from '@iotc/shared/geocode';
import { MAX_SHIPMENT_READINGS, type ShipmentPosition, type ShipmentReport } from '@iotc/shared/report';
import type { TaskBatch, TripBudget } from '@iotc/shared/product';
import { temperatureStats } from '@iotc/shared/shipment';
import { plannedPath } from '@iotc/shared/transport-progress';
import { detectTrips } from '@iotc/shared/trips';
import type { Db } from '../../db/client.ts';
import { isoOrNull } from '../../db/list.ts';
import { alarmLevels, alarms, assets, devices, orgs, transportTaskDevices, transportTasks } from '../../db/schema.ts';
import { formatInstant, type ExportFile } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { Geocoder } from '../geocode/service.ts';
import { shipmentPdf } from './shipment-pdf.ts';
import { signaturesOfRecord } from '../signature/service.ts';
import type { ShipmentData, ShipmentReading } from './shipment-data.ts';
import { REPORT_TEXTS, type ReportTexts } from './texts.ts';
import { alarmValueNumber, durationText } from '@iotc/shared/format';
import { readPackRows, sensorNumber, sensorsOf, sensorText } from '../archive/reader.ts';

interface TaskSettings {
  route?: [number, number][];
  /** The addresses typed or picked with the origin and destination (empty when none). */
  originAddress?: string;
  destinationAddress?: string;
  tempMin?: number | null;
  tempMax?: number | null;
  humidityMin?: number | null;
  humidityMax?: number | null;
}

/** The geocoder's batch helper (modules/geocode): the addresses of the places in the PDF and Excel files. */
export interface ShipmentOptions {
  geocoder?: Pick<Geocoder, 'reverseMany'>;
  /** The batches the task carries with their budgets (modules/product); none without it. */
  batches?: (taskId: string) => Promise<TaskBatch[]>;
  /** The trip alone against the task's product profile (modules/product); none without it. */
  tripBudget?: (taskId: string) => Promise<TripBudget | null>;
}

/** Fixes further than this from an alarm's start do not stand for its position. */
const NEAREST_FIX_MS = 15 * 60_000;

/** The reading with a position nearest to `t` (within NEAREST_FIX_MS), as a position without address. */
function fixNear(fixes: readonly ShipmentReading[], t: number): ShipmentPosition | null {
  let best: ShipmentReading | null = null;
  for (const r of fixes) if (!best || Math.abs(r.t - t) < Math.abs(best.t - t)) best = r;
  return best && Math.abs(best.t - t) <= NEAREST_FIX_MS ? { lat: best.lat!, lon: best.lon!, address: null } : null;
}

const usable = (lat: number | null, lon: number | null) => lat !== null && lon !== null && Number.isFinite(lat) && Number.isFinite(lon) && !(lat === 0 && lon === 0);

/**
 * The report with the geocoder's addresses where it has none (issue 26 item 3): the origin and
 * destination without one of the task's own first, then the alarms, then the longest excursion,
 * in one batch (reverseMany: cached answers, a few asked, none after a failure). A position it
 * does not name keeps its coordinates alone; the geocoder's failures never fail the report.
 */
export async function withAddresses(r: ShipmentReport, lang: Lang, geocoder?: Pick<Geocoder, 'reverseMany'>): Promise<ShipmentReport> {
  if (!geocoder) return r;
  const slots: ShipmentPosition[] = [];
  const want = (p: ShipmentPosition | null | undefined) => {
    if (p && !p.address) slots.push(p);
  };
  want(r.places?.origin);
  want(r.places?.destination);
  for (const a of r.alarms) want(a.position);
  want(r.longestExcursionAt);
  if (slots.length === 0) return r;
  const names = await geocoder.reverseMany(slots, lang).catch(() => slots.map(() => null));
  const named = new Map(slots.map((p, i) => [p, names[i] ?? null]));
  const fill = (p: ShipmentPosition | null | undefined) => (p ? { ...p, address: p.address ?? named.get(p) ?? null } : p);
  return {
    ...r,
    places: r.places && { origin: fill(r.places.origin)!, destination: fill(r.places.destination)! },
    alarms: r.alarms.map((a) => ({ ...a, position: fill(a.position) })),
    longestExcursionAt: fill(r.longestExcursionAt),
  };
}

export function shipmentService(db: Db, opts: ShipmentOptions = {}) {
  async function readingsOf(deviceRef: string, from: Date, to: Date): Promise<ShipmentReading[]> {
    const rows = await readPackRows(db, deviceRef, { from: from.getTime(), to: to.getTime(), toInclusive: true }, { limit: MAX_SHIPMENT_READINGS, fields: ['temperature', 'humidity', 'door', 'battery'] });
    return rows.map((p) => {
      const s = sensorsOf(p);
      return {
        t: Math.floor(p.timeUs / 1000),
        lat: p.lat,
        lon: p.lon,
        positioning: p.positioning,
        speed: p.speed,
        temp: sensorNumber(s, 'temperature'),
        humidity: sensorNumber(s, 'humidity'),
        door: sensorText(s, 'door'),
        battery: sensorNumber(s, 'battery'),
      };
    });
  }

  async function data(caller: Caller, taskId: string, lang: Lang): Promise<ShipmentData> {
    const [row] = await db
      .select({ t: transportTasks, orgName: orgs.name, assetCode: assets.code })
      .from(transportTasks)
      .innerJoin(orgs, eq(orgs.id, transportTasks.orgId))
      .leftJoin(assets, eq(assets.id, transportTasks.assetRef))
      .where(eq(transportTasks.id, taskId));
    if (!row || !caller.scope.has(row.t.orgId)) throw new AppError(404, 'NOT_FOUND');
    const t = row.t;
    const settings = t.settings as TaskSettings;
    const taskDevices = await db
      .select({ id: devices.id, deviceId: devices.deviceId, name: devices.name })
      .from(transportTaskDevices)
      .innerJoin(devices, eq(devices.id, transportTaskDevices.deviceRef))
      .where(eq(transportTaskDevices.taskId, t.id))
      .orderBy(asc(transportTaskDevices.position));
    const from = t.startedAt ?? t.plannedStart ?? t.createdAt;
    const end = t.arrivedAt ?? t.completedAt ?? t.cancelledAt ?? new Date();
    const to = end.getTime() > from.getTime() ? end : new Date(from.getTime() + 1000);
    const readings = taskDevices[0] ? await readingsOf(taskDevices[0].id, from, to) : [];
    const limits = { tempMin: settings.tempMin ?? null, tempMax: settings.tempMax ?? null, humidityMin: settings.humidityMin ?? null, humidityMax: settings.humidityMax ?? null };
    const temperature = temperatureStats(
      readings.filter((r) => r.temp !== null || r.humidity !== null || r.door !== null).map((r) => ({ t: r.t, value: r.temp })),
      { min: limits.tempMin, max: limits.tempMax },
      { from: from.getTime(), to: to.getTime() },
    );
    const hum = readings.map((r) => r.humidity).filter((v): v is number => v !== null);
    const fixes = readings.filter((r) => r.lat !== null && r.lon !== null && !(r.lat === 0 && r.lon === 0));
    const trips = detectTrips({
      t: Float64Array.from(fixes, (r) => r.t),
      lat: Float64Array.from(fixes, (r) => r.lat!),
      lon: Float64Array.from(fixes, (r) => r.lon!),
      lbs: Uint8Array.from(fixes, (r) => (r.positioning === 'LBS' ? 1 : 0)),
    });
    const alarmRows = await db
      .select({ a: alarms, nameZh: alarmLevels.nameZh, nameEn: alarmLevels.nameEn, color: alarmLevels.color, deviceId: devices.deviceId })
      .from(alarms)
      .innerJoin(alarmLevels, eq(alarmLevels.id, alarms.levelId))
      .innerJoin(devices, eq(devices.id, alarms.deviceRef))
      .where(and(eq(alarms.taskId, t.id), taskDevices.length ? inArray(alarms.deviceRef, taskDevices.map((d) => d.id)) : undefined))
      .orderBy(asc(alarms.startedAt))
      .limit(1000);
    const finished = t.arrivedAt ?? t.completedAt;
    const place = (lat: number, lon: number, address: string | undefined): ShipmentPosition => ({ lat, lon, address: address?.trim() || null });
    const longest = temperature.outOfRange.longest;
    return {
      report: {
        task: {
          id: t.id,
          code: t.code,
          orgName: row.orgName,
          status: t.status,
          goodsName: t.goodsName,
          goodsQuantity: t.goodsQuantity,
          goodsUnit: t.goodsUnit,
          goodsValue: t.goodsValue,
          highValue: t.highValue,
          customer: t.customer,
          asset: row.assetCode,
          devices: taskDevices.map((d) => ({ deviceId: d.deviceId, name: d.name })),
          originName: t.originName,
          destinationName: t.destinationName,
          driverName: t.driverName,
          plannedStart: isoOrNull(t.plannedStart),
          plannedArrival: isoOrNull(t.plannedArrival),
          startedAt: isoOrNull(t.startedAt),
          arrivedAt: isoOrNull(t.arrivedAt),
          completedAt: isoOrNull(t.completedAt),
          onTime: finished && t.plannedArrival ? finished.getTime() <= t.plannedArrival.getTime() : null,
        },
        from: from.toISOString(),
        to: to.toISOString(),
        limits,
        temperature,
        humidity: hum.length ? { min: Math.min(...hum), max: Math.max(...hum), average: Math.round((hum.reduce((s, v) => s + v, 0) / hum.length) * 100) / 100 } : null,
        distanceM: Math.round(trips.trips.reduce((s, x) => s + x.distanceM, 0)),
        readings: readings.length,
        alarms: alarmRows.map(({ a, nameZh, nameEn, color, deviceId }) => ({
          id: a.id,
          type: a.type,
          levelName: lang === 'zh' ? nameZh : nameEn,
          levelColor: color,
          status: a.status,
          startedAt: a.startedAt.toISOString(),
          endedAt: isoOrNull(a.endedAt),
          value: a.value,
          peak: a.peak,
          threshold: a.threshold,
          deviceId,
          position: usable(a.lat, a.lon) ? { lat: a.lat!, lon: a.lon!, address: null } : fixNear(fixes, a.startedAt.getTime()),
        })),
        batches: opts.batches ? await opts.batches(t.id) : [],
        tripBudget: opts.tripBudget ? await opts.tripBudget(t.id) : null,
        places: { origin: place(t.originLat, t.originLon, settings.originAddress), destination: place(t.destinationLat, t.destinationLon, settings.destinationAddress) },
        longestExcursionAt: longest ? fixNear(fixes, longest.start) : null,
        generatedAt: new Date().toISOString(),
      },
      readings,
      route: plannedPath({ origin: { lat: t.originLat, lon: t.originLon }, destination: { lat: t.destinationLat, lon: t.destinationLon }, route: settings.route ?? [] }),
      origin: { lat: t.originLat, lon: t.originLon, radiusM: t.originRadiusM },
      destination: { lat: t.destinationLat, lon: t.destinationLon, radiusM: t.destinationRadiusM },
    };
  }

  async function xlsx(d: ShipmentData, lang: Lang, tz: string): Promise<Buffer> {
    const x: ReportTexts = REPORT_TEXTS[lang];
    const book = new ExcelJS.Workbook();
    const summary = book.addWorksheet(x.sheetSummary);
    summary.columns = [{ width: 28 }, { width: 48 }];
    for (const [k, v] of summaryLines(d.report, lang, tz)) summary.addRow([k, v]);
    summary.getColumn(1).font = { bold: true };
    const readings = book.addWorksheet(x.sheetReadings);
    readings.columns = [
      { header: x.time, width: 20 },
      { header: x.temperature, width: 14 },
      { header: x.humidity, width: 12 },
      { header: x.door, width: 10 },
      { header: x.lat, width: 12 },
      { header: x.lon, width: 12 },
      { header: x.positioning, width: 10 },
      { header: x.speed, width: 12 },
      { header: x.battery, width: 12 },
    ];
    readings.getRow(1).font = { bold: true };
    for (const r of d.readings) {
      readings.addRow([formatInstant(new Date(r.t), tz), r.temp, r.humidity, r.door === null ? null : r.door === 'open' ? x.doorOpen : x.doorClosed, r.lat, r.lon, r.positioning, r.speed, r.battery]);
    }
    readings.views = [{ state: 'frozen', ySplit: 1 }];
    const al = book.addWorksheet(x.sheetAlarms);
    al.columns = [
      { header: x.alarmStarted, width: 20 },
      { header: x.alarmEnded, width: 20 },
      { header: x.alarmType, width: 16 },
      { header: x.alarmLevel, width: 10 },
      { header: x.alarmValue, width: 10 },
      { header: x.alarmThreshold, width: 10 },
      { header: x.alarmStatus, width: 10 },
      { header: x.device, width: 18 },
      { header: x.position, width: 48 },
    ];
    al.getRow(1).font = { bold: true };
    for (const a of d.report.alarms) {
      al.addRow([
        formatInstant(new Date(a.startedAt), tz),
        a.endedAt ? formatInstant(new Date(a.endedAt), tz) : '',
        x.alarmTypes[a.type] ?? a.type,
        a.levelName,
        alarmValueNumber(a.type, a.peak ?? a.value),
        alarmValueNumber(a.type, a.threshold),
        x.alarmStatuses[a.status] ?? a.status,
        a.deviceId,
        a.position ? placeText(a.position) : '',
      ]);
    }
    return Buffer.from(await book.xlsx.writeBuffer());
  }

  return {
    async report(caller: Caller, taskId: string, lang: Lang): Promise<ShipmentReport> {
      return (await data(caller, taskId, lang)).report;
    },
    async file(caller: Caller, taskId: string, format: 'pdf' | 'xlsx', lang: Lang, tz: string): Promise<ExportFile> {
      const read = await data(caller, taskId, lang);
      const d = { ...read, report: await withAddresses(read.report, lang, opts.geocoder) };
      const name = `${REPORT_TEXTS[lang].fileName}-${d.report.task.code}`;
      if (format === 'xlsx') return { contentType: XLSX_TYPE, filename: `${name}.xlsx`, body: await xlsx(d, lang, tz) };
      return { contentType: 'application/pdf', filename: `${name}.pdf`, body: await shipmentPdf(d, summaryLines(d.report, lang, tz), lang, tz, await signaturesOfRecord(db, 'shipment_report', taskId)) };
    },
  };
}

const fmt = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '—' : v.toFixed(digits));

/** The key facts, in order, as label and text: the PDF's tables and the Excel summary sheet. */
export function summaryLines(r: ShipmentReport, lang: Lang, tz: string): [string, string][] {
  const x = REPORT_TEXTS[lang];
  const at = (iso: string | null) => (iso ? formatInstant(new Date(iso), tz) : '—');
  const temp = r.temperature;
  const range = r.limits.tempMin === null && r.limits.tempMax === null ? x.noLimits : `${fmt(r.limits.tempMin)} ~ ${fmt(r.limits.tempMax)} °C`;
  const longest = temp.outOfRange.longest;
  return [
    [x.taskCode, r.task.code],
    [x.org, r.task.orgName],
    [x.goods, `${r.task.goodsName}${r.task.goodsQuantity !== null ? ` × ${r.task.goodsQuantity}${r.task.goodsUnit ? ` ${r.task.goodsUnit}` : ''}` : ''}${r.task.highValue ? ` (${x.highValue})` : ''}`],
    [x.goodsValue, r.task.goodsValue === null ? '—' : r.task.goodsValue.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US')],
    [x.customer, r.task.customer || '—'],
    [x.carrier, r.task.asset ?? '—'],
    [x.devices, r.task.devices.map((d) => `${d.name} (${d.deviceId})`).join(', ') || '—'],
    [x.route, `${r.task.originName} → ${r.task.destinationName}`],
    ...(r.places
      ? ([
          [x.originAddress, placeText(r.places.origin)],
          [x.destinationAddress, placeText(r.places.destination)],
        ] as [string, string][])
      : []),
    [x.driver, r.task.driverName || '—'],
    [x.status, x.statuses[r.task.status]],
    [x.plannedStart, at(r.task.plannedStart)],
    [x.plannedArrival, at(r.task.plannedArrival)],
    [x.startedAt, at(r.task.startedAt)],
    [x.arrivedAt, at(r.task.arrivedAt ?? r.task.completedAt)],
    [x.onTime, r.task.onTime === null ? '—' : r.task.onTime ? x.yes : x.no],
    [x.period, `${at(r.from)} ~ ${at(r.to)}`],
    [x.distance, `${(r.distanceM / 1000).toFixed(1)} km`],
    [x.readings, String(r.readings)],
    [x.tempRange, range],
    // The figures below are of every reading; the GSP record's are of its sampled rows (issue 22 item 4).
    [x.basis, x.everyReading(r.readings)],
    [x.tempMin, temp.min ? `${fmt(temp.min.value)} °C (${at(new Date(temp.min.t).toISOString())})` : '—'],
    [x.tempMax, temp.max ? `${fmt(temp.max.value)} °C (${at(new Date(temp.max.t).toISOString())})` : '—'],
    [x.tempAverage, temp.average === null ? '—' : `${fmt(temp.average, 2)} °C`],
    [x.mkt, temp.mkt === null ? '—' : `${fmt(temp.mkt, 2)} °C`],
    [x.outOfRangeTotal, durationText(temp.outOfRange.totalS, lang)],
    [x.outOfRangeLongest, longest ? `${durationText(longest.durationS, lang)} (${at(new Date(longest.start).toISOString())} ~ ${at(new Date(longest.end).toISOString())}, ${x.peak} ${fmt(longest.peak.value)} °C)` : '—'],
    ...(longest && r.longestExcursionAt ? ([[x.longestAt, placeText(r.longestExcursionAt)]] as [string, string][]) : []),
    [x.excursions, String(temp.excursions.length)],
    [x.inRangeShare, temp.inRangeShare === null ? '—' : `${(temp.inRangeShare * 100).toFixed(1)} %`],
    [x.noData, durationText(temp.noDataS, lang)],
    [x.humidityRange, r.humidity ? `${fmt(r.humidity.min)} ~ ${fmt(r.humidity.max)} % (${x.average} ${fmt(r.humidity.average)} %)` : '—'],
    [x.alarmCount, String(r.alarms.length)],
    ...(r.tripBudget ? [[x.tripLabel, tripBudgetText(r.tripBudget, lang)] as [string, string]] : []),
    ...(r.batches ?? []).map((b): [string, string] => [x.batchLabel(b.batchNo), batchBudgetText(b, lang)]),
    [x.generatedAt, at(r.generatedAt)],
  ];
}

export type ShipmentService = ReturnType<typeof shipmentService>;

/**
 * The trip's line of the summary: the task's profile, the trip's minutes above and below its range
 * as used and left of the profile's budgets, and its absolute limits (issue 27 item 3).
 */
export function tripBudgetText(trip: TripBudget, lang: Lang): string {
  const x = REPORT_TEXTS[lang];
  const m = (v: number) => String(Math.round(v * 10) / 10);
  const u = trip.budget;
  const p = trip.profile;
  const max = u.absoluteMax.crossed ? x.absCrossed(u.absoluteMax.limit, u.absoluteMax.extreme?.value ?? null) : x.absKept(u.absoluteMax.limit);
  const min = u.absoluteMin.limit === null ? null : u.absoluteMin.crossed ? x.absMinCrossed(u.absoluteMin.limit, u.absoluteMin.extreme?.value ?? null) : x.absMinKept(u.absoluteMin.limit);
  return [
    `${p.name} (${fmt(p.lowC)} ~ ${fmt(p.highC)} °C)`,
    x.budgetAbove(m(u.above.usedMin), u.above.budgetMin, m(u.above.leftMin), x.budgetStates[u.above.state]),
    x.budgetBelow(m(u.below.usedMin), u.below.budgetMin, m(u.below.leftMin), x.budgetStates[u.below.state]),
    max,
    ...(min ? [min] : []),
  ].join(lang === 'zh' ? '；' : '; ');
}

/** One batch's line of the summary: its profile and budget used and left (issue 27 item 3). */
export function batchBudgetText(b: TaskBatch, lang: Lang): string {
  const x = REPORT_TEXTS[lang];
  if (!b.profile || !b.budget) return `${b.goodsName ? `${b.goodsName} · ` : ''}${x.noProfile}`;
  const m = (v: number) => String(Math.round(v * 10) / 10);
  const u = b.budget;
  const abs = u.absoluteMax.crossed ? x.absCrossed(u.absoluteMax.limit, u.absoluteMax.extreme?.value ?? null) : x.absKept(u.absoluteMax.limit);
  return [
    `${b.profile.name} (${fmt(b.profile.lowC)} ~ ${fmt(b.profile.highC)} °C)`,
    x.budgetAbove(m(u.above.usedMin), u.above.budgetMin, m(u.above.leftMin), x.budgetStates[u.above.state]),
    x.budgetBelow(m(u.below.usedMin), u.below.budgetMin, m(u.below.leftMin), x.budgetStates[u.below.state]),
    abs,
  ].join(lang === 'zh' ? '；' : '; ');
}

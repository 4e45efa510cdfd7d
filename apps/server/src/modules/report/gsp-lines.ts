// The words of the GSP record's blocks as label and text or as table cells, shared by the PDF
// (gsp-pdf.ts) and the Excel file (gsp.ts), so both read the same.
import type { Lang } from '@iotc/shared/i18n';
import type { GspReport, GspSummaryJson } from '@iotc/shared/gsp-report';
import { formatInstant } from '../../lib/export.ts';
import { durationText } from '@iotc/shared/format';
import { placeText } from '@iotc/shared/geocode';
import { GSP_TEXTS } from './gsp-texts.ts';

const num = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '—' : v.toFixed(digits));
const range = (min: number | null, max: number | null, unit: string, none: string) => (min === null && max === null ? none : `${num(min)} ~ ${num(max)} ${unit}`);
export const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

/** The warehouse's address with its coordinates, or the coordinates alone, or the address alone (no position), or '—'. */
export function warehousePlace(w: NonNullable<GspReport['warehouse']>): string {
  if (w.lat !== null && w.lon !== null) return placeText({ lat: w.lat, lon: w.lon, address: w.address });
  return w.address ?? '—';
}

/** The record's header block as label and text. */
export function gspHeaderLines(r: GspReport, lang: Lang): [string, string][] {
  const x = GSP_TEXTS[lang];
  return [
    [x.org, r.orgName],
    [x.asset, `${r.asset.name} / ${r.asset.code}`],
    // A cold room's or refrigerator's warehouse, and where it is (the address, with or else its coordinates).
    ...(r.warehouse && r.warehouse.id !== r.asset.id ? ([[x.warehouse, `${r.warehouse.name} / ${r.warehouse.code}`]] as [string, string][]) : []),
    ...(r.warehouse ? ([[x.warehouseAddress, warehousePlace(r.warehouse)]] as [string, string][]) : []),
    [x.kind, `${x.kinds[r.asset.kind] ?? r.asset.kind} (${r.mode === 'storage' ? x.storage : x.transport})`],
    [x.devices, r.devices.map((d) => (d.name && d.name !== d.deviceId ? `${d.name} (${d.deviceId})` : d.deviceId)).join(', ') || '—'],
    [x.period, `${formatInstant(new Date(r.from), r.timezone)} ~ ${formatInstant(new Date(r.to), r.timezone)}`],
    [x.timezone, r.timezone],
    [x.tempRange, range(r.limits.tempMin, r.limits.tempMax, '°C', x.noLimits)],
    [x.humidityRange, range(r.limits.humidityMin, r.limits.humidityMax, '%', x.noLimits)],
    [x.interval, x.intervalRule(r.intervals.baseMin, r.intervals.excursionMin)],
  ];
}

/**
 * The summary block as label and text, first what its figures are of: the sampled record (one row
 * per `baseMin` slot), not every reading as the shipment report's (issue 22 item 4).
 */
export function gspSummaryLines(s: GspSummaryJson, lang: Lang, baseMin: number): [string, string][] {
  const x = GSP_TEXTS[lang];
  return [
    [x.basis, x.sampled(baseMin)],
    [x.tempMin, s.temperature ? `${num(s.temperature.min)} °C` : '—'],
    [x.tempMax, s.temperature ? `${num(s.temperature.max)} °C` : '—'],
    [x.tempAverage, s.temperature ? `${num(s.temperature.average, 2)} °C` : '—'],
    [x.humMin, s.humidity ? `${num(s.humidity.min)} %` : '—'],
    [x.humMax, s.humidity ? `${num(s.humidity.max)} %` : '—'],
    [x.humAverage, s.humidity ? `${num(s.humidity.average, 2)} %` : '—'],
    [x.outOfRangeRows, String(s.outOfRangeRows)],
    [x.excursions, String(s.excursions)],
    [x.outOfRangeTime, durationText(s.outOfRangeS, lang)],
    [x.completeness, x.completenessValue(s.slotsWithData, s.slots, percent(s.completeness))],
  ];
}

/** A recorded row's cells: time, temperature, humidity, within range. */
export function gspRowCells(row: GspReport['rows'][number], r: GspReport, lang: Lang): [string, string, string, string] {
  const x = GSP_TEXTS[lang];
  if (row.inRange === null) return [formatInstant(new Date(row.time), r.timezone), x.noData, x.noData, '—'];
  return [formatInstant(new Date(row.time), r.timezone), num(row.temperature), num(row.humidity), row.inRange ? x.yes : x.no];
}

/** A month's day row: date, temperature min/max/avg, humidity min/max/avg, out-of-range records and time, completeness. */
export function gspDayCells(d: GspReport['days'][number], lang: Lang): string[] {
  const s = d.summary;
  return [
    d.date,
    num(s.temperature?.min),
    num(s.temperature?.max),
    num(s.temperature?.average),
    num(s.humidity?.min),
    num(s.humidity?.max),
    num(s.humidity?.average),
    String(s.outOfRangeRows),
    durationText(s.outOfRangeS, lang),
    percent(s.completeness),
  ];
}

export function gspDayHeaders(lang: Lang): string[] {
  const x = GSP_TEXTS[lang];
  return [x.date, `${x.min} °C`, `${x.max} °C`, `${x.avg} °C`, `${x.min} %`, `${x.max} %`, `${x.avg} %`, x.outOfRangeRows, x.outOfRangeTime, x.completeness];
}


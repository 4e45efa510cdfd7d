// The temperature and humidity record of a cold room, refrigerator or vehicle in the layout of
// China's GSP (药品经营质量管理规范, appendix on temperature and humidity monitoring): the values
// at the required interval, at most every 30 minutes in storage, every 5 minutes in transport,
// and every 2 minutes while a value is out of range. The slot rule is pure here so the server, its
// tests and the screen agree on it.
//
// The rule, as the table is made:
// - The period (a local day, or a local month, in the request's time zone) is cut into base slots
//   from local midnight: 30 minutes for storage, 5 for transport. Each local day restarts the grid,
//   so days of 23 or 25 hours (daylight saving time) simply have fewer or more slots.
// - A base slot in which any reading is out of range (temperature or humidity outside the asset's
//   limits; a value equal to a limit is in range) is recorded in 2-minute slots instead, the last
//   one shorter when the base slot is not a multiple of 2 minutes (transport: 2, 2, 1). The rows
//   around the excursion inside that base slot are kept, so the record shows it begin and end.
// - Each slot records the reading nearest to its start within [start, end): in practice the first
//   reading of the slot. A slot without any reading records "no data".
// - Statistics are over the recorded rows (what an inspector can check against the table):
//   min and max of the recorded values, the average weighted by each row's slot length (so the
//   2-minute rows of an excursion do not count fifteen times), out-of-range rows, excursions
//   (runs of consecutive out-of-range rows), time out of range (the slot lengths of those rows),
//   and completeness = slots with data / slots.
// - A monthly record carries one summary row per day and, of the detailed table, only the base
//   slots that had an excursion (their 2-minute rows), at most MAX_GSP_ROWS rows, so its PDF
//   stays at a couple of dozen pages.
import { z } from 'zod';

export const GSP_PERIODS = ['day', 'month'] as const;
export type GspPeriod = (typeof GSP_PERIODS)[number];
export const GSP_FORMATS = ['json', 'pdf', 'xlsx'] as const;
export type GspFormat = (typeof GSP_FORMATS)[number];

/** Asset kinds recorded as storage, and as transport. */
export const GSP_STORAGE_KINDS = ['cold_room', 'refrigerator', 'warehouse'] as const;
export const GSP_TRANSPORT_KINDS = ['vehicle', 'container'] as const;
export const GSP_ASSET_KINDS = [...GSP_STORAGE_KINDS, ...GSP_TRANSPORT_KINDS] as const;
export type GspAssetKind = (typeof GSP_ASSET_KINDS)[number];
export type GspMode = 'storage' | 'transport';

const MINUTE_MS = 60_000;
/** Recording intervals of the GSP rule, minutes. */
export const GSP_INTERVAL_MIN = { storage: 30, transport: 5, excursion: 2 } as const;
/** Most detailed rows one record carries (a day all out of range is 720 rows of 2 minutes). */
export const MAX_GSP_ROWS = 720;

export function gspMode(kind: string): GspMode {
  return (GSP_TRANSPORT_KINDS as readonly string[]).includes(kind) ? 'transport' : 'storage';
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;

/** Whether `date` is a real calendar day (YYYY-MM-DD) or month (YYYY-MM) for the period. */
export function isGspDate(period: GspPeriod, date: string): boolean {
  const m = (period === 'day' ? DAY_RE : MONTH_RE).exec(date);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  if (y < 2000 || y > 2100 || mo < 1 || mo > 12) return false;
  if (period === 'month') return true;
  const d = Number(m[3]);
  return d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

export const gspReportQuerySchema = z
  .object({
    assetId: z.uuid(),
    period: z.enum(GSP_PERIODS).default('day'),
    /** YYYY-MM-DD for a day, YYYY-MM for a month, in the request's time zone. */
    date: z.string(),
    format: z.enum(GSP_FORMATS).default('json'),
  })
  .refine((q) => isGspDate(q.period, q.date), { path: ['date'], message: 'date must be YYYY-MM-DD for a day or YYYY-MM for a month' });
export type GspReportQuery = z.infer<typeof gspReportQuerySchema>;

// ---- time zones (Intl only, so the rule runs the same in the browser and on the server)

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Local time minus UTC at instant `t` in `tz`, milliseconds. */
function offsetMs(t: number, tz: string): number {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return local - Math.floor(t / 1000) * 1000;
}

/** The instant of local midnight of a calendar day in `tz` (month and day may overflow, as Date.UTC allows). */
export function localMidnight(year: number, month: number, day: number, tz: string): number {
  const wall = Date.UTC(year, month - 1, day);
  let t = wall - offsetMs(wall, tz);
  // Once more with the offset at the first guess: right across a daylight saving change.
  t = wall - offsetMs(t, tz);
  return t;
}

export interface GspDay {
  date: string;
  from: number;
  to: number;
}

/** The local days of the period, each [from, to) as epoch ms. */
export function gspDays(period: GspPeriod, date: string, tz: string): GspDay[] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number | undefined];
  const first = period === 'day' ? d! : 1;
  const count = period === 'day' ? 1 : new Date(Date.UTC(y, m, 0)).getUTCDate();
  const out: GspDay[] = [];
  for (let i = 0; i < count; i++) {
    const day = new Date(Date.UTC(y, m - 1, first + i));
    out.push({ date: day.toISOString().slice(0, 10), from: localMidnight(y, m, first + i, tz), to: localMidnight(y, m, first + i + 1, tz) });
  }
  return out;
}

// ---- the slot rule

export interface GspReading {
  /** Epoch ms. */
  t: number;
  temp: number | null;
  humidity: number | null;
}

export interface GspLimits {
  tempMin: number | null;
  tempMax: number | null;
  humidityMin: number | null;
  humidityMax: number | null;
}

const outside = (v: number | null, min: number | null, max: number | null) => v !== null && ((min !== null && v < min) || (max !== null && v > max));

/** Whether a reading's temperature or humidity is outside the limits (a value on a limit is in range). */
export function isOutOfRange(r: Pick<GspReading, 'temp' | 'humidity'>, l: GspLimits): boolean {
  return outside(r.temp, l.tempMin, l.tempMax) || outside(r.humidity, l.humidityMin, l.humidityMax);
}

/** Index of the first reading at or after `t` (readings sorted by time). */
function firstAtOrAfter(readings: readonly GspReading[], t: number): number {
  let lo = 0;
  let hi = readings.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (readings[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The reading nearest to `at` within [start, end), or null (readings sorted by time). */
export function nearestInSlot(readings: readonly GspReading[], start: number, end: number, at = start): GspReading | null {
  let best: GspReading | null = null;
  for (let i = firstAtOrAfter(readings, start); i < readings.length && readings[i]!.t < end; i++) {
    const r = readings[i]!;
    if (!best || Math.abs(r.t - at) < Math.abs(best.t - at)) best = r;
  }
  return best;
}

export interface GspSlotRow {
  start: number;
  end: number;
  temp: number | null;
  humidity: number | null;
  /** null: no data in the slot. */
  inRange: boolean | null;
  /** A 2-minute row of a base slot with an excursion. */
  fine: boolean;
}

/**
 * The rows of one local day [from, to): base slots of `baseMin`, those with an out-of-range
 * reading split into 2-minute slots. Slots starting at or after `until` (now) are left out.
 * Readings sorted by time, only those carrying a temperature or a humidity.
 */
export function gspRows(readings: readonly GspReading[], limits: GspLimits, from: number, to: number, baseMin: number, until = Infinity): GspSlotRow[] {
  const base = baseMin * MINUTE_MS;
  const fineMs = GSP_INTERVAL_MIN.excursion * MINUTE_MS;
  const rows: GspSlotRow[] = [];
  const row = (start: number, end: number, fine: boolean) => {
    const r = nearestInSlot(readings, start, end);
    rows.push({ start, end, temp: r?.temp ?? null, humidity: r?.humidity ?? null, inRange: r ? !isOutOfRange(r, limits) : null, fine });
  };
  for (let start = from; start < to && start < until; start += base) {
    const end = Math.min(start + base, to);
    let excursion = false;
    for (let i = firstAtOrAfter(readings, start); i < readings.length && readings[i]!.t < end; i++) {
      if (isOutOfRange(readings[i]!, limits)) {
        excursion = true;
        break;
      }
    }
    if (!excursion) row(start, end, false);
    else for (let s = start; s < end && s < until; s += fineMs) row(s, Math.min(s + fineMs, end), true);
  }
  return rows;
}

export interface GspStats {
  min: number;
  max: number;
  average: number;
}

export interface GspSummary {
  temperature: GspStats | null;
  humidity: GspStats | null;
  slots: number;
  slotsWithData: number;
  /** slotsWithData / slots; null without slots. */
  completeness: number | null;
  outOfRangeRows: number;
  /** Runs of consecutive out-of-range rows. */
  excursions: number;
  outOfRangeS: number;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

function stats(rows: readonly GspSlotRow[], pick: (r: GspSlotRow) => number | null): GspStats | null {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let weight = 0;
  for (const r of rows) {
    const v = pick(r);
    if (v === null) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v * (r.end - r.start);
    weight += r.end - r.start;
  }
  return weight > 0 ? { min, max, average: round2(sum / weight) } : null;
}

/** The summary of recorded rows (see the rule at the top of the file). */
export function gspSummary(rows: readonly GspSlotRow[]): GspSummary {
  let withData = 0;
  let out = 0;
  let excursions = 0;
  let outMs = 0;
  let prevOut = false;
  for (const r of rows) {
    if (r.inRange !== null) withData++;
    const isOut = r.inRange === false;
    if (isOut) {
      out++;
      outMs += r.end - r.start;
      if (!prevOut) excursions++;
    }
    prevOut = isOut;
  }
  return {
    temperature: stats(rows, (r) => r.temp),
    humidity: stats(rows, (r) => r.humidity),
    slots: rows.length,
    slotsWithData: withData,
    completeness: rows.length ? withData / rows.length : null,
    outOfRangeRows: out,
    excursions,
    outOfRangeS: Math.round(outMs / 1000),
  };
}

// ---- the answer

const statsSchema = z.object({ min: z.number(), max: z.number(), average: z.number() });
export const gspSummarySchema = z.object({
  temperature: statsSchema.nullable(),
  humidity: statsSchema.nullable(),
  slots: z.number().int(),
  slotsWithData: z.number().int(),
  completeness: z.number().nullable(),
  outOfRangeRows: z.number().int(),
  excursions: z.number().int(),
  outOfRangeS: z.number(),
});

export const gspRowSchema = z.object({
  time: z.string(),
  end: z.string(),
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  inRange: z.boolean().nullable(),
  fine: z.boolean(),
});
export type GspRow = z.infer<typeof gspRowSchema>;

export const gspReportSchema = z.object({
  orgName: z.string(),
  asset: z.object({ id: z.string(), code: z.string(), name: z.string(), kind: z.enum(GSP_ASSET_KINDS) }),
  mode: z.enum(['storage', 'transport']),
  /** The devices bound to the asset at some time in the period; their readings are merged. */
  devices: z.array(z.object({ deviceId: z.string(), name: z.string() })),
  period: z.enum(GSP_PERIODS),
  date: z.string(),
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  limits: z.object({ tempMin: z.number().nullable(), tempMax: z.number().nullable(), humidityMin: z.number().nullable(), humidityMax: z.number().nullable() }),
  intervals: z.object({ baseMin: z.number(), excursionMin: z.number() }),
  /** A day: every row; a month: the rows of base slots with an excursion only. */
  rows: z.array(gspRowSchema),
  rowsTruncated: z.boolean(),
  /** A month: one summary per local day; a day: empty. */
  days: z.array(z.object({ date: z.string(), summary: gspSummarySchema })),
  summary: gspSummarySchema,
  /**
   * The warehouse the record is of (the asset, or the warehouse its cold room or refrigerator is
   * in; null for a vehicle or container, or a room in no warehouse), with its address (issue 26
   * item 3): the one stored with the warehouse, else the geocoder's for its place (files only; the
   * screen asks the geocoder itself), else none and its coordinates stand alone.
   */
  warehouse: z
    .object({ id: z.string(), code: z.string(), name: z.string(), address: z.string().nullable(), lat: z.number().nullable(), lon: z.number().nullable() })
    .nullable()
    .optional(),
  generatedAt: z.string(),
});
export type GspReport = z.infer<typeof gspReportSchema>;
export type GspSummaryJson = z.infer<typeof gspSummarySchema>;

export const GSP_REPORT_API = {
  /** GET gspReportQuerySchema (format json|pdf|xlsx) → GspReport or the file. */
  temperature: '/api/iot/v2/reports/temperature',
} as const;

// Temperature statistics of a shipment (issue 7, item 7: the shipment report of a transport
// task): minimum, maximum, averages, mean kinetic temperature, and the time spent out of the
// task's range, from the logger's readings. Pure functions; the server reads the readings of the
// task's window and the report shows the result.
//
// Time between readings is attributed like this: a reading stands for the time from itself until
// the next reading (of any kind), but never for more than `maxGapS`; the rest of a longer
// interval, and the whole interval after a reading that carried no value, is "no data". So a
// logger that stops reporting for a day does not make its last value hold for a day, neither in
// the averages nor in the time out of range. The last reading holds until `to` (by default the
// last reading itself, so it stands for no time).
import { z } from 'zod';

/** USP <1160>: the activation energy of mean kinetic temperature, 83.144 kJ/mol. */
export const MKT_ACTIVATION_ENERGY_J_PER_MOL = 83_144;
/** The gas constant as USP rounds it, J/(mol K). */
export const GAS_CONSTANT_J_PER_MOL_K = 8.3144;
// 83 144 / 8.3144 is 10 000 K exactly; written out because the division in binary floating point
// gives 10000.000000000002.
const USP_DH_OVER_R_K = 10_000;
const KELVIN_OFFSET = 273.15;

/** Default longest time one reading stands for: a few missed reports, not a dead logger. */
export const DEFAULT_MAX_GAP_S = 30 * 60;

/** One logger reading: epoch milliseconds and degrees Celsius; null when the sensor gave no reading. */
export interface TempReading {
  t: number;
  value: number | null;
}

/** The task's allowed range, degrees Celsius; a missing limit is no limit. A value equal to a limit is in range. */
export interface TempRange {
  min?: number | null;
  max?: number | null;
}

/**
 * How `average` and `mkt` weight the readings. time: each by the time it stands for (the
 * default: logger intervals change, many loggers report faster during an excursion, and equal
 * weights would then count the excursion several times over); equal: each reading once, as USP's
 * formula is written for readings at equal intervals (monthly means, fixed-rate loggers).
 */
export type MktWeighting = 'time' | 'equal';

export interface CoverageOptions {
  /** Longest time (seconds) one reading stands for; positive, Infinity for no cap. Default DEFAULT_MAX_GAP_S. */
  maxGapS?: number;
  /** Start of the period (epoch ms); time before the first reading is no data. Default the first reading. */
  from?: number;
  /** End of the period (epoch ms); the last reading holds until then (up to maxGapS). Default the last reading. */
  to?: number;
}

export interface MktOptions extends CoverageOptions {
  weighting?: MktWeighting;
  /** Default MKT_ACTIVATION_ENERGY_J_PER_MOL; other values for products with a known activation energy. */
  activationEnergyJPerMol?: number;
}

// ---- the core formula

function dhOverR(activationEnergyJPerMol: number | undefined): number {
  if (activationEnergyJPerMol === undefined || activationEnergyJPerMol === MKT_ACTIVATION_ENERGY_J_PER_MOL) return USP_DH_OVER_R_K;
  if (!(activationEnergyJPerMol > 0) || !Number.isFinite(activationEnergyJPerMol)) throw new RangeError('activationEnergyJPerMol must be a positive number');
  return activationEnergyJPerMol / GAS_CONSTANT_J_PER_MOL_K;
}

/** Whether a value can be a temperature in degrees Celsius (finite, above absolute zero). */
const isTemperature = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v) && v > -KELVIN_OFFSET;

/**
 * MKT of temperatures (degrees Celsius), each with a weight (default all 1):
 *
 *   Tk = (dH/R) / -ln( sum(w_i * e^(-dH / (R * T_i))) / sum(w_i) ),  T_i in kelvin,
 *
 * with equal weights exactly USP <1160>'s formula; weights proportional to the intervals give
 * its time-weighted form. Answers degrees Celsius; null when no value has a positive weight.
 */
export function mktOfValues(valuesC: readonly number[], weights?: readonly number[], activationEnergyJPerMol?: number): number | null {
  const k = dhOverR(activationEnergyJPerMol);
  const xs: number[] = [];
  const ws: number[] = [];
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < valuesC.length; i++) {
    const v = valuesC[i]!;
    const w = weights ? weights[i]! : 1;
    if (!isTemperature(v)) throw new RangeError(`not a temperature: ${v}`);
    if (!(w >= 0) || !Number.isFinite(w)) throw new RangeError(`weights must be finite and not negative: ${w}`);
    if (w === 0) continue;
    xs.push(-k / (v + KELVIN_OFFSET));
    ws.push(w);
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (xs.length === 0) return null;
  // log-sum-exp: e^(-dH/RT) is about 1e-15 at room temperature and underflows for cryogenic
  // values; factoring out the largest term keeps the sum in range for any temperature.
  const m = Math.max(...xs);
  let s = 0;
  let wSum = 0;
  for (let i = 0; i < xs.length; i++) {
    s += ws[i]! * Math.exp(xs[i]! - m);
    wSum += ws[i]!;
  }
  const tk = k / -(m + Math.log(s / wSum));
  // MKT is a mean, so it lies between the lowest and highest value; the floating-point round
  // trip through exp and log can step a hair outside (a constant 25 C gave 24.999999999999943),
  // and a report whose MKT exceeds its maximum looks wrong.
  return Math.min(hi, Math.max(lo, tk - KELVIN_OFFSET));
}

// ---- attributing time to readings

interface Span {
  t: number;
  /** The reading's value; null for no reading (or a value that is not a temperature). */
  value: number | null;
  /** Time (ms) the reading stands for. */
  heldMs: number;
  /** Time (ms) after the held part, up to the next reading or `to`, that is no data. */
  gapMs: number;
}

interface Coverage {
  from: number;
  to: number;
  spans: Span[];
  /** No data before the first reading and in the gaps. */
  noDataMs: number;
}

function coverage(readings: readonly TempReading[], opts: CoverageOptions): Coverage {
  const maxGapS = opts.maxGapS ?? DEFAULT_MAX_GAP_S;
  if (!(maxGapS > 0)) throw new RangeError('maxGapS must be positive');
  const maxGapMs = maxGapS * 1000;
  // A stable sort: of two readings at the same instant, the one given first stands for no time.
  const sorted = readings
    .filter((r) => Number.isFinite(r.t))
    .map((r) => ({ t: r.t, value: isTemperature(r.value) ? r.value : null }))
    .sort((a, b) => a.t - b.t);
  const from = opts.from ?? sorted[0]?.t ?? 0;
  const to = opts.to ?? sorted.at(-1)?.t ?? from;
  if (to < from) throw new RangeError('to must not be before from');
  // The caller reads the task's window; a reading outside the period is not part of it.
  const inPeriod = sorted.filter((r) => r.t >= from && r.t <= to);
  const spans: Span[] = inPeriod.map((r, i) => {
    const span = (inPeriod[i + 1]?.t ?? to) - r.t;
    const heldMs = r.value === null ? 0 : Math.min(span, maxGapMs);
    return { t: r.t, value: r.value, heldMs, gapMs: span - heldMs };
  });
  const lead = (inPeriod[0]?.t ?? to) - from;
  return { from, to, spans, noDataMs: spans.reduce((sum, s) => sum + s.gapMs, lead) };
}

type Valued = Span & { value: number };
const valued = (spans: readonly Span[]): Valued[] => spans.filter((s): s is Valued => s.value !== null);

function weightedMkt(spans: readonly Valued[], opts: MktOptions): { mkt: number | null; weighting: MktWeighting } {
  const values = spans.map((s) => s.value);
  const heldMs = spans.reduce((sum, s) => sum + s.heldMs, 0);
  // With no time covered (one reading, or all at one instant) time weights are all zero; each
  // reading once is then the only answer there is.
  if ((opts.weighting ?? 'time') === 'equal' || heldMs === 0) {
    return { mkt: mktOfValues(values, undefined, opts.activationEnergyJPerMol), weighting: 'equal' };
  }
  return {
    mkt: mktOfValues(
      values,
      spans.map((s) => s.heldMs),
      opts.activationEnergyJPerMol,
    ),
    weighting: 'time',
  };
}

/**
 * Mean kinetic temperature (degrees Celsius) of logger readings, USP <1160>/<659>, time-weighted
 * by default (see MktWeighting and the top of this file for the time each reading stands for);
 * readings with no value are skipped. Null when there is no value.
 */
export function meanKineticTemperature(samples: readonly TempReading[], opts: MktOptions = {}): number | null {
  return weightedMkt(valued(coverage(samples, opts).spans), opts).mkt;
}

// ---- the statistics of a shipment

const EXCURSION_SIDES = ['above', 'below'] as const;
/**
 * Why an excursion ended: back in range, straight to the other side of the range, the data
 * stopped (a gap longer than maxGapS or a reading with no value), or the period ended.
 */
const EXCURSION_ENDS = ['in_range', 'other_side', 'no_data', 'period_end'] as const;

const pointSchema = z.object({ value: z.number(), t: z.number() });

/**
 * A run of time known to be out of range on one side. Only time with data counts: a gap ends
 * the excursion (endedBy no_data) and the next out-of-range reading starts a new one.
 */
export const excursionSchema = z.object({
  side: z.enum(EXCURSION_SIDES),
  /** Epoch ms of the first reading out of range. */
  start: z.number(),
  /** Epoch ms where its time ends: start + durationS. */
  end: z.number(),
  durationS: z.number(),
  /** The highest value (above) or lowest (below), and when it was first read. */
  peak: pointSchema,
  readings: z.number().int(),
  endedBy: z.enum(EXCURSION_ENDS),
});
export type Excursion = z.infer<typeof excursionSchema>;

/**
 * The temperature part of the shipment report. Times are epoch ms, durations seconds, values
 * degrees Celsius. The report shows `average` and `mkt` (time-weighted unless `weighting` says
 * equal); `plainAverage` is every reading counted once, for comparison with other tools.
 */
export const shipmentTempStatsSchema = z.object({
  from: z.number(),
  to: z.number(),
  /** to - from = coveredS + noDataS. */
  periodS: z.number(),
  /** Readings with a value in the period. */
  count: z.number().int(),
  /** Readings in the period where the sensor gave no value. */
  noReadingCount: z.number().int(),
  /** The first reading with the lowest / highest value. */
  min: pointSchema.nullable(),
  max: pointSchema.nullable(),
  average: z.number().nullable(),
  plainAverage: z.number().nullable(),
  mkt: z.number().nullable(),
  weighting: z.enum(['time', 'equal']),
  /** Time the readings stand for, and time with no data (before the first reading, in gaps, after a no-value reading). */
  coveredS: z.number(),
  noDataS: z.number(),
  inRangeS: z.number(),
  outOfRange: z.object({
    totalS: z.number(),
    aboveS: z.number(),
    belowS: z.number(),
    /** The single longest excursion (the earliest of equals). */
    longest: excursionSchema.nullable(),
  }),
  excursions: z.array(excursionSchema),
  /** inRangeS / coveredS: the share of the time with data that was in range; null with no time covered. */
  inRangeShare: z.number().min(0).max(1).nullable(),
});
export type ShipmentTempStats = z.infer<typeof shipmentTempStatsSchema>;

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const seconds = (ms: number) => round6(ms / 1000);

/**
 * The shipment's temperature statistics over [from, to] (default the first to the last reading).
 * A value equal to a limit is in range; above `max` or below `min` is out.
 */
export function temperatureStats(readings: readonly TempReading[], range: TempRange, opts: MktOptions = {}): ShipmentTempStats {
  const min = range.min ?? null;
  const max = range.max ?? null;
  if (min !== null && max !== null && min > max) throw new RangeError('range.min must not be above range.max');
  const cov = coverage(readings, opts);
  const spans = valued(cov.spans);
  const sideOf = (v: number): Excursion['side'] | null => (max !== null && v > max ? 'above' : min !== null && v < min ? 'below' : null);

  let lo: Valued | null = null;
  let hi: Valued | null = null;
  let sum = 0;
  let weightedSum = 0;
  let coveredMs = 0;
  for (const s of spans) {
    if (!lo || s.value < lo.value) lo = s;
    if (!hi || s.value > hi.value) hi = s;
    sum += s.value;
    weightedSum += s.value * s.heldMs;
    coveredMs += s.heldMs;
  }
  const plainAverage = spans.length > 0 ? sum / spans.length : null;
  const { mkt, weighting } = weightedMkt(spans, opts);
  const average = weighting === 'time' ? weightedSum / coveredMs : plainAverage;

  // Excursions: consecutive readings on one side whose times join up.
  const excursions: Excursion[] = [];
  let cur: (Excursion & { ms: number }) | null = null;
  const close = (endedBy: Excursion['endedBy']) => {
    if (!cur) return;
    const { ms, ...e } = cur;
    excursions.push({ ...e, end: e.start + ms, durationS: seconds(ms), endedBy });
    cur = null;
  };
  cov.spans.forEach((s, i) => {
    if (s.value === null) return close('no_data');
    const side = sideOf(s.value);
    if (cur && cur.side !== side) close(side === null ? 'in_range' : 'other_side');
    if (side !== null) {
      if (!cur) cur = { side, start: s.t, end: s.t, durationS: 0, peak: { value: s.value, t: s.t }, readings: 0, endedBy: 'period_end', ms: 0 };
      const worse = side === 'above' ? s.value > cur.peak.value : s.value < cur.peak.value;
      if (worse) cur.peak = { value: s.value, t: s.t };
      cur.readings += 1;
      cur.ms += s.heldMs;
    }
    if (s.gapMs > 0) close('no_data');
    else if (i === cov.spans.length - 1) close('period_end');
  });

  let aboveMs = 0;
  let belowMs = 0;
  let longest: Excursion | null = null;
  for (const e of excursions) {
    if (e.side === 'above') aboveMs += e.end - e.start;
    else belowMs += e.end - e.start;
    if (!longest || e.durationS > longest.durationS) longest = e;
  }
  const inRangeMs = coveredMs - aboveMs - belowMs;

  return {
    from: cov.from,
    to: cov.to,
    periodS: seconds(cov.to - cov.from),
    count: spans.length,
    noReadingCount: cov.spans.length - spans.length,
    min: lo && { value: lo.value, t: lo.t },
    max: hi && { value: hi.value, t: hi.t },
    average,
    plainAverage,
    mkt,
    weighting,
    coveredS: seconds(coveredMs),
    noDataS: seconds(cov.noDataMs),
    inRangeS: seconds(inRangeMs),
    outOfRange: { totalS: seconds(aboveMs + belowMs), aboveS: seconds(aboveMs), belowS: seconds(belowMs), longest },
    excursions,
    inRangeShare: coveredMs > 0 ? inRangeMs / coveredMs : null,
  };
}

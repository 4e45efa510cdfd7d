// The pure side of the history track: which points are drawn as lines (runs), the colour bands of
// speed and temperature, where the vehicle is at any instant (interpolated between fixes), which
// point a chart time falls on, and how a window fetched in full detail replaces the overview's
// points. Everything works on the columnar answer as it comes, in typed arrays, so 20,000 points
// cost a few milliseconds once and nothing per animation frame beyond a binary search.
import type { TrackAnswer, TrackPoints } from '@iotc/shared/track';

/** No line is drawn (and no position interpolated) across a silence longer than this. */
export const MAX_GAP_MS = 10 * 60_000;

/**
 * The fixes of a track: the points with a usable GPS position, in time order, and the run each
 * belongs to. A run ends at a silence over MAX_GAP_MS or at an LBS (cell-tower) point, whose
 * position is a guess of hundreds of metres: it is neither drawn nor used for the marker.
 */
export interface TrackFixes {
  /** Index of each fix in the answer's columns. */
  index: Int32Array;
  t: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  run: Int32Array;
  count: number;
}

export function trackFixes(p: TrackPoints): TrackFixes {
  const n = p.t.length;
  const index = new Int32Array(n);
  const t = new Float64Array(n);
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  const run = new Int32Array(n);
  let count = 0;
  let current = -1;
  let broken = true;
  let lastT = -Infinity;
  for (let i = 0; i < n; i += 1) {
    const la = p.lat[i];
    const lo = p.lon[i];
    if (p.lbs[i] === 1) {
      broken = true;
      continue;
    }
    // A report without a position says nothing about where the vehicle was: skipped, no break.
    if (la === null || la === undefined || lo === null || lo === undefined) continue;
    const ti = p.t[i]!;
    if (broken || ti - lastT > MAX_GAP_MS) current += 1;
    broken = false;
    lastT = ti;
    index[count] = i;
    t[count] = ti;
    lat[count] = la;
    lon[count] = lo;
    run[count] = current;
    count += 1;
  }
  return { index: index.subarray(0, count), t: t.subarray(0, count), lat: lat.subarray(0, count), lon: lon.subarray(0, count), run: run.subarray(0, count), count };
}

/** A drawable run: fix positions [from, to] (inclusive) of `fixes`, at least two. */
export interface Run {
  from: number;
  to: number;
}

/** The runs worth a line (two fixes or more); a lone fix between gaps is drawn as nothing. */
export function drawableRuns(f: TrackFixes): Run[] {
  const runs: Run[] = [];
  let start = 0;
  for (let k = 1; k <= f.count; k += 1) {
    if (k === f.count || f.run[k] !== f.run[start]) {
      if (k - 1 > start) runs.push({ from: start, to: k - 1 });
      start = k;
    }
  }
  return runs;
}

/** Last position k of a sorted array with a[k] <= x; -1 when x is before the first. */
export function lastAtOrBefore(a: ArrayLike<number>, x: number, length = a.length): number {
  let lo = 0;
  let hi = length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= x) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The index of the point nearest in time to `t` (a chart hover): -1 for an empty track. */
export function nearestIndex(times: ArrayLike<number>, t: number): number {
  const n = times.length;
  if (n === 0) return -1;
  const k = lastAtOrBefore(times, t);
  if (k < 0) return 0;
  if (k >= n - 1) return n - 1;
  return t - times[k]! <= times[k + 1]! - t ? k : k + 1;
}

/**
 * Where the vehicle is at `t`: between two fixes of one run, on the straight line between them in
 * proportion to the time; in a gap or past an LBS point, still at the last fix; before the first
 * fix, at the first. Null without fixes.
 */
export function positionAt(f: TrackFixes, t: number): [number, number] | null {
  if (f.count === 0) return null;
  const k = lastAtOrBefore(f.t, t, f.count);
  if (k < 0) return [f.lat[0]!, f.lon[0]!];
  if (k >= f.count - 1 || f.run[k] !== f.run[k + 1]) return [f.lat[k]!, f.lon[k]!];
  const t0 = f.t[k]!;
  const t1 = f.t[k + 1]!;
  const r = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
  return [f.lat[k]! + (f.lat[k + 1]! - f.lat[k]!) * r, f.lon[k]! + (f.lon[k + 1]! - f.lon[k]!) * r];
}

// ---- colour bands ----

export type ColorMode = 'speed' | 'temperature';

/** A band of values [min, max) in a colour; `label` is what the legend says. */
export interface Band {
  key: string;
  color: string;
  min: number;
  max: number;
  /** The band holds `max` itself too. */
  maxInclusive?: boolean;
  /** i18n key and values of the legend's text. */
  label: { key: BandLabelKey; values: Record<string, number | string> };
}

export type BandLabelKey = 'track.band.below' | 'track.band.between' | 'track.band.above' | 'track.band.inRange' | 'track.band.nearLimit' | 'track.band.belowMin' | 'track.band.aboveMax';

/** Grey: a segment whose value is unknown. */
export const NO_VALUE_COLOR = '#8c8c8c';

const SPEED_EDGES = [20, 40, 60, 80, 100];
const SPEED_COLORS = ['#1677ff', '#13c2c2', '#52c41a', '#faad14', '#fa541c', '#f5222d'];
/** Cold-chain temperature bands without task limits: deep frozen, frozen, chilled, cool, warm, hot. */
const TEMP_EDGES = [-18, 0, 8, 15, 25];
const TEMP_COLORS = ['#2f54eb', '#1677ff', '#13c2c2', '#52c41a', '#faad14', '#f5222d'];

function edgeBands(prefix: string, edges: number[], colors: string[], unit: string): Band[] {
  return colors.map((color, i) => {
    const min = i === 0 ? -Infinity : edges[i - 1]!;
    const max = i === edges.length ? Infinity : edges[i]!;
    const label: Band['label'] =
      i === 0 ? { key: 'track.band.below', values: { max, unit } } : i === edges.length ? { key: 'track.band.above', values: { min, unit } } : { key: 'track.band.between', values: { min, max, unit } };
    return { key: `${prefix}${i}`, color, min, max, label };
  });
}

export const SPEED_BANDS: readonly Band[] = edgeBands('speed', SPEED_EDGES, SPEED_COLORS, 'km/h');
export const TEMPERATURE_BANDS: readonly Band[] = edgeBands('temp', TEMP_EDGES, TEMP_COLORS, '°C');

export interface TempLimits {
  tempMin: number | null;
  tempMax: number | null;
}

/** Within this many degrees of a limit a value is "near the limit" (orange). */
export const NEAR_LIMIT_C = 1;

/**
 * Bands relative to the task's limits: below the minimum (blue), within a degree of a limit
 * (orange), in range (green), above the maximum (red). Without any limit, the absolute bands.
 */
export function temperatureBands(limits: TempLimits | null | undefined): readonly Band[] {
  const lo = limits?.tempMin ?? null;
  const hi = limits?.tempMax ?? null;
  if (lo === null && hi === null) return TEMPERATURE_BANDS;
  const unit = '°C';
  const bands: Band[] = [];
  const low = lo ?? -Infinity;
  const high = hi ?? Infinity;
  // The near-limit margin never eats more than a quarter of a narrow range each side.
  const margin = Number.isFinite(low) && Number.isFinite(high) ? Math.min(NEAR_LIMIT_C, (high - low) / 4) : NEAR_LIMIT_C;
  if (lo !== null) bands.push({ key: 'belowMin', color: '#1677ff', min: -Infinity, max: lo, label: { key: 'track.band.belowMin', values: { value: lo, unit } } });
  if (lo !== null) bands.push({ key: 'nearMin', color: '#faad14', min: lo, max: lo + margin, label: { key: 'track.band.nearLimit', values: { unit } } });
  bands.push({ key: 'inRange', color: '#52c41a', min: lo !== null ? lo + margin : -Infinity, max: hi !== null ? hi - margin : Infinity, label: { key: 'track.band.inRange', values: { min: lo ?? '-', max: hi ?? '-', unit } } });
  // The top near-limit band closes at the maximum inclusive: exactly the limit is not above it.
  if (hi !== null) bands.push({ key: 'nearMax', color: '#faad14', min: hi - margin, max: hi, maxInclusive: true, label: { key: 'track.band.nearLimit', values: { unit } } });
  if (hi !== null) bands.push({ key: 'aboveMax', color: '#f5222d', min: hi, max: Infinity, label: { key: 'track.band.aboveMax', values: { value: hi, unit } } });
  return bands;
}

/** The band holding `value` (bands are in ascending order); null for an unknown value. */
export function bandOf(bands: readonly Band[], value: number | null | undefined): Band | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  for (const b of bands) if (value >= b.min && (value < b.max || (b.maxInclusive && value === b.max))) return b;
  return value < bands[0]!.min ? bands[0]! : bands[bands.length - 1]!;
}

/** The legend lists each band once (the two near-limit bands share a line). */
export function legendBands(bands: readonly Band[]): Band[] {
  const seen = new Set<string>();
  return bands.filter((b) => {
    const id = `${b.color}|${b.label.key}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** A polyline of one colour: fix positions [from, to] of `fixes`. */
export interface ColoredPiece {
  from: number;
  to: number;
  color: string;
}

/**
 * The runs cut where the colour changes: each segment takes the colour of its first point's value,
 * and consecutive segments of one colour are one polyline (a few hundred pieces, not thousands).
 */
export function coloredPieces(f: TrackFixes, runs: readonly Run[], values: readonly (number | null)[], bands: readonly Band[]): ColoredPiece[] {
  const out: ColoredPiece[] = [];
  for (const run of runs) {
    let start = run.from;
    let color = bandOf(bands, values[f.index[run.from]!])?.color ?? NO_VALUE_COLOR;
    for (let k = run.from + 1; k < run.to; k += 1) {
      const c = bandOf(bands, values[f.index[k]!])?.color ?? NO_VALUE_COLOR;
      if (c !== color) {
        out.push({ from: start, to: k, color });
        start = k;
        color = c;
      }
    }
    out.push({ from: start, to: run.to, color });
  }
  return out;
}

// ---- windows of full detail ----

/** The overview's points before `from` and from `to` on, with the window's detail between. */
export function spliceWindow(overview: TrackPoints, detail: TrackPoints, from: number, to: number): TrackPoints {
  const a = lastAtOrBefore(overview.t, from - 1) + 1; // first overview point >= from
  const b = lastAtOrBefore(overview.t, to - 1) + 1; // first overview point >= to
  const keys = ['t', 'lat', 'lon', 'lbs', 'speed', 'temp', 'humidity', 'door'] as const;
  const out = {} as Record<(typeof keys)[number], unknown[]>;
  for (const key of keys) {
    const o = overview[key] as unknown[];
    const d = (detail[key] as unknown[]).filter((_, i) => detail.t[i]! >= from && detail.t[i]! < to);
    out[key] = [...o.slice(0, a), ...d, ...o.slice(b)];
  }
  return out as unknown as TrackPoints;
}

/** The playback's span: first to last point (the range when there are none). */
export function trackDomain(track: Pick<TrackAnswer, 'from' | 'to' | 'points'>): [number, number] {
  const t = track.points.t;
  if (t.length === 0) return [Date.parse(track.from), Date.parse(track.to)];
  return [t[0]!, t[t.length - 1]!];
}

/** Distance in metres between two WGS-84 positions (haversine). */
export function distanceM(a: readonly [number, number], b: readonly [number, number]): number {
  const R = 6_371_008.8;
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLon = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

// Trips and stops of one device from its position history: where it stood, when it drove and how
// far, and (taskProgress) when a transport task left its origin and arrived at its destination.
// Pure; the work is a few typed arrays per call and nothing per point, so the server can run it over
// a month of a fleet's history and the web over the day it has loaded.
//
// The history is columnar (`Track`: parallel arrays, typed arrays welcome; `toTrack` builds one
// from objects) and must be in time order. A query reads it that way; sorting here would hide a
// broken query and cost a copy, so a point earlier than the one before it is a RangeError. Equal
// times are allowed.
//
// Four steps:
// 1. Clean. A GPS fix farther from the last accepted fix than `maxSpeedKmh` allows (plus
//    GPS_ERROR_M, so two fixes of the same instant may differ by an ordinary error) is a jump: it is
//    dropped, listed in `ignored`, and used for nothing. When `jumpConfirmPoints` fixes in a row are
//    rejected yet agree with each other, either the fix they were checked against was the outlier
//    (a wrong first fix after a cold start, a short cluster of wrong fixes) or the device really
//    is elsewhere: if the fixes accepted since the last such turn are no more than
//    `jumpConfirmPoints`, they are dropped instead; otherwise the new place is believed and the move
//    to it is a break, which counts no distance and ends any stay. Points without finite coordinates
//    are ignored too.
//    LBS positions (cell towers: hundreds of metres to kilometres off) are never checked and never
//    used for a position, a distance or a boundary. They only count as data, so a stretch of them is
//    not a gap, and they are counted in `Trip.lbsPoints`. A trip or a stop therefore always starts
//    and ends on a GPS fix; a history of LBS positions only has neither.
// 2. Stays. A stay is a run of GPS fixes all within `stopRadiusM` of its first fix, lasting at least
//    `stopMinS` (the stay points of Li et al., 2008, with the leading tracker's 200 m and 180 s).
//    Only positions are compared, so a device inside the radius on both sides of a data gap or of an
//    LBS-only stretch stayed; if it is outside, the trip spans the gap and its `gaps` says so. A crawl
//    slower than stopRadiusM / stopMinS (4 km/h with the defaults) stays by this definition, and a
//    long one is one stop. The search restarts one fix later when a run fails (as Li's does): linear
//    while driving or parked, at worst the fixes of one `stopMinS` window per fix.
// 3. Rest. Arriving and leaving inside the radius is moving, not stopping: a stay's leading and
//    trailing fixes that move more than HALT_RADIUS_M within HALT_MIN_S go to the trips around it,
//    so a stop runs from the first to the last fix at rest and its duration is the time at rest (to
//    the sample). A stay shorter than `stopMinS` once trimmed (a long red light) is no stop. Arriving
//    or leaving takes a path of about the radius's diameter at most; a stay that begins or ends with
//    a longer movement, or never rests (shunting about a yard), keeps its bounds: moving about inside
//    the radius is staying by definition.
// 4. Trips. Between stops, and before the first and after the last, the device travelled. A movement
//    shorter than `minTripDistanceM` (re-parking in the yard, a wander of the GPS) is merged into the
//    stops around it, so every trip is at least that long. The stop's position is the mean of the
//    fixes of its stays, not of the movements merged into it.
import { z } from 'zod';
import { distanceM } from './alarm-rules.ts';

/** Thresholds. Settings holding them are validated with this schema; detection takes them as given. */
export const tripOptionsSchema = z.object({
  /** A stop is staying within this distance of where it began... */
  stopRadiusM: z.number().min(10).max(5000).default(200),
  /** ...for at least this long. */
  stopMinS: z.number().min(10).max(86_400).default(180),
  /** A GPS fix implying a faster move from the last accepted one is a jump. */
  maxSpeedKmh: z.number().min(10).max(2000).default(250),
  /** Rejected fixes in a row, agreeing with each other, after which they are believed (see step 1). */
  jumpConfirmPoints: z.number().int().min(2).max(100).default(3),
  /** A longer interval between two points (GPS or LBS) is a data gap. */
  gapS: z.number().min(1).max(30 * 86_400).default(600),
  /** A shorter movement between stops is part of them. */
  minTripDistanceM: z.number().min(0).max(100_000).default(500),
});
export type TripOptions = z.infer<typeof tripOptionsSchema>;
export const TRIP_DEFAULTS: TripOptions = Object.freeze(tripOptionsSchema.parse({}));

/** Staying within HALT_RADIUS_M for HALT_MIN_S is being at rest: a stop's edges, a trip's halts. */
export const HALT_RADIUS_M = 50;
export const HALT_MIN_S = 30;
/** Two GPS fixes may differ by this much with no time between them. */
export const GPS_ERROR_M = 50;

/** A device's history, one entry per report in each array. */
export interface Track {
  /** Epoch milliseconds, non-decreasing. */
  t: ArrayLike<number>;
  lat: ArrayLike<number>;
  lon: ArrayLike<number>;
  /** Truthy where the position is LBS (cell towers), not GPS. Absent: all GPS. */
  lbs?: ArrayLike<number | boolean>;
  /** Speed the device reported, km/h; NaN where it reported none. Absent: speeds are derived from the fixes. */
  speed?: ArrayLike<number>;
}

export interface TrackPoint {
  t: number;
  lat: number;
  lon: number;
  /** 'LBS' for a cell-tower position; anything else is GPS. */
  positioning?: string | null;
  speed?: number | null;
}

export interface Trip {
  /** Indexes in the track of its first and last fix: the last at rest of the stop before it and the first of the stop after it (or the history's first and last fix). */
  startIndex: number;
  endIndex: number;
  startT: number;
  endT: number;
  durationS: number;
  /** durationS without halts (at rest HALT_MIN_S or longer: lights, queues); a gap counts as moving. */
  movingS: number;
  /** Along its GPS fixes; straight across gaps and LBS stretches (less than driven), nothing across a break. */
  distanceM: number;
  /** The highest speed the device reported in it, or, where it reported none, implied by consecutive fixes. */
  maxSpeedKmh: number;
  /** distanceM / movingS. */
  avgSpeedKmh: number;
  /** Intervals longer than gapS between consecutive points in it. */
  gaps: number;
  /** LBS positions in it: stretches where its route is only roughly known. */
  lbsPoints: number;
  /** The history ends in it: it may go on. */
  open: boolean;
}

export interface Stop {
  startIndex: number;
  endIndex: number;
  startT: number;
  endT: number;
  durationS: number;
  /** Mean of the fixes of its stays. */
  lat: number;
  lon: number;
  /** The history ends in it: it may go on. */
  open: boolean;
}

export interface TripsResult {
  /** Both in time order, alternating; a trip starts on the fix its stop ends on and ends on the next stop's first. */
  trips: Trip[];
  stops: Stop[];
  /** Indexes of the GPS fixes dropped as jumps or without coordinates, ascending. */
  ignored: number[];
}

/** A track from reports as objects (a query's rows, the web's loaded history). */
export function toTrack(points: readonly TrackPoint[]): Track {
  const n = points.length;
  const track = { t: new Float64Array(n), lat: new Float64Array(n), lon: new Float64Array(n), lbs: new Uint8Array(n), speed: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    track.t[i] = p.t;
    track.lat[i] = p.lat;
    track.lon[i] = p.lon;
    track.lbs[i] = p.positioning === 'LBS' ? 1 : 0;
    track.speed[i] = p.speed ?? NaN;
  }
  return track;
}

// ---- internals

const IGNORED = 0;
const GPS = 1;
const LBS = 2;
/** A GPS fix not joined to the one before it: the first, or the first after a believed jump. */
const BREAK = 3;

const M_PER_DEG = (6_371_008.8 * Math.PI) / 180;
const RAD = Math.PI / 180;

const wrapLon = (d: number) => (d > 180 ? d - 360 : d < -180 ? d + 360 : d);

/** The cleaned track: state per point, distance from the previous accepted fix, and the accepted fixes in order. */
interface Clean {
  t: ArrayLike<number>;
  lat: ArrayLike<number>;
  lon: ArrayLike<number>;
  speed: ArrayLike<number> | undefined;
  state: Uint8Array;
  seg: Float64Array;
  /** Indexes of the accepted GPS fixes: every later step walks these. */
  g: Int32Array;
}

function clean(track: Track, o: TripOptions): Clean {
  const { t, lat, lon, lbs } = track;
  const n = t.length;
  if (lat.length !== n || lon.length !== n || (lbs && lbs.length !== n) || (track.speed && track.speed.length !== n)) {
    throw new RangeError('track columns differ in length');
  }
  const state = new Uint8Array(n);
  const seg = new Float64Array(n);
  const maxMPerMs = o.maxSpeedKmh / 3600;
  const seg0 = (a: number, b: number) => distanceM(lat[a]!, lon[a]!, lat[b]!, lon[b]!);
  const plausible = (a: number, b: number) => seg0(a, b) <= maxMPerMs * (t[b]! - t[a]!) + GPS_ERROR_M;
  const K = o.jumpConfirmPoints;

  let prev = -1; // last accepted fix
  let islandStart = -1; // first fix accepted since the start or the last turn (step 1)
  let islandCount = 0;
  let beforeIsland = -1; // the accepted fix the island joined, if any
  let runFirst = -1; // rejected fixes in a row that agree with each other
  let runLast = -1;
  let runCount = 0;
  let accepted = 0;

  for (let i = 0; i < n; i++) {
    if (i > 0 && !(t[i]! >= t[i - 1]!)) throw new RangeError(`track is not in time order at index ${i}`);
    if (lbs && lbs[i]) {
      state[i] = LBS;
      continue;
    }
    const la = lat[i]!;
    const lo = lon[i]!;
    if (!(Math.abs(la) <= 90 && Math.abs(lo) <= 180)) continue; // IGNORED, and no part of a run
    if (prev < 0) {
      state[i] = BREAK;
      prev = islandStart = i;
      islandCount = 1;
      accepted++;
      continue;
    }
    const d = seg0(prev, i);
    if (d <= maxMPerMs * (t[i]! - t[prev]!) + GPS_ERROR_M) {
      state[i] = GPS;
      seg[i] = d;
      prev = i;
      islandCount++;
      accepted++;
      runCount = 0;
      continue;
    }
    // A jump, unless enough agreeing ones follow.
    if (runCount > 0 && plausible(runLast, i)) {
      runCount++;
      runLast = i;
    } else {
      runFirst = runLast = i;
      runCount = 1;
    }
    if (runCount < K) continue;

    let join = prev;
    if (islandCount <= K) {
      for (let j = islandStart; j <= prev; j++) if (state[j] === GPS || state[j] === BREAK) state[j] = IGNORED;
      accepted -= islandCount;
      join = beforeIsland;
    }
    let last = -1;
    for (let j = runFirst; j <= runLast; j++) {
      if (state[j] !== IGNORED || !(Math.abs(lat[j]!) <= 90 && Math.abs(lon[j]!) <= 180)) continue;
      if (last >= 0) {
        state[j] = GPS;
        seg[j] = seg0(last, j);
      } else if (join >= 0 && plausible(join, j)) {
        state[j] = GPS;
        seg[j] = seg0(join, j);
      } else {
        state[j] = BREAK;
        seg[j] = 0;
      }
      last = j;
    }
    beforeIsland = join;
    islandStart = runFirst;
    islandCount = runCount;
    accepted += runCount;
    prev = runLast;
    runCount = 0;
  }

  const g = new Int32Array(accepted);
  let k = 0;
  for (let i = 0; i < n; i++) if (state[i] === GPS || state[i] === BREAK) g[k++] = i;
  return { t, lat, lon, speed: track.speed, state, seg, g };
}

/** Whether fix b is within radius (squared, metres) of fix a; locally flat, exact enough within kilometres. */
function near(c: Clean, a: number, b: number, r2: number, cosA: number): boolean {
  const dy = (c.lat[b]! - c.lat[a]!) * M_PER_DEG;
  const dx = wrapLon(c.lon[b]! - c.lon[a]!) * M_PER_DEG * cosA;
  return dx * dx + dy * dy <= r2;
}

/**
 * Stays among the accepted fixes at positions from..to of c.g: runs all within radiusM of their
 * first fix lasting at least minMs, pushed to out as pairs of positions. A break ends a run.
 */
function findStays(c: Clean, from: number, to: number, radiusM: number, minMs: number, out: number[]): void {
  const { g, t, state } = c;
  const r2 = radiusM * radiusM;
  let k = from;
  while (k <= to) {
    const a = g[k]!;
    const cosA = Math.cos(c.lat[a]! * RAD);
    let last = k;
    let j = k + 1;
    while (j <= to && state[g[j]!] !== BREAK && near(c, a, g[j]!, r2, cosA)) last = j++;
    if (t[g[last]!]! - t[a]! >= minMs) {
      out.push(k, last);
      k = j;
    } else if (j > to) {
      return; // every later run is shorter still
    } else {
      k++;
    }
  }
}

const HALT_R2 = HALT_RADIUS_M * HALT_RADIUS_M;
const HALT_MS = HALT_MIN_S * 1000;

/** Whether the fix at position k moves more than HALT_RADIUS_M within HALT_MIN_S after it (up to position to). */
function movesAfter(c: Clean, k: number, to: number): boolean {
  const a = c.g[k]!;
  const cosA = Math.cos(c.lat[a]! * RAD);
  for (let j = k + 1; j <= to; j++) {
    const b = c.g[j]!;
    if (c.t[b]! - c.t[a]! > HALT_MS) return false;
    if (!near(c, a, b, HALT_R2, cosA)) return true;
  }
  return false;
}

/** Whether the fix at position k moved more than HALT_RADIUS_M within HALT_MIN_S before it (down to position from). */
function movedBefore(c: Clean, k: number, from: number): boolean {
  const a = c.g[k]!;
  const cosA = Math.cos(c.lat[a]! * RAD);
  for (let j = k - 1; j >= from; j--) {
    const b = c.g[j]!;
    if (c.t[a]! - c.t[b]! > HALT_MS) return false;
    if (!near(c, a, b, HALT_R2, cosA)) return true;
  }
  return false;
}

function tripDistance(c: Clean, from: number, to: number): number {
  let d = 0;
  for (let k = from + 1; k <= to; k++) d += c.seg[c.g[k]!]!; // 0 at a break
  return d;
}

const haltScratch: number[] = [];

function makeTrip(c: Clean, from: number, to: number, o: TripOptions): Trip {
  const { g, t, state, seg, speed } = c;
  const first = g[from]!;
  const last = g[to]!;
  let distance = 0;
  let maxSpeed = 0;
  for (let k = from; k <= to; k++) {
    const i = g[k]!;
    const joined = k > from && state[i] !== BREAK;
    if (joined) distance += seg[i]!;
    const reported = speed ? speed[i]! : NaN;
    if (reported === reported) {
      if (reported > maxSpeed) maxSpeed = reported;
    } else if (joined) {
      const dt = t[i]! - t[g[k - 1]!]!;
      if (dt > 0 && (seg[i]! / dt) * 3600 > maxSpeed) maxSpeed = (seg[i]! / dt) * 3600;
    }
  }
  const gapMs = o.gapS * 1000;
  let gaps = 0;
  let lbsPoints = 0;
  let prevT = t[first]!;
  for (let i = first + 1; i <= last; i++) {
    if (state[i] === IGNORED) continue;
    if (t[i]! - prevT > gapMs) gaps++;
    if (state[i] === LBS) lbsPoints++;
    prevT = t[i]!;
  }
  haltScratch.length = 0;
  findStays(c, from, to, HALT_RADIUS_M, HALT_MS, haltScratch);
  let haltedMs = 0;
  for (let h = 0; h < haltScratch.length; h += 2) haltedMs += t[g[haltScratch[h + 1]!]!]! - t[g[haltScratch[h]!]!]!;
  const durationS = (t[last]! - t[first]!) / 1000;
  const movingS = durationS - haltedMs / 1000;
  return {
    startIndex: first,
    endIndex: last,
    startT: t[first]!,
    endT: t[last]!,
    durationS,
    movingS,
    distanceM: distance,
    maxSpeedKmh: maxSpeed,
    avgSpeedKmh: movingS > 0 ? (distance / movingS) * 3.6 : 0,
    gaps,
    lbsPoints,
    open: false,
  };
}

interface StopSpan {
  from: number;
  to: number;
  /** Its stays (trimmed), pairs of positions: where its position is taken from. */
  parts: number[];
}

function makeStop(c: Clean, s: StopSpan): Stop {
  const { g, t, lat, lon } = c;
  const lon0 = lon[g[s.parts[0]!]!]!;
  let sumLat = 0;
  let sumLon = 0;
  let count = 0;
  for (let p = 0; p < s.parts.length; p += 2) {
    for (let k = s.parts[p]!; k <= s.parts[p + 1]!; k++) {
      sumLat += lat[g[k]!]!;
      sumLon += wrapLon(lon[g[k]!]! - lon0);
      count++;
    }
  }
  const first = g[s.from]!;
  const last = g[s.to]!;
  return {
    startIndex: first,
    endIndex: last,
    startT: t[first]!,
    endT: t[last]!,
    durationS: (t[last]! - t[first]!) / 1000,
    lat: sumLat / count,
    lon: wrapLon(lon0 + sumLon / count),
    open: false,
  };
}

/** Trips and stops of one device's history; see the top of this file. */
export function detectTrips(track: Track, options: Partial<TripOptions> = {}): TripsResult {
  const o: TripOptions = { ...TRIP_DEFAULTS, ...options };
  const c = clean(track, o);
  const ignored: number[] = [];
  for (let i = 0; i < c.state.length; i++) if (c.state[i] === IGNORED) ignored.push(i);
  const m = c.g.length;
  const trips: Trip[] = [];
  const stops: Stop[] = [];
  if (m === 0) return { trips, stops, ignored };

  const minMs = o.stopMinS * 1000;
  const raw: number[] = [];
  findStays(c, 0, m - 1, o.stopRadiusM, minMs, raw);

  // Step 3: trim each stay to its fixes at rest.
  const rest: number[] = [];
  const maxEdgeM = 2 * o.stopRadiusM;
  for (let p = 0; p < raw.length; p += 2) {
    const from = raw[p]!;
    const to = raw[p + 1]!;
    // Arriving or leaving inside the radius takes a path of about its diameter at most; a longer
    // one (or moving to the end) is moving about inside it: part of the stay, which keeps its bounds.
    let about = false;
    let s = from;
    let path = 0;
    while (!about && s < to && movesAfter(c, s, to)) {
      path += c.seg[c.g[s + 1]!]!;
      s++;
      about = path > maxEdgeM || s === to;
    }
    let e = to;
    path = 0;
    while (!about && e > s && movedBefore(c, e, s)) {
      path += c.seg[c.g[e]!]!;
      e--;
      about = path > maxEdgeM;
    }
    if (about) rest.push(from, to);
    else if (c.t[c.g[e]!]! - c.t[c.g[s]!]! >= minMs) rest.push(s, e);
  }

  // Step 4: stops and the trips between them; short movements join the stops around them.
  const spans: StopSpan[] = [];
  if (rest.length > 0) {
    let cur: StopSpan = { from: rest[0]!, to: rest[1]!, parts: [rest[0]!, rest[1]!] };
    if (cur.from > 0 && tripDistance(c, 0, cur.from) < o.minTripDistanceM) cur.from = 0;
    for (let p = 2; p < rest.length; p += 2) {
      const from = rest[p]!;
      const to = rest[p + 1]!;
      if (tripDistance(c, cur.to, from) < o.minTripDistanceM) {
        cur.to = to;
        cur.parts.push(from, to);
      } else {
        spans.push(cur);
        cur = { from, to, parts: [from, to] };
      }
    }
    if (cur.to < m - 1 && tripDistance(c, cur.to, m - 1) < o.minTripDistanceM) cur.to = m - 1;
    spans.push(cur);
  } else if (m > 1 && tripDistance(c, 0, m - 1) >= o.minTripDistanceM) {
    const trip = makeTrip(c, 0, m - 1, o);
    trip.open = true;
    trips.push(trip);
    return { trips, stops, ignored };
  } else {
    return { trips, stops, ignored };
  }

  if (spans[0]!.from > 0) trips.push(makeTrip(c, 0, spans[0]!.from, o));
  for (let s = 0; s < spans.length; s++) {
    stops.push(makeStop(c, spans[s]!));
    if (s + 1 < spans.length) trips.push(makeTrip(c, spans[s]!.to, spans[s + 1]!.from, o));
  }
  const lastSpan = spans[spans.length - 1]!;
  if (lastSpan.to < m - 1) {
    const trip = makeTrip(c, lastSpan.to, m - 1, o);
    trip.open = true;
    trips.push(trip);
  } else {
    stops[stops.length - 1]!.open = true;
  }
  return { trips, stops, ignored };
}

// ---- transport tasks

/** A circle: a task's origin or destination (a Place fits). */
export interface Area {
  lat: number;
  lon: number;
  radiusM: number;
}

export interface TaskPlan {
  origin: Area;
  destination: Area;
  /** How long the device must stop inside the destination for the task to end. */
  dwellS: number;
}

export interface TaskMark {
  index: number;
  t: number;
}

export interface TaskProgress {
  /** The first fix outside the origin on a trip: the device left it and moves. */
  start: TaskMark | null;
  /** The first fix of the first later stop inside the destination lasting dwellS: the arrival (known at t + dwellS). */
  end: TaskMark | null;
}

/**
 * When a task started and ended, from the trips and stops of its device's history since the task
 * was planned (pass `detected` when they are at hand). The device need not have been inside the
 * origin: a task planned while it is on its way starts at its first moving fix outside the origin.
 * A stop is inside the destination when its position is; since a stop lasts at least stopMinS, a
 * shorter dwellS means stopMinS.
 */
export function taskProgress(track: Track, plan: TaskPlan, options: Partial<TripOptions> = {}, detected?: TripsResult): TaskProgress {
  const r = detected ?? detectTrips(track, options);
  const { origin, destination } = plan;
  let start: TaskMark | null = null;
  let ig = 0;
  for (const trip of r.trips) {
    for (let i = trip.startIndex + 1; i <= trip.endIndex && !start; i++) {
      while (ig < r.ignored.length && r.ignored[ig]! < i) ig++;
      if (r.ignored[ig] === i || (track.lbs && track.lbs[i])) continue;
      if (distanceM(track.lat[i]!, track.lon[i]!, origin.lat, origin.lon) > origin.radiusM) start = { index: i, t: track.t[i]! };
    }
    if (start) break;
  }
  if (!start) return { start: null, end: null };
  for (const stop of r.stops) {
    if (stop.startIndex < start.index || stop.durationS < plan.dwellS) continue;
    if (distanceM(stop.lat, stop.lon, destination.lat, destination.lon) <= destination.radiusM) {
      return { start, end: { index: stop.startIndex, t: stop.startT } };
    }
  }
  return { start, end: null };
}

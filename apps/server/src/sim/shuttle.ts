// A vehicle shuttling back and forth on a route: stop at one end, drive to the other, stop,
// drive back. The timetable is a closed-form function of time (fixed slots of one stop plus one
// leg since EPOCH), so the position at any instant is computed directly: a report every 10 s, a
// backfill every minute and a restart all see the same journey.
import { between } from './random.ts';
import { bearing, pointAlong, routeLength, type Polyline } from './routes.ts';

/** Slot 0 of every timetable starts here (plus the vehicle's phase). */
const EPOCH_MS = Date.UTC(2026, 0, 1);

const MINUTE = 60_000;
const HOUR = 3_600_000;

export interface Shuttle {
  path: Polyline;
  lengthKm: number;
  /** The device's hash key: every choice of the timetable derives from it. */
  key: number;
  /** Driving time of a leg with the shortest stop before it, ms. */
  legMs: number;
  minStopMs: number;
  maxStopMs: number;
  /** Offset of the timetable, so vehicles on the same route are spread along it. */
  phaseMs: number;
}

// What a hash is for: each random choice of the timetable gets its own tag, numbered apart from
// the tags of models.ts so that no choice here repeats one made there from the same key.
const TAG = { phase: 101, stop: 102, jams: 103, jamAt: 104, jamWidth: 105, jamDepth: 106 } as const;

/** A slot holds the longest stop and the shortest leg: a shorter stop leaves a longer, slower leg. */
const slotMs = (s: Shuttle) => s.legMs + s.maxStopMs;

export function createShuttle(opts: { path: Polyline; key: number; cruiseKmh: number; minStopMs: number; maxStopMs: number }): Shuttle {
  const lengthKm = routeLength(opts.path);
  const legMs = (lengthKm / opts.cruiseKmh) * HOUR;
  const shuttle = { path: opts.path, lengthKm, key: opts.key, legMs, minStopMs: opts.minStopMs, maxStopMs: opts.maxStopMs, phaseMs: 0 };
  shuttle.phaseMs = between(0, slotMs(shuttle), opts.key, TAG.phase);
  return shuttle;
}

export interface ShuttleState {
  /** Slot number since EPOCH: the stop before leg `leg` and the leg itself. */
  leg: number;
  moving: boolean;
  lat: number;
  lon: number;
  /** Degrees from north; when stopped, the heading it arrived with. */
  course: number;
  speedKmh: number;
  /** Km driven since EPOCH, for the odometer. */
  drivenKm: number;
  /** The stop of this slot: [start, end) ms. */
  stopStartMs: number;
  stopEndMs: number;
}

/** The slot holding `tMs` and where in it `tMs` falls. */
function slotAt(s: Shuttle, tMs: number): { leg: number; startMs: number } {
  const leg = Math.floor((tMs - EPOCH_MS - s.phaseMs) / slotMs(s));
  return { leg, startMs: EPOCH_MS + s.phaseMs + leg * slotMs(s) };
}

function stopMsOf(s: Shuttle, leg: number): number {
  return between(s.minStopMs, s.maxStopMs, s.key, leg, TAG.stop);
}

/** A speed dip: raised-cosine of half-width `s` (fraction of the leg) centred on `c`, `depth` 0-1. */
interface Dip {
  c: number;
  s: number;
  depth: number;
}

const dip = (u: number, d: Dip) => (Math.abs(u - d.c) >= d.s ? 0 : 0.5 * (1 + Math.cos((Math.PI * (u - d.c)) / d.s)));
/** The integral of a dip's shape from -infinity to u. */
function dipArea(u: number, d: Dip): number {
  if (u <= d.c - d.s) return 0;
  if (u >= d.c + d.s) return d.s;
  return 0.5 * (u - d.c + d.s + (d.s / Math.PI) * Math.sin((Math.PI * (u - d.c)) / d.s));
}

/** How much faster than its base speed a vehicle gets between slowdowns (traffic flow). */
const WAVE = 0.35;

/**
 * The speed profile of one leg over u = 0..1 of its time: a base speed with a gentle wave
 * (sin², so it is 0 at both ends), less the dips of accelerating away, braking to a stop and
 * 0-2 traffic slowdowns. Returns the shape w(u) and its integral W(u): the distance covered is
 * L * W(u) / W(1), the speed L * w(u) / (T * W(1)).
 */
function legShape(s: Shuttle, leg: number, durationMs: number) {
  const minutes = durationMs / MINUTE;
  const waves = Math.max(1, Math.round(minutes / 25));
  const ramp = Math.min(0.05, 1.5 / minutes);
  const dips: Dip[] = [
    { c: 0, s: ramp, depth: 1 },
    { c: 1, s: ramp, depth: 1 },
  ];
  const jams = Math.floor(between(0, 2.5, s.key, leg, TAG.jams));
  for (let j = 0; j < jams; j++) {
    // One jam in each half, so they never overlap each other or the ramps.
    const c = between(0.1, 0.45, s.key, leg, TAG.jamAt, j) + j * 0.45;
    const width = Math.min(0.04, between(3, 8, s.key, leg, TAG.jamWidth, j) / minutes);
    dips.push({ c, s: width, depth: between(0.5, 0.8, s.key, leg, TAG.jamDepth, j) });
  }
  const w = (u: number) => 1 + WAVE * Math.sin(Math.PI * waves * u) ** 2 - dips.reduce((sum, d) => sum + d.depth * dip(u, d), 0);
  const W = (u: number) =>
    u + WAVE * (u / 2 - Math.sin(2 * Math.PI * waves * u) / (4 * Math.PI * waves)) - dips.reduce((sum, d) => sum + d.depth * (dipArea(u, d) - dipArea(0, d)), 0);
  return { w, W };
}

/** Where the shuttle is at `tMs`. */
export function shuttleAt(s: Shuttle, tMs: number): ShuttleState {
  const { leg, startMs } = slotAt(s, tMs);
  const stopEndMs = startMs + stopMsOf(s, leg);
  const forward = ((leg % 2) + 2) % 2 === 0;
  const base = { leg, stopStartMs: startMs, stopEndMs, drivenKm: leg * s.lengthKm };
  if (tMs < stopEndMs) {
    // Parked at the end this leg starts from, facing the way it came in.
    const n = s.path.length;
    const [lat, lon] = forward ? s.path[0]! : s.path[n - 1]!;
    const course = forward ? (bearing(s.path[0]!, s.path[1]!) + 180) % 360 : bearing(s.path[n - 2]!, s.path[n - 1]!);
    return { ...base, moving: false, lat, lon, course, speedKmh: 0 };
  }
  const durationMs = startMs + slotMs(s) - stopEndMs;
  const u = (tMs - stopEndMs) / durationMs;
  const { w, W } = legShape(s, leg, durationMs);
  const total = W(1);
  const km = (s.lengthKm * W(u)) / total;
  const speedKmh = (s.lengthKm * w(u)) / ((durationMs / HOUR) * total);
  const p = pointAlong(s.path, forward ? km : s.lengthKm - km);
  const course = forward ? p.course : (p.course + 180) % 360;
  return { ...base, moving: true, lat: p.lat, lon: p.lon, course, speedKmh, drivenKm: base.drivenKm + km };
}

// The planned path of a transport task or a template, and how far a task has come along it and
// when it should arrive, from where its first device is now: along the planned path when there
// is a route (the position projected onto the polyline), else straight from the origin through
// the stops (if any) to the destination. The estimated arrival uses the average speed
// since the start once it means something (5 minutes and 1 km), else the planned average speed.
// Pure, so that the server (detail, monitor, the off-route rule, the planned length, the
// shipment report), the web (maps) and tests share it. (trips.ts `taskProgress` is
// another thing: when a task started and arrived, from its track.)
import { distanceM } from './alarm-rules.ts';
import type { TaskStatus } from './transport.ts';

/** The average speed since the start counts from this much time and distance on. */
export const ETA_MIN_ELAPSED_MS = 5 * 60_000;
export const ETA_MIN_DONE_M = 1000;

export interface ProgressInput {
  status: TaskStatus;
  /** The first device's latest position, if any. */
  position: { lat: number; lon: number } | null;
  origin: { lat: number; lon: number };
  destination: { lat: number; lon: number };
  /** [lat, lon] points between the origin and the destination (see plannedPath); none: no route. */
  route: [number, number][];
  /** The stops in order; without a route the way is measured straight through them. */
  stops?: readonly Point[];
  plannedDistanceM: number;
  /** Epoch milliseconds. */
  plannedStart: number | null;
  plannedArrival: number | null;
  startedAt: number | null;
  now: number;
}

export interface Progress {
  /** 0..1. */
  progress: number | null;
  remainingM: number | null;
  /** Epoch milliseconds. */
  eta: number | null;
}

type Point = { lat: number; lon: number };

/** What the planned path is made of: the places and the route's points between them. */
export interface PlannedPathInput {
  origin: Point;
  destination: Point;
  /** [lat, lon] points, drawn on the map or along the roads; none: no planned route. */
  route: readonly (readonly [number, number])[];
  /** The stops in order between the origin and the destination (a road route already passes them). */
  stops?: readonly Point[];
}

/** The straight way without a route: origin, the stops in order, destination, [lat, lon]. */
export function straightPath(s: Pick<PlannedPathInput, 'origin' | 'destination' | 'stops'>): [number, number][] {
  return [s.origin, ...(s.stops ?? []), s.destination].map((p): [number, number] => [p.lat, p.lon]);
}

/**
 * The planned path, the one rule for the off-route alarm, progress, remaining way, arrival
 * estimate, planned length and the maps: from the origin's centre through the route's points to
 * the destination's centre, [lat, lon]. The route holds only the points between the places (the
 * clicked ones, or a road route that starts and ends on the road near them), so its ends are the
 * places. A point equal to the one before it is left out. Without route points: [] (no planned
 * route; the straight line origin -> destination is what is measured then).
 */
export function plannedPath(s: PlannedPathInput): [number, number][] {
  if (s.route.length === 0) return [];
  const out: [number, number][] = [];
  for (const [lat, lon] of [[s.origin.lat, s.origin.lon] as const, ...s.route, [s.destination.lat, s.destination.lon] as const]) {
    const last = out[out.length - 1];
    if (!last || last[0] !== lat || last[1] !== lon) out.push([lat, lon]);
  }
  return out;
}

/** Length of the planned path in metres, or without a route the straight distance origin -> stops -> destination. */
export function plannedLengthM(s: PlannedPathInput): number {
  const path = plannedPath(s);
  return routeLengthM(path.length >= 2 ? path : straightPath(s));
}

const NONE: Progress = { progress: null, remainingM: null, eta: null };
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** Length of a polyline in metres. */
export function routeLengthM(route: [number, number][]): number {
  let sum = 0;
  for (let i = 1; i < route.length; i++) sum += distanceM(route[i - 1]![0], route[i - 1]![1], route[i]![0], route[i]![1]);
  return sum;
}

/**
 * The point's distance along the route to its nearest point on the route (locally flat per
 * segment, as the alarm rules measure the distance to a route).
 */
export function alongRouteM(lat: number, lon: number, route: [number, number][]): number {
  const kx = Math.cos((lat * Math.PI) / 180) * (Math.PI / 180) * 6_371_008.8;
  const ky = (Math.PI / 180) * 6_371_008.8;
  let best = Infinity;
  let along = 0;
  let before = 0;
  for (let i = 1; i < route.length; i++) {
    const [aLat, aLon] = route[i - 1]!;
    const [bLat, bLon] = route[i]!;
    const ax = (aLon - lon) * kx;
    const ay = (aLat - lat) * ky;
    const dx = (bLon - aLon) * kx;
    const dy = (bLat - aLat) * ky;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : clamp01(-(ax * dx + ay * dy) / len2);
    const d = Math.hypot(ax + t * dx, ay + t * dy);
    const segment = distanceM(aLat, aLon, bLat, bLon);
    if (d < best) {
      best = d;
      along = before + t * segment;
    }
    before += segment;
  }
  return along;
}

export function liveProgress(i: ProgressInput): Progress {
  if (i.status === 'arrived') return { progress: 1, remainingM: 0, eta: null };
  if (i.status !== 'in_transit' || !i.position) return NONE;
  const { lat, lon } = i.position;
  let progress: number;
  let remainingM: number;
  let doneM: number;
  // Without a route, stops make the straight way a polyline through them.
  const routed = plannedPath(i);
  const path = routed.length >= 2 ? routed : i.stops?.length ? straightPath(i) : [];
  if (path.length >= 2) {
    const total = routeLengthM(path);
    const along = Math.min(total, alongRouteM(lat, lon, path));
    remainingM = total - along;
    doneM = along;
    progress = total > 0 ? clamp01(along / total) : 1;
  } else {
    const total = distanceM(i.origin.lat, i.origin.lon, i.destination.lat, i.destination.lon);
    remainingM = distanceM(lat, lon, i.destination.lat, i.destination.lon);
    doneM = Math.max(0, total - remainingM);
    progress = total > 0 ? clamp01(1 - remainingM / total) : 1;
  }
  return { progress, remainingM, eta: etaOf(i, doneM, remainingM) };
}

/** now + remaining / speed: the average since the start when it means something, else the planned one. */
function etaOf(i: ProgressInput, doneM: number, remainingM: number): number | null {
  let speed: number | null = null;
  const elapsed = i.startedAt !== null ? i.now - i.startedAt : 0;
  if (elapsed >= ETA_MIN_ELAPSED_MS && doneM >= ETA_MIN_DONE_M) speed = doneM / elapsed;
  else if (i.plannedStart !== null && i.plannedArrival !== null && i.plannedArrival > i.plannedStart && i.plannedDistanceM > 0) {
    speed = i.plannedDistanceM / (i.plannedArrival - i.plannedStart);
  }
  // metres per millisecond
  if (speed === null || !(speed > 0)) return null;
  return Math.round(i.now + remainingM / speed);
}

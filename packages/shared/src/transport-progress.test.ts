// Live progress of a transport task: along a route (projection onto the polyline, a position off
// the route, before its start and past its end), straight without a route, the arrival estimate
// from the average speed since the start or from the plan, and the statuses that have none. The
// planned path (origin, the drawn points, destination) and its length.
import { describe, expect, it } from 'vitest';
import { distanceM } from './alarm-rules.ts';
import { alongRouteM, liveProgress, plannedLengthM, plannedPath, routeLengthM, type ProgressInput } from './transport-progress.ts';

const origin = { lat: 31.0, lon: 121.0 };
const destination = { lat: 31.0, lon: 121.2 };
const straight = distanceM(origin.lat, origin.lon, destination.lat, destination.lon);
// An L-shaped route: east 0.1°, north 0.1°, then east 0.1° (longer than the straight line).
const route: [number, number][] = [
  [31.0, 121.0],
  [31.0, 121.1],
  [31.1, 121.1],
  [31.1, 121.2],
];
/** Where the L route ends: as a destination, the route's planned path is the route itself. */
const routeEnd = { lat: 31.1, lon: 121.2 };
const NOW = Date.parse('2026-03-01T10:00:00Z');
const H = 3_600_000;

const input = (over: Partial<ProgressInput>): ProgressInput => ({
  status: 'in_transit',
  position: origin,
  origin,
  destination,
  route: [],
  plannedDistanceM: straight,
  plannedStart: null,
  plannedArrival: null,
  startedAt: null,
  now: NOW,
  ...over,
});

describe('route geometry', () => {
  it('measures a route as the sum of its legs', () => {
    const legs = distanceM(31, 121, 31, 121.1) + distanceM(31, 121.1, 31.1, 121.1) + distanceM(31.1, 121.1, 31.1, 121.2);
    expect(routeLengthM(route)).toBeCloseTo(legs, 6);
    expect(routeLengthM([])).toBe(0);
  });

  it('projects a point onto the nearest leg', () => {
    const first = distanceM(31, 121, 31, 121.1);
    // Half way up the second leg, 200 m east of it.
    const along = alongRouteM(31.05, 121.1 + 200 / (111_320 * Math.cos((31.05 * Math.PI) / 180)), route);
    expect(along).toBeGreaterThan(first + distanceM(31, 121.1, 31.05, 121.1) - 30);
    expect(along).toBeLessThan(first + distanceM(31, 121.1, 31.05, 121.1) + 30);
    // Before the start of the route: 0; past its end: the whole length.
    expect(alongRouteM(31.0, 120.9, route)).toBe(0);
    expect(alongRouteM(31.1, 121.3, route)).toBeCloseTo(routeLengthM(route), 3);
  });
});

describe('plannedPath', () => {
  // Issue 22: points clicked at 121.24, 121.26, 121.28 between an origin at 121.22 and a destination at 121.30.
  const from = { lat: 31.03, lon: 121.22 };
  const to = { lat: 31.03, lon: 121.3 };
  const drawn: [number, number][] = [
    [31.03, 121.24],
    [31.03, 121.26],
    [31.03, 121.28],
  ];

  it('runs from the origin through the route points to the destination', () => {
    expect(plannedPath({ origin: from, destination: to, route: drawn })).toEqual([[31.03, 121.22], ...drawn, [31.03, 121.3]]);
    // The whole way (about 7.6 km), not the 3.8 km between the drawn points.
    expect(plannedLengthM({ origin: from, destination: to, route: drawn })).toBeCloseTo(distanceM(31.03, 121.22, 31.03, 121.3), 3);
    expect(routeLengthM(drawn)).toBeLessThan(4_000);
  });

  it('leaves out a point repeating the one before it (a route that already starts or ends at a place)', () => {
    expect(plannedPath({ origin, destination: routeEnd, route })).toEqual(route);
    expect(plannedPath({ origin: from, destination: to, route: [[31.03, 121.22], [31.03, 121.25], [31.03, 121.25]] })).toEqual([
      [31.03, 121.22],
      [31.03, 121.25],
      [31.03, 121.3],
    ]);
  });

  it('is empty without route points, and the length is then the straight distance', () => {
    expect(plannedPath({ origin: from, destination: to, route: [] })).toEqual([]);
    expect(plannedLengthM({ origin, destination, route: [] })).toBeCloseTo(straight, 6);
  });

  it('without a route runs straight through the stops in order: the length, and the progress along them', () => {
    const stop = { lat: 31.06, lon: 121.26 };
    const viaStop = distanceM(from.lat, from.lon, stop.lat, stop.lon) + distanceM(stop.lat, stop.lon, to.lat, to.lon);
    expect(plannedLengthM({ origin: from, destination: to, route: [], stops: [stop] })).toBeCloseTo(viaStop, 6);
    // A route (a road route passes the stops) is measured as it is.
    expect(plannedLengthM({ origin: from, destination: to, route: drawn, stops: [stop] })).toBeCloseTo(distanceM(31.03, 121.22, 31.03, 121.3), 3);
    // At the stop: half-way along origin -> stop -> destination (both legs are equal), the rest still to go.
    const p = liveProgress(input({ origin: from, destination: to, route: [], stops: [stop], plannedDistanceM: viaStop, position: stop }));
    expect(p.progress).toBeCloseTo(0.5, 2);
    expect(p.remainingM).toBeCloseTo(distanceM(stop.lat, stop.lon, to.lat, to.lon), -1);
  });

  it('is what progress follows: past the last drawn point the way is not done', () => {
    const base = { origin: from, destination: to, route: drawn, plannedDistanceM: plannedLengthM({ origin: from, destination: to, route: drawn }) };
    const p = liveProgress(input({ ...base, position: { lat: 31.03, lon: 121.284 }, plannedStart: NOW, plannedArrival: NOW + H }));
    expect(p.progress).toBeLessThan(1);
    expect(p.remainingM).toBeCloseTo(distanceM(31.03, 121.284, 31.03, 121.3), -1);
    expect(p.eta).toBeGreaterThan(NOW);
    // Before the first drawn point: measured from the origin.
    expect(liveProgress(input({ ...base, position: { lat: 31.03, lon: 121.23 } })).progress).toBeCloseTo(1 / 8, 2);
  });
});

describe('liveProgress', () => {
  it('follows the route when there is one', () => {
    const total = routeLengthM(route);
    const first = distanceM(31, 121, 31, 121.1);
    const p = liveProgress(input({ route, destination: routeEnd, plannedDistanceM: total, position: { lat: 31.0, lon: 121.1 } }));
    expect(p.progress).toBeCloseTo(first / total, 3);
    expect(p.remainingM).toBeCloseTo(total - first, 0);
    // The straight measure would say half way; along the L it is a third.
    expect(p.progress).toBeLessThan(0.4);
  });

  it('goes straight without a route and clamps to 0..1', () => {
    const half = liveProgress(input({ position: { lat: 31.0, lon: 121.1 } }));
    expect(half.progress).toBeCloseTo(0.5, 2);
    expect(half.remainingM).toBeCloseTo(straight / 2, -1);
    // Farther from the destination than the origin is: no negative progress.
    expect(liveProgress(input({ position: { lat: 31.0, lon: 120.8 } })).progress).toBe(0);
    expect(liveProgress(input({ position: destination })).progress).toBe(1);
    expect(liveProgress(input({ position: destination })).remainingM).toBe(0);
  });

  it('estimates the arrival from the average speed since the start', () => {
    // Half the way (about 9.5 km) in one hour: another hour to go.
    const p = liveProgress(input({ position: { lat: 31.0, lon: 121.1 }, startedAt: NOW - H, plannedStart: NOW - H, plannedArrival: NOW + 10 * H }));
    expect(p.eta).not.toBeNull();
    expect(Math.abs(p.eta! - (NOW + H))).toBeLessThan(60_000);
  });

  it('uses the planned average speed while the real one means little', () => {
    // Started 2 minutes ago: too soon; planned 4 hours for the whole way, half of it left.
    const p = liveProgress(input({ position: { lat: 31.0, lon: 121.1 }, startedAt: NOW - 120_000, plannedStart: NOW, plannedArrival: NOW + 4 * H }));
    expect(Math.abs(p.eta! - (NOW + 2 * H))).toBeLessThan(60_000);
    // Less than 1 km done in an hour: also the plan.
    const slow = liveProgress(input({ position: { lat: 31.0, lon: 121.005 }, startedAt: NOW - H, plannedStart: NOW, plannedArrival: NOW + 4 * H }));
    expect(slow.eta! - NOW).toBeGreaterThan(3.5 * H);
  });

  it('has no estimate without a speed', () => {
    const p = liveProgress(input({ position: { lat: 31.0, lon: 121.1 } }));
    expect(p.progress).not.toBeNull();
    expect(p.eta).toBeNull();
  });

  it('is complete once arrived and unknown in other statuses or without a position', () => {
    expect(liveProgress(input({ status: 'arrived', position: origin }))).toEqual({ progress: 1, remainingM: 0, eta: null });
    for (const status of ['pending', 'completed', 'cancelled'] as const) {
      expect(liveProgress(input({ status }))).toEqual({ progress: null, remainingM: null, eta: null });
    }
    expect(liveProgress(input({ position: null }))).toEqual({ progress: null, remainingM: null, eta: null });
  });
});

// Trip and stop detection on recorded-style tracks built here from a seeded generator: a city
// delivery day with parked GPS noise, 50 km jumps and a red light; data gaps while driving and while
// parked; LBS stretches; crawling and creeping; the 200 m and 180 s boundaries; wrong first fixes and
// clusters of wrong fixes; input checks; invariants over random days (fast-check); and the
// transport-task start and end.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { distanceM } from './alarm-rules.ts';
import {
  detectTrips,
  taskProgress,
  toTrack,
  TRIP_DEFAULTS,
  tripOptionsSchema,
  type Stop,
  type Track,
  type TrackPoint,
  type Trip,
  type TripsResult,
} from './trips.ts';

/** Monday 2026-11-23 00:00 UTC. */
const T0 = Date.parse('2026-11-23T00:00:00Z');
const M_PER_DEG = (6_371_008.8 * Math.PI) / 180;

interface LatLon {
  lat: number;
  lon: number;
}
const DEPOT: LatLon = { lat: 31.2304, lon: 121.4737 };
/** The point `northM` and `eastM` metres from p. */
const offset = (p: LatLon, northM: number, eastM: number): LatLon => ({
  lat: p.lat + northM / M_PER_DEG,
  lon: p.lon + eastM / (M_PER_DEG * Math.cos((p.lat * Math.PI) / 180)),
});
const dist = (a: LatLon, b: LatLon) => distanceM(a.lat, a.lon, b.lat, b.lon);

/** mulberry32: the same tracks on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

interface SegmentOpts {
  /** Seconds between fixes. */
  every?: number;
  /** GPS error, metres either way on each axis. */
  noiseM?: number;
  /** Cell-tower positions (0.5 to 3 km off) instead of GPS. */
  lbs?: boolean;
  /** No reports at all: a data gap. */
  silent?: boolean;
}

/**
 * A device's history as it would be recorded: it parks and drives along polylines at a steady
 * speed, reporting every `every` seconds; each segment ends with a fix at its last instant, so a
 * stop's true start and end are fixes. Times are exact: `at` is the device's clock.
 */
class TrackBuilder {
  readonly t: number[] = [];
  readonly lat: number[] = [];
  readonly lon: number[] = [];
  readonly lbs: boolean[] = [];
  readonly speed: number[] = [];
  readonly random: () => number;
  at: number;
  pos: LatLon;

  constructor(start: LatLon, seed = 1, opts: { initialFix?: boolean; t0?: number } = {}) {
    this.pos = start;
    this.at = opts.t0 ?? T0;
    this.random = prng(seed);
    if (opts.initialFix ?? true) this.emit(this.at, start, 0, 0, false);
  }

  get track(): Track {
    return { t: this.t, lat: this.lat, lon: this.lon, lbs: this.lbs, speed: this.speed };
  }

  get length() {
    return this.t.length;
  }

  private emit(at: number, p: LatLon, noiseM: number, kmh: number, lbs: boolean): number {
    const time = Math.max(at, this.t.at(-1) ?? at); // a drive shorter than the half sample after a jump
    let q = p;
    if (lbs) {
      const r = 500 + this.random() * 2500;
      const a = this.random() * 2 * Math.PI;
      q = offset(p, r * Math.cos(a), r * Math.sin(a));
    } else if (noiseM > 0) {
      q = offset(p, (this.random() * 2 - 1) * noiseM, (this.random() * 2 - 1) * noiseM);
    }
    this.t.push(time);
    this.lat.push(q.lat);
    this.lon.push(q.lon);
    this.lbs.push(lbs);
    this.speed.push(lbs ? NaN : kmh);
    return this.t.length - 1;
  }

  /** Stays put for `seconds`. */
  park(seconds: number, { every = 10, noiseM = 15, lbs = false, silent = false }: SegmentOpts = {}) {
    const end = this.at + seconds * 1000;
    if (!silent) {
      for (let time = this.at + every * 1000; time < end - 0.7 * every * 1000; time += every * 1000) this.emit(time, this.pos, noiseM, 0, lbs);
      this.emit(end, this.pos, noiseM, 0, lbs);
    }
    this.at = end;
    return this;
  }

  /** Drives through the waypoints at `kmh`; returns the route's length in metres. */
  drive(to: LatLon | LatLon[], kmh: number, { every = 10, noiseM = 5, lbs = false, silent = false }: SegmentOpts = {}) {
    const points = [this.pos, ...(Array.isArray(to) ? to : [to])];
    const cumulative = [0];
    for (let i = 1; i < points.length; i++) cumulative.push(cumulative[i - 1]! + dist(points[i - 1]!, points[i]!));
    const length = cumulative.at(-1)!;
    const mPerMs = kmh / 3600;
    const end = Math.round(this.at + length / mPerMs); // whole milliseconds, as recorded
    const where = (time: number): LatLon => {
      const d = (time - this.at) * mPerMs;
      let i = 1;
      while (i < points.length - 1 && cumulative[i]! < d) i++;
      const f = (d - cumulative[i - 1]!) / (cumulative[i]! - cumulative[i - 1]! || 1);
      const a = points[i - 1]!;
      const b = points[i]!;
      return { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f };
    };
    if (!silent) {
      // No fix in the last 0.7 sample before arriving: the arrival fix is the last one on the move.
      for (let time = this.at + every * 1000; time < end - 0.7 * every * 1000; time += every * 1000) this.emit(time, where(time), noiseM, kmh, lbs);
      this.emit(end, points.at(-1)!, noiseM, kmh, lbs);
    }
    this.at = end;
    this.pos = points.at(-1)!;
    return length;
  }

  /** One fix `km` away (north-east) half a sample after the last one; the device does not move. */
  jump(km = 50, every = 10): number {
    return this.emit(this.at + (every / 2) * 1000, offset(this.pos, km * 707, km * 707), 0, 0, false);
  }

  /** One fix at p, a sample after the last; the device does not move (a wrong fix, or an excursion). */
  fix(p: LatLon, every = 10): number {
    this.at += every * 1000;
    return this.emit(this.at, p, 0, 0, false);
  }
}

const seconds = (ms: number) => ms / 1000;

/** Trips and stops in time order, checking on the way that they alternate and join end to start. */
function timeline(r: TripsResult): (Trip | Stop)[] {
  const all = [...r.trips.map((x) => ({ x, trip: true })), ...r.stops.map((x) => ({ x, trip: false }))].sort((a, b) => a.x.startIndex - b.x.startIndex);
  for (let i = 1; i < all.length; i++) {
    expect(all[i]!.trip).not.toBe(all[i - 1]!.trip);
    expect(all[i]!.x.startIndex).toBe(all[i - 1]!.x.endIndex);
  }
  return all.map((a) => a.x);
}

// ---- a city delivery day

describe('a city delivery day: depot, three drops, depot', () => {
  const b = new TrackBuilder(DEPOT, 7);
  const A = offset(DEPOT, 2500, 3000);
  const B = offset(DEPOT, 4000, -1500);
  const C = offset(DEPOT, -2000, -3500);
  const light = offset(A, 1500, -2000);
  const jumps: number[] = [];
  const legs: number[] = [];
  const parks = [3600, 1200, 900, 1800, 3600];
  const arrivals: number[] = [];
  const departures: number[] = [];

  b.park(1800);
  jumps.push(b.jump(50)); // parked at the depot
  b.park(parks[0]! - 1800);
  departures.push(b.at);
  legs.push(b.drive([offset(DEPOT, 0, 3000), A], 40));
  arrivals.push(b.at);
  b.park(parks[1]!);
  departures.push(b.at);
  let leg = b.drive(light, 40);
  b.park(60, { noiseM: 5 }); // a red light
  leg += b.drive([offset(A, 1500, -4500), B], 40);
  legs.push(leg);
  arrivals.push(b.at);
  b.park(parks[2]!);
  departures.push(b.at);
  leg = b.drive(offset(B, -3000, -2000), 45);
  jumps.push(b.jump(50)); // on the road
  leg += b.drive(C, 45);
  legs.push(leg);
  arrivals.push(b.at);
  b.park(parks[3]!);
  departures.push(b.at);
  legs.push(b.drive([offset(C, 2000, 0), DEPOT], 50));
  arrivals.push(b.at);
  b.park(parks[4]!);

  const r = detectTrips(b.track);

  it('finds the five stops and four trips, alternating', () => {
    expect(r.stops).toHaveLength(5);
    expect(r.trips).toHaveLength(4);
    const items = timeline(r);
    expect(items[0]).toBe(r.stops[0]);
    expect(items.at(-1)).toBe(r.stops[4]);
    expect(r.stops[4]!.open).toBe(true);
    expect(r.trips.every((t) => !t.open)).toBe(true);
  });

  it('drops the two 50 km jumps, and only them, without splitting a stop or a trip', () => {
    expect(r.ignored).toEqual(jumps);
  });

  it('places each stop within 10 m of where the van stood, for exactly as long as it stood there', () => {
    const places = [DEPOT, A, B, C, DEPOT];
    r.stops.forEach((s, i) => {
      expect(dist(s, places[i]!)).toBeLessThan(10);
      expect(s.durationS).toBe(parks[i]!);
    });
    expect(r.stops[0]!.startT).toBe(T0);
    r.stops.slice(1).forEach((s, i) => expect(s.startT).toBe(arrivals[i]!));
  });

  it('measures each trip within 2 % of its route, timed exactly from departure to arrival', () => {
    r.trips.forEach((t, i) => {
      expect(Math.abs(t.distanceM - legs[i]!) / legs[i]!).toBeLessThan(0.02);
      expect(t.startT).toBe(departures[i]!);
      expect(t.endT).toBe(arrivals[i]!);
      expect(t.gaps).toBe(0);
      expect(t.lbsPoints).toBe(0);
    });
  });

  it('keeps the 60 s red light inside the trip, and out of its moving time', () => {
    const t = r.trips[1]!;
    expect(t.movingS).toBe(t.durationS - 60);
    expect(r.trips[0]!.movingS).toBe(r.trips[0]!.durationS);
    expect(t.avgSpeedKmh).toBeGreaterThan(40 * 0.98);
    expect(t.avgSpeedKmh).toBeLessThan(40 * 1.02);
    expect(t.maxSpeedKmh).toBe(40);
  });

  it('takes the maximum speed from the fixes when the device reports none', () => {
    const noSpeed = detectTrips({ ...b.track, speed: undefined });
    expect(noSpeed.trips[3]!.maxSpeedKmh).toBeGreaterThan(50);
    expect(noSpeed.trips[3]!.maxSpeedKmh).toBeLessThan(65);
    expect(noSpeed.trips.map((t) => t.distanceM)).toEqual(r.trips.map((t) => t.distanceM));
  });

  it('adds up: trips and stops cover the day exactly', () => {
    const total = [...r.trips, ...r.stops].reduce((s, x) => s + x.durationS, 0);
    expect(total).toBe(seconds(b.at - T0));
  });
});

// ---- data gaps and LBS

describe('data gaps', () => {
  it('a 30-minute gap while driving is one trip that spans it, marked with one gap', () => {
    const b = new TrackBuilder(DEPOT, 11);
    b.park(1200);
    let route = b.drive(offset(DEPOT, 0, 10_000), 50);
    route += b.drive(offset(DEPOT, 0, 35_000), 50, { silent: true }); // 30 minutes without a report
    route += b.drive(offset(DEPOT, 5000, 35_000), 50);
    b.park(1200);
    const r = detectTrips(b.track);
    expect(r.trips).toHaveLength(1);
    expect(r.stops).toHaveLength(2);
    const t = r.trips[0]!;
    expect(t.gaps).toBe(1);
    expect(Math.abs(t.distanceM - route) / route).toBeLessThan(0.02);
    expect(t.durationS).toBeCloseTo((route / 50) * 3.6, 1);
  });

  it('a 30-minute gap while parked is part of the stop', () => {
    const b = new TrackBuilder(DEPOT, 12);
    b.park(3600).park(1800, { silent: true }).park(3600);
    b.drive(offset(DEPOT, 3000, 0), 40);
    const r = detectTrips(b.track);
    expect(r.stops).toHaveLength(1);
    expect(r.stops[0]!.durationS).toBe(9000);
    expect(r.trips).toHaveLength(1);
    expect(r.trips[0]!.gaps).toBe(0);
    expect(r.trips[0]!.open).toBe(true);
  });

  it('a tracker that sleeps while parked (a report an hour) still stops once', () => {
    const b = new TrackBuilder(DEPOT, 13);
    b.park(600);
    b.drive(offset(DEPOT, 0, 4000), 40);
    const arrived = b.at;
    b.park(4 * 3600, { every: 3600 });
    b.drive(offset(DEPOT, 0, 8000), 40);
    const r = detectTrips(b.track);
    expect(r.stops).toHaveLength(2);
    expect(r.stops[1]!.startT).toBe(arrived);
    expect(r.stops[1]!.durationS).toBe(4 * 3600);
  });

  it('a gap that begins in a stop and ends on the road: the stop ends at its last fix, the trip spans the gap', () => {
    const b = new TrackBuilder(DEPOT, 14);
    b.park(1800);
    const left = b.at;
    b.drive(offset(DEPOT, 20_000, 0), 40, { silent: true });
    b.drive(offset(DEPOT, 30_000, 0), 40);
    b.park(600);
    const r = detectTrips(b.track);
    expect(r.stops.map((s) => s.durationS)).toEqual([1800, 600]);
    expect(r.trips).toHaveLength(1);
    expect(r.trips[0]!.startT).toBe(left);
    expect(r.trips[0]!.gaps).toBe(1);
    expect(Math.abs(r.trips[0]!.distanceM - 30_000) / 30_000).toBeLessThan(0.02);
  });
});

describe('LBS positions', () => {
  it('an LBS-only stretch while driving keeps the trip whole, counts its points and no distance of its own', () => {
    const b = new TrackBuilder(DEPOT, 21);
    b.park(900);
    const n0 = b.length;
    let route = b.drive(offset(DEPOT, 0, 5000), 60);
    const lbsFrom = b.length;
    route += b.drive(offset(DEPOT, 0, 15_000), 60, { lbs: true });
    const lbsCount = b.length - lbsFrom;
    route += b.drive(offset(DEPOT, 0, 20_000), 60);
    b.park(900);
    const r = detectTrips(b.track);
    expect(r.trips).toHaveLength(1);
    expect(r.stops).toHaveLength(2);
    const t = r.trips[0]!;
    expect(t.lbsPoints).toBe(lbsCount);
    expect(t.gaps).toBe(0);
    // Straight across the LBS stretch, which is straight here: the LBS positions (kilometres off) add nothing.
    expect(Math.abs(t.distanceM - route) / route).toBeLessThan(0.02);
    expect(t.startIndex).toBe(n0 - 1);
    expect(r.ignored).toEqual([]);
  });

  it('an LBS-only stretch while parked between GPS fixes at the same place is part of the stop', () => {
    const b = new TrackBuilder(DEPOT, 22);
    b.park(600);
    b.drive(offset(DEPOT, 0, 4000), 40);
    b.park(60);
    b.park(1800, { lbs: true });
    b.drive(offset(DEPOT, 0, 8000), 40);
    const r = detectTrips(b.track);
    expect(r.stops).toHaveLength(2);
    // From the arrival to the first GPS fix after the LBS stretch: nothing shows the van left earlier.
    expect(r.stops[1]!.durationS).toBe(1870);
    expect(r.trips).toHaveLength(2);
  });

  it('LBS positions never start or end a trip or a stop, and a history of LBS only has neither', () => {
    const b = new TrackBuilder(DEPOT, 23, { initialFix: false });
    b.park(3600, { lbs: true });
    b.drive(offset(DEPOT, 0, 30_000), 60, { lbs: true });
    b.park(3600, { lbs: true });
    expect(detectTrips(b.track)).toEqual({ trips: [], stops: [], ignored: [] });

    const c = new TrackBuilder(DEPOT, 24);
    c.park(600);
    c.park(600, { lbs: true });
    c.drive(offset(DEPOT, 0, 3000), 40, { lbs: true });
    c.drive(offset(DEPOT, 0, 6000), 40);
    c.park(300, { lbs: true });
    c.park(300);
    const r = detectTrips(c.track);
    for (const x of [...r.trips, ...r.stops]) {
      expect(c.lbs[x.startIndex]).toBe(false);
      expect(c.lbs[x.endIndex]).toBe(false);
    }
    expect(r.stops).toHaveLength(2);
    expect(r.trips).toHaveLength(1);
  });
});

// ---- halts, crawls and the thresholds

describe('halts, crawls and the 200 m and 180 s thresholds', () => {
  /** Drives 2 km, stands for `restS`, drives 2 km further, with the stops at both ends. */
  const withHalt = (restS: number, seed = 31) => {
    const b = new TrackBuilder(DEPOT, seed);
    b.park(600);
    b.drive(offset(DEPOT, 0, 2000), 40);
    const arrived = b.at;
    b.park(restS);
    b.drive(offset(DEPOT, 0, 4000), 40);
    b.park(600);
    return { r: detectTrips(b.track), arrived };
  };

  it('standing exactly 180 s is a stop of 180 s, from the arrival', () => {
    const { r, arrived } = withHalt(180);
    expect(r.stops).toHaveLength(3);
    expect(r.stops[1]!.durationS).toBe(180);
    expect(r.stops[1]!.startT).toBe(arrived);
  });

  it('standing 170 s is not, even though the approach and departure inside 200 m make it more than 180 s there', () => {
    const { r } = withHalt(170);
    expect(r.stops).toHaveLength(2);
    expect(r.trips).toHaveLength(1);
    expect(r.trips[0]!.movingS).toBe(r.trips[0]!.durationS - 170);
  });

  it('a 60 s red light is no stop; a 240 s wait is', () => {
    expect(withHalt(60).r.stops).toHaveLength(2);
    expect(withHalt(240).r.stops.map((s) => s.durationS)).toEqual([600, 240, 600]);
  });

  /** Parked 10 min, one fix `m` metres north, parked 10 min again, all without noise. */
  const excursion = (m: number) => {
    const b = new TrackBuilder(DEPOT, 32);
    b.park(600, { noiseM: 0 });
    b.fix(offset(DEPOT, m, 0));
    b.park(600, { noiseM: 0 });
    return b.track;
  };

  it('a fix 199.5 m away is inside the stop radius; 200.5 m is out of it, a trip of 401 m', () => {
    expect(detectTrips(excursion(199.5), { minTripDistanceM: 0 }).stops).toHaveLength(1);
    const out = detectTrips(excursion(200.5), { minTripDistanceM: 0 });
    expect(out.stops).toHaveLength(2);
    expect(out.trips).toHaveLength(1);
    expect(out.trips[0]!.distanceM).toBeCloseTo(401, 0);
  });

  it('by default that 401 m movement is shorter than a trip and joins the stops around it', () => {
    const r = detectTrips(excursion(200.5));
    expect(r.trips).toEqual([]);
    expect(r.stops).toHaveLength(1);
    expect(r.stops[0]!.durationS).toBe(1210);
    // Where it stood, not pulled towards the excursion.
    expect(dist(r.stops[0]!, DEPOT)).toBeLessThan(0.01);
  });

  it('re-parking 300 m across the yard is not a trip', () => {
    const b = new TrackBuilder(DEPOT, 33);
    b.park(1800);
    b.drive(offset(DEPOT, 300, 0), 10);
    b.park(1800);
    b.drive(offset(DEPOT, 5000, 0), 40);
    const r = detectTrips(b.track);
    expect(r.stops).toHaveLength(1);
    expect(r.trips).toHaveLength(1);
    expect(r.stops[0]!.durationS).toBe(1800 + 108 + 1800);
  });

  it('shunting about the yard for 7 minutes, never at rest but inside the radius, is a stop', () => {
    const b = new TrackBuilder(DEPOT, 36);
    b.park(600);
    b.drive(offset(DEPOT, 0, 3000), 40);
    const yard = b.pos;
    const arrived = b.at;
    const lap = Array.from({ length: 13 }, (_, i) => offset(yard, 60 * Math.sin((i * Math.PI) / 6), 60 * (Math.cos((i * Math.PI) / 6) - 1)));
    for (let i = 0; i < 3; i++) b.drive(lap.slice(1), 10); // three laps of a 60 m circle: 136 s each
    const left = b.at;
    b.drive(offset(DEPOT, 0, 6000), 40);
    b.park(600);
    const r = detectTrips(b.track);
    expect(r.stops).toHaveLength(3);
    expect(r.trips).toHaveLength(2);
    // The whole of it, up to the first fix outside the radius on the way out.
    expect(r.stops[1]!.startT).toBeLessThanOrEqual(arrived);
    expect(r.stops[1]!.endT).toBeGreaterThanOrEqual(left);
    expect(r.stops[1]!.durationS).toBeLessThan(seconds(left - arrived) + 40);
  });

  it('a slow crawl at 8 km/h (a queue at the port gate) stays one trip', () => {
    const b = new TrackBuilder(DEPOT, 34);
    b.park(600);
    let route = b.drive(offset(DEPOT, 0, 2000), 40);
    route += b.drive(offset(DEPOT, 0, 3200), 8);
    route += b.drive(offset(DEPOT, 0, 5200), 40);
    b.park(600);
    const r = detectTrips(b.track);
    expect(r.stops).toHaveLength(2);
    expect(r.trips).toHaveLength(1);
    expect(Math.abs(r.trips[0]!.distanceM - route) / route).toBeLessThan(0.02);
    expect(r.trips[0]!.movingS).toBe(r.trips[0]!.durationS);
  });

  it('creeping at 2 km/h, slower than 200 m in 180 s, is staying: one stop', () => {
    const b = new TrackBuilder(DEPOT, 35);
    b.park(600);
    b.drive(offset(DEPOT, 0, 2000), 40);
    b.drive(offset(DEPOT, 0, 2000 + 2000 / 3), 2); // 20 minutes
    b.drive(offset(DEPOT, 0, 5000), 40);
    b.park(600);
    const r = detectTrips(b.track);
    expect(r.stops).toHaveLength(3);
    // Its stays cover the creep up to the last one: the creep's last 200 m or less may go to the trip after it.
    expect(r.stops[1]!.durationS).toBeGreaterThan(1200 - 360);
    expect(r.stops[1]!.durationS).toBeLessThanOrEqual(1200);
    expect(r.trips).toHaveLength(2);
  });
});

// ---- jumps

describe('GPS jumps', () => {
  it('a wrong first fix (a cold start) is dropped, not believed', () => {
    const b = new TrackBuilder(DEPOT, 41, { initialFix: false });
    b.jump(50);
    b.park(900);
    b.drive(offset(DEPOT, 0, 3000), 40);
    b.park(900);
    const r = detectTrips(b.track);
    expect(r.ignored).toEqual([0]);
    expect(r.stops).toHaveLength(2);
    expect(r.stops[0]!.startIndex).toBe(1);
    expect(dist(r.stops[0]!, DEPOT)).toBeLessThan(10);
    expect(Math.abs(r.trips[0]!.distanceM - 3000)).toBeLessThan(60);
  });

  it('two agreeing wrong fixes on the road are dropped', () => {
    const b = new TrackBuilder(DEPOT, 42);
    b.park(600);
    b.drive(offset(DEPOT, 0, 3000), 40);
    const j = [b.jump(30), b.jump(30)];
    b.drive(offset(DEPOT, 0, 6000), 40);
    b.park(600);
    const r = detectTrips(b.track);
    expect(r.ignored).toEqual(j);
    expect(r.trips).toHaveLength(1);
    expect(Math.abs(r.trips[0]!.distanceM - 6000) / 6000).toBeLessThan(0.02);
  });

  it('a cluster of jumpConfirmPoints wrong fixes while parked is dropped once the fixes come back', () => {
    const b = new TrackBuilder(DEPOT, 43);
    b.park(600);
    const far = offset(DEPOT, 40_000, 0);
    const j = [b.fix(far), b.fix(far), b.fix(far)];
    b.park(600);
    const r = detectTrips(b.track);
    expect(r.ignored).toEqual(j);
    expect(r.stops).toHaveLength(1);
    expect(r.trips).toEqual([]);
  });

  it('a longer cluster is believed as a move without distance; the stop around it stays one, in its place', () => {
    const b = new TrackBuilder(DEPOT, 44);
    b.park(600);
    const far = offset(DEPOT, 40_000, 0);
    for (let i = 0; i < 5; i++) b.fix(far);
    b.park(600);
    const r = detectTrips(b.track);
    expect(r.ignored).toEqual([]);
    expect(r.trips).toEqual([]);
    expect(r.stops).toHaveLength(1);
    expect(dist(r.stops[0]!, DEPOT)).toBeLessThan(10);
  });

  it('a faster threshold lets a real fast move through', () => {
    const b = new TrackBuilder(DEPOT, 45);
    b.park(600);
    b.drive(offset(DEPOT, 0, 30_000), 300, { every: 60 }); // a high-speed train
    b.park(600);
    expect(detectTrips(b.track).ignored.length).toBeGreaterThan(0);
    const r = detectTrips(b.track, { maxSpeedKmh: 350 });
    expect(r.ignored).toEqual([]);
    expect(r.trips).toHaveLength(1);
    expect(Math.abs(r.trips[0]!.distanceM - 30_000) / 30_000).toBeLessThan(0.02);
  });
});

// ---- input

describe('input', () => {
  it('empty and one-point histories have no trips and no stops', () => {
    expect(detectTrips({ t: [], lat: [], lon: [] })).toEqual({ trips: [], stops: [], ignored: [] });
    expect(detectTrips({ t: [T0], lat: [DEPOT.lat], lon: [DEPOT.lon] })).toEqual({ trips: [], stops: [], ignored: [] });
  });

  it('rejects a history out of time order (the query sorts; sorting here would hide a broken one), and allows equal times', () => {
    const track = { t: [T0, T0 + 10_000, T0 + 5000], lat: [31, 31, 31], lon: [121, 121, 121] };
    expect(() => detectTrips(track)).toThrow(RangeError);
    expect(() => detectTrips(track)).toThrow(/index 2/);
    expect(() => detectTrips({ t: [T0, T0, T0 + 10_000], lat: [31, 31, 31], lon: [121, 121, 121] })).not.toThrow();
    expect(() => detectTrips({ t: [T0, NaN], lat: [31, 31], lon: [121, 121] })).toThrow(RangeError);
  });

  it('rejects columns of different lengths', () => {
    expect(() => detectTrips({ t: [T0, T0 + 1], lat: [31], lon: [121, 121] })).toThrow(RangeError);
  });

  it('ignores fixes without coordinates', () => {
    const b = new TrackBuilder(DEPOT, 51);
    b.park(600);
    b.lat[3] = NaN;
    const r = detectTrips(b.track);
    expect(r.ignored).toEqual([3]);
    expect(r.stops).toHaveLength(1);
  });

  it('reads reports as objects the same as columns, typed or not', () => {
    const b = new TrackBuilder(DEPOT, 52);
    b.park(600);
    b.drive(offset(DEPOT, 0, 3000), 40, { lbs: true });
    b.drive(offset(DEPOT, 0, 6000), 40);
    b.park(600);
    const points: TrackPoint[] = b.t.map((t, i) => ({ t, lat: b.lat[i]!, lon: b.lon[i]!, positioning: b.lbs[i] ? 'LBS' : 'GPS', speed: b.speed[i] }));
    const fromObjects = detectTrips(toTrack(points));
    expect(fromObjects).toEqual(detectTrips(b.track));
    expect(fromObjects.trips[0]!.lbsPoints).toBeGreaterThan(0);
    const typed = { t: Float64Array.from(b.t), lat: Float64Array.from(b.lat), lon: Float64Array.from(b.lon), lbs: Uint8Array.from(b.lbs, Number), speed: Float64Array.from(b.speed) };
    expect(detectTrips(typed)).toEqual(fromObjects);
  });

  it('keeps its defaults in the settings schema: 200 m and 180 s', () => {
    expect(tripOptionsSchema.parse({})).toEqual(TRIP_DEFAULTS);
    expect(TRIP_DEFAULTS).toMatchObject({ stopRadiusM: 200, stopMinS: 180 });
    expect(tripOptionsSchema.safeParse({ stopRadiusM: -1 }).success).toBe(false);
    expect(tripOptionsSchema.safeParse({ jumpConfirmPoints: 1 }).success).toBe(false);
  });
});

// ---- invariants over random days

type Action =
  | { kind: 'park'; s: number; silent: boolean; lbs: boolean }
  | { kind: 'drive'; km: number; bearing: number; kmh: number; silent: boolean; lbs: boolean }
  | { kind: 'jump' };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('park' as const), s: fc.integer({ min: 20, max: 7200 }), silent: fc.boolean(), lbs: fc.boolean() }),
  fc.record({
    kind: fc.constant('drive' as const),
    km: fc.double({ min: 0.05, max: 30, noNaN: true }),
    bearing: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    kmh: fc.integer({ min: 2, max: 110 }),
    silent: fc.boolean(),
    lbs: fc.boolean(),
  }),
  fc.constant({ kind: 'jump' as const }),
);

function build(actions: Action[], seed: number) {
  const b = new TrackBuilder(DEPOT, seed);
  const jumps: number[] = [];
  for (const a of actions) {
    if (a.kind === 'park') b.park(a.s, { silent: a.silent && a.s > 600, lbs: a.lbs && a.s > 600 });
    else if (a.kind === 'drive') b.drive(offset(b.pos, a.km * 1000 * Math.cos(a.bearing), a.km * 1000 * Math.sin(a.bearing)), a.kmh, { silent: a.silent && a.km > 5, lbs: a.lbs && a.km > 5 });
    // A lone jump right after a GPS fix: agreeing ones in a row may be believed, and one long after
    // the last fix (after a gap) may be plausible until the fixes after it show otherwise.
    else if (b.t.at(-1) === b.at && !b.lbs.at(-1)) jumps.push(b.jump(50));
  }
  return { b, jumps };
}

describe('invariants (property)', () => {
  const scenario = fc.tuple(fc.array(actionArb, { minLength: 1, maxLength: 14 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }));

  it('trips and stops alternate, join end to start, cover the span, and start and end on accepted GPS fixes', () => {
    fc.assert(
      fc.property(scenario, ([actions, seed]) => {
        const { b } = build(actions, seed);
        const r = detectTrips(b.track);
        const items = timeline(r);
        if (items.length === 0) return;
        const total = items.reduce((s, x) => s + x.durationS, 0);
        expect(total).toBeCloseTo(seconds(items.at(-1)!.endT - items[0]!.startT), 3);
        const ignored = new Set(r.ignored);
        for (const x of items) {
          for (const i of [x.startIndex, x.endIndex]) {
            expect(b.lbs[i]).toBe(false);
            expect(ignored.has(i)).toBe(false);
          }
          expect(x.open).toBe(x === items.at(-1));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('every stop lasts stopMinS or longer, every trip is minTripDistanceM or longer, moving time within the trip', () => {
    fc.assert(
      fc.property(scenario, ([actions, seed]) => {
        const r = detectTrips(build(actions, seed).b.track);
        for (const s of r.stops) expect(s.durationS).toBeGreaterThanOrEqual(TRIP_DEFAULTS.stopMinS);
        for (const t of r.trips) {
          expect(t.distanceM).toBeGreaterThanOrEqual(TRIP_DEFAULTS.minTripDistanceM);
          expect(t.movingS).toBeGreaterThanOrEqual(0);
          expect(t.movingS).toBeLessThanOrEqual(t.durationS);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('drops every lone 50 km jump and lists the dropped fixes in order', () => {
    fc.assert(
      fc.property(scenario, ([actions, seed]) => {
        const { b, jumps } = build(actions, seed);
        const r = detectTrips(b.track);
        for (const j of jumps) expect(r.ignored).toContain(j);
        expect([...r.ignored].sort((x, y) => x - y)).toEqual(r.ignored);
      }),
      { numRuns: 150 },
    );
  });

  it('does not depend on the clock: shifting every time shifts the trips and stops', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: -1e12, max: 1e12 }), ([actions, seed], shift) => {
        const { b } = build(actions, seed);
        const r = detectTrips(b.track);
        const s = detectTrips({ ...b.track, t: b.t.map((t) => t + shift) });
        const shape = (x: TripsResult) => ({
          ignored: x.ignored,
          trips: x.trips.map((t) => [t.startIndex, t.endIndex, t.startT - (x === s ? shift : 0), t.durationS, t.distanceM, t.gaps, t.lbsPoints]),
          stops: x.stops.map((t) => [t.startIndex, t.endIndex, t.startT - (x === s ? shift : 0), t.durationS, t.lat, t.lon]),
        });
        expect(shape(s)).toEqual(shape(r));
      }),
      { numRuns: 60 },
    );
  });
});

// ---- transport tasks

describe('task start and end', () => {
  const origin = { ...DEPOT, radiusM: 300 };
  const CUSTOMER = offset(DEPOT, 8000, 6000);
  const destination = { ...CUSTOMER, radiusM: 300 };

  it('starts at the first fix outside the origin on the way, ends on arriving at the destination once it has stayed dwellS', () => {
    const b = new TrackBuilder(DEPOT, 61);
    b.park(3600);
    b.drive(offset(DEPOT, 150, 0), 10); // across the yard
    b.park(1200);
    const departed = b.at;
    b.drive([offset(DEPOT, 2000, 0), CUSTOMER], 40);
    const arrived = b.at;
    b.park(600);
    const track = b.track;
    const p = taskProgress(track, { origin, destination, dwellS: 600 });
    expect(p.start).not.toBeNull();
    expect(p.end).toEqual({ index: expect.any(Number), t: arrived });
    const d = distanceM(track.lat[p.start!.index]!, track.lon[p.start!.index]!, DEPOT.lat, DEPOT.lon);
    expect(d).toBeGreaterThan(300);
    // 150 m from the yard spot to the edge at 40 km/h: 13.5 s after leaving, so the second fix on the road.
    expect(p.start!.t).toBe(departed + 20_000);
  });

  it('a device parked elsewhere when the task was planned starts on its first fix under way, not where it stood', () => {
    const b = new TrackBuilder(offset(DEPOT, 0, -5000), 65);
    b.park(1800);
    const departed = b.at;
    b.drive(CUSTOMER, 50);
    b.park(900);
    const p = taskProgress(b.track, { origin, destination, dwellS: 600 });
    expect(p.start!.t).toBe(departed + 10_000);
    expect(p.end).not.toBeNull();
  });

  it('does not end on a stop at the destination shorter than dwellS, and does on a later long enough one', () => {
    const b = new TrackBuilder(DEPOT, 62);
    b.park(600);
    b.drive(CUSTOMER, 50);
    b.park(300); // waiting at the gate
    b.drive(offset(CUSTOMER, 0, 1000), 20);
    b.park(600); // at the neighbour's
    b.drive(CUSTOMER, 20);
    const arrived = b.at;
    b.park(900);
    const p = taskProgress(b.track, { origin, destination, dwellS: 600 });
    expect(p.end?.t).toBe(arrived);
    expect(taskProgress(b.track, { origin, destination, dwellS: 1800 }).end).toBeNull();
  });

  it('has not started while the device only moves about inside the origin or stands outside it', () => {
    const b = new TrackBuilder(offset(DEPOT, 0, 400), 63);
    b.park(1800); // parked just outside the origin, never moving
    b.drive(offset(DEPOT, 0, 100), 10);
    b.park(1800);
    expect(taskProgress(b.track, { origin, destination, dwellS: 600 })).toEqual({ start: null, end: null });
  });

  it('a round trip ends back at the origin only after it left', () => {
    const b = new TrackBuilder(DEPOT, 64);
    b.park(1800);
    b.drive(CUSTOMER, 50);
    b.park(900);
    b.drive(DEPOT, 50);
    const back = b.at;
    b.park(1800);
    const p = taskProgress(b.track, { origin, destination: origin, dwellS: 900 });
    expect(p.start!.t).toBeGreaterThan(T0 + 1800_000);
    expect(p.end!.t).toBe(back);
    // The trips and stops at hand give the same answer.
    expect(taskProgress(b.track, { origin, destination: origin, dwellS: 900 }, {}, detectTrips(b.track))).toEqual(p);
  });
});

// The simulated devices behave like the real ones closely enough for the console: trucks stay
// on their expressway and cover speed x time, readings stay in plausible ranges, doors open and
// close, cold rooms stay put, and every report passes the intake's own schema and decoder.
import { describe, expect, it } from 'vitest';
import { deviceReportSchema, type DeviceReport } from '@iotc/shared/device';
import { decodeExtraData, type SensorValues } from '@iotc/shared/sensors';
import { createDevice, createFleet, step, type ContainerSim, type SimDevice, type VehicleSim } from './models.ts';
import { distanceKm, type LatLon, type Polyline } from './routes.ts';

const START = Date.UTC(2026, 10, 21, 0, 0, 0);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

function run(d: SimDevice, fromMs: number, durationMs: number, stepMs: number): DeviceReport[] {
  const out: DeviceReport[] = [];
  for (let t = fromMs; t <= fromMs + durationMs; t += stepMs) out.push(step(d, t));
  return out;
}

function values(r: DeviceReport): SensorValues {
  const decoded = decodeExtraData(r.extraData);
  if (!decoded.ok) throw new Error(decoded.reason);
  return decoded.values;
}

/** Distance from a point to a polyline, km (flat-earth projection per segment: fine at 40 km). */
function offRoute(path: Polyline, p: LatLon): number {
  let best = Infinity;
  for (let i = 1; i < path.length; i++) {
    const [a, b] = [path[i - 1]!, path[i]!];
    const kx = 111.195 * Math.cos((a[0] * Math.PI) / 180);
    const ky = 111.195;
    const [bx, by] = [(b[1] - a[1]) * kx, (b[0] - a[0]) * ky];
    const [px, py] = [(p[1] - a[1]) * kx, (p[0] - a[0]) * ky];
    const f = Math.max(0, Math.min(1, (px * bx + py * by) / (bx * bx + by * by)));
    best = Math.min(best, Math.hypot(px - f * bx, py - f * by));
  }
  return best;
}

const fleet = createFleet({ count: 60, seed: 7 });
const vehicles = fleet.filter((d): d is VehicleSim => d.kind === 'vehicle');

describe('fleet', () => {
  it('mixes the kinds, is the same for the same seed, and honours a kinds restriction', () => {
    const kinds = new Set(fleet.map((d) => d.kind));
    expect(kinds).toEqual(new Set(['vehicle', 'container', 'coldroom']));
    expect(fleet[0]!.deviceId).toBe('SIM000001');
    expect(createFleet({ count: 60, seed: 7 })).toEqual(fleet);
    expect(createFleet({ count: 60, seed: 8 })).not.toEqual(fleet);
    expect(createFleet({ count: 20, seed: 7, kinds: ['coldroom'] }).every((d) => d.kind === 'coldroom')).toBe(true);
    expect(createDevice({ deviceId: 'X-1', kind: 'container' }).kind).toBe('container');
  });

  it('produces reports the intake accepts, for every kind over a day', () => {
    for (const d of fleet.slice(0, 30)) {
      for (const r of run(d, START, 24 * HOUR, 7 * MINUTE)) {
        expect(deviceReportSchema.safeParse(r).success, JSON.stringify(r)).toBe(true);
        expect(decodeExtraData(r.extraData).ok).toBe(true);
        expect(r.deviceId).toBe(d.deviceId);
        expect(Date.parse(r.time)).toBeGreaterThanOrEqual(START);
        // Positions at 6 decimals (about 0.1 m).
        for (const x of [r.lat!, r.lon!]) expect(Math.abs(x * 1e6 - Math.round(x * 1e6))).toBeLessThan(1e-6);
      }
    }
  });

  it('gives the same report for the same instant, however it was stepped to', () => {
    const d = vehicles[0]!;
    const t = START + 5 * HOUR + 17 * SECOND;
    run(d, START, HOUR, 10 * SECOND);
    expect(step(d, t)).toEqual(step(createDevice({ deviceId: d.deviceId, seed: 7 }), t));
  });
});

describe('vehicle', () => {
  it('stays on its route for an hour of 10 s reports and covers speed x time', () => {
    for (const d of vehicles.slice(0, 10)) {
      const reports = run(d, START, HOUR, 10 * SECOND);
      let byPositions = 0;
      let bySpeed = 0;
      for (let i = 1; i < reports.length; i++) {
        const [a, b] = [reports[i - 1]!, reports[i]!];
        expect(b.speed!).toBeGreaterThanOrEqual(0);
        expect(b.speed!).toBeLessThanOrEqual(100);
        if (b.positioning === 'GPS') expect(offRoute(d.route.path, [b.lat!, b.lon!]), d.deviceId).toBeLessThan(0.05);
        else expect(offRoute(d.route.path, [b.lat!, b.lon!])).toBeLessThan(2);
        if (a.positioning === 'GPS' && b.positioning === 'GPS') {
          byPositions += distanceKm([a.lat!, a.lon!], [b.lat!, b.lon!]);
          bySpeed += (((a.speed! + b.speed!) / 2) * 10) / 3600;
        }
      }
      // A truck moving for most of the hour covers tens of km, and the speeds add up to the track.
      expect(Math.abs(byPositions - bySpeed), d.deviceId).toBeLessThan(Math.max(0.5, bySpeed * 0.03));
    }
  });

  it('drives at 60-95 km/h between slowdowns, stops 5-20 min at each end, with engine off or idling', () => {
    const d = vehicles[0]!;
    const reports = run(d, START, 3 * 24 * HOUR, MINUTE);
    const moving = reports.filter((r) => r.speed! > 0);
    const speeds = moving.map((r) => r.speed!).sort((a, b) => a - b);
    expect(speeds[Math.floor(speeds.length * 0.1)]!).toBeGreaterThan(55);
    expect(speeds[speeds.length - 1]!).toBeLessThanOrEqual(95);
    // Runs of stopped minutes between moving ones (the first run may have begun before START).
    const stops: DeviceReport[][] = [];
    let current: DeviceReport[] = [];
    for (const r of reports) {
      if (r.speed === 0) current.push(r);
      else {
        if (current.length && current[0] !== reports[0]) stops.push(current);
        current = [];
      }
    }
    const lengths = stops.map((s) => s.length);
    expect(lengths.length).toBeGreaterThan(5);
    for (const n of lengths) {
      expect(n).toBeGreaterThanOrEqual(4);
      expect(n).toBeLessThanOrEqual(21);
    }
    const accAtStops = stops.map((s) => s[0]!.acc);
    expect(accAtStops).toContain(true);
    expect(accAtStops).toContain(false);
    expect(moving.every((r) => r.acc === true)).toBe(true);
  });

  it('keeps the reefer at 2-8 C or around -18 C, opens the door at some stops, and its odometer only goes up', () => {
    for (const d of vehicles.slice(0, 8)) {
      const reports = run(d, START, 2 * 24 * HOUR, MINUTE);
      const v = reports.map(values);
      const temps = v.map((x) => x.temperature!);
      if (d.frozen) {
        expect(Math.min(...temps)).toBeGreaterThan(-20);
        expect(Math.max(...temps)).toBeLessThan(0);
      } else {
        expect(Math.min(...temps)).toBeGreaterThan(2);
        expect(Math.max(...temps)).toBeLessThan(25);
        // Most of the time within the 2-8 C band.
        expect(temps.filter((t) => t <= 8).length / temps.length).toBeGreaterThan(0.95);
      }
      expect(v.some((x) => x.door === 'open')).toBe(true);
      expect(v.some((x) => x.door === 'closed')).toBe(true);
      // The door is opened only while parked.
      reports.forEach((r, i) => v[i]!.door === 'open' && expect(r.speed).toBe(0));
      for (let i = 1; i < v.length; i++) expect(v[i]!.mileage!).toBeGreaterThanOrEqual(v[i - 1]!.mileage!);
      for (const x of v) {
        expect(x.battery!).toBeGreaterThanOrEqual(40);
        expect(x.battery!).toBeLessThanOrEqual(100);
      }
    }
  });

  it('shakes more on the road than parked, and now and then reports an LBS fix', () => {
    const d = vehicles[1]!;
    const reports = run(d, START, 24 * HOUR, MINUTE);
    const avg = (rs: DeviceReport[]) => rs.reduce((s, r) => s + values(r).vibration!, 0) / rs.length;
    expect(avg(reports.filter((r) => r.speed! > 30))).toBeGreaterThan(3 * avg(reports.filter((r) => r.speed === 0)));
    expect(reports.some((r) => r.positioning === 'LBS')).toBe(true);
    expect(reports.filter((r) => r.positioning === 'LBS').length / reports.length).toBeLessThan(0.1);
  });
});

describe('container', () => {
  const containers = fleet.filter((d): d is ContainerSim => d.kind === 'container');

  it('sits in a yard or moves slowly on a drayage route, drifting around its set point with excursions', () => {
    expect(containers.some((c) => c.shuttle === null)).toBe(true);
    expect(containers.some((c) => c.shuttle !== null)).toBe(true);
    for (const c of containers) {
      const reports = run(c, START, 3 * 24 * HOUR, 5 * MINUTE);
      const v = reports.map(values);
      for (const r of reports) expect(r.speed!).toBeLessThanOrEqual(60);
      if (!c.shuttle) expect(new Set(reports.map((r) => `${r.lat},${r.lon}`)).size).toBe(1);
      const temps = v.map((x) => x.temperature!);
      const near = temps.filter((t) => Math.abs(t - c.setPointC) <= 1.5).length / temps.length;
      expect(near, c.deviceId).toBeGreaterThan(0.8);
      expect(Math.max(...temps) - c.setPointC).toBeLessThan(30);
      for (const x of v) {
        expect(x.humidity!).toBeGreaterThan(50);
        expect(x.pressure!).toBeGreaterThan(99);
        expect(x.pressure!).toBeLessThan(104);
        if (x.door === 'open') expect(x.light!).toBeGreaterThan(10);
        else expect(x.light).toBe(0);
      }
    }
  });

  it('has excursions out of range and door openings somewhere in the fleet over a week', () => {
    let excursions = 0;
    let openings = 0;
    for (const c of containers) {
      const v = run(c, START, 7 * 24 * HOUR, 5 * MINUTE).map(values);
      excursions += v.filter((x) => x.temperature! - c.setPointC > 3 && x.door === 'closed').length;
      openings += v.filter((x) => x.door === 'open').length;
    }
    expect(excursions).toBeGreaterThan(0);
    expect(openings).toBeGreaterThan(0);
  });
});

describe('cold room', () => {
  const rooms = createFleet({ count: 10, seed: 3, kinds: ['coldroom'] });

  it('never moves, reports no speed, and keeps freezer or chiller temperatures with defrost cycles', () => {
    for (const d of rooms) {
      if (d.kind !== 'coldroom') throw new Error('a cold room');
      const reports = run(d, START, 24 * HOUR, MINUTE);
      expect(new Set(reports.map((r) => `${r.lat},${r.lon}`)).size).toBe(1);
      for (const r of reports) {
        expect(r.speed).toBeUndefined();
        expect(r.acc).toBeUndefined();
      }
      const temps = reports.map((r) => values(r).temperature!);
      if (d.freezer) {
        expect(Math.min(...temps)).toBeGreaterThan(-25);
        expect(Math.max(...temps)).toBeLessThan(0);
      } else {
        expect(Math.min(...temps)).toBeGreaterThan(-1);
        expect(Math.max(...temps)).toBeLessThan(12);
      }
      // Defrost: at least a few degrees above the set point at least once a day.
      expect(Math.max(...temps) - d.setPointC).toBeGreaterThan(2);
    }
  });

  it('opens its door a few times an hour, with the lights on meanwhile', () => {
    for (const d of rooms) {
      const v = run(d, START, 4 * HOUR, 10 * SECOND).map(values);
      let opened = 0;
      for (let i = 1; i < v.length; i++) if (v[i]!.door === 'open' && v[i - 1]!.door === 'closed') opened++;
      expect(opened, d.deviceId).toBeGreaterThanOrEqual(4);
      expect(opened, d.deviceId).toBeLessThanOrEqual(16);
      for (const x of v) expect(x.light! > 0).toBe(x.door === 'open');
    }
  });
});

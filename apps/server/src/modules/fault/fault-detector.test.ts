// The fault detector through the real intake (HTTP reports, the reading store, the intake log):
// each kind opens a fault at its threshold and not one report before; a normal report ends a
// run wherever it was taken; windows expire; further occurrences count on the one unresolved
// fault; refused reports keep their reasons and the intake goes on even when the detector fails;
// two detectors (as two server processes) counting one device together count each thing once.
// Silences and windows take time: the clock of the whole app (Date) is moved on, so the intake,
// the reading store and the detector all see the time pass. The counting rules themselves are
// also checked on explicit times.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { DeviceWithSecret, IntakeResult } from '@iotc/shared/device';
import type { FaultKind } from '@iotc/shared/fault';
import { testApp, type TestApp } from '../../test/harness.ts';
import { devices, faultCounters, faults, intakeLog, orgs, telemetry } from '../../db/schema.ts';
import { hashSecret } from '../../ingest/pipeline.ts';
import { readingStore } from '../../ingest/store.ts';
import { storedReadings, type Reading } from '../../ingest/stored-readings.ts';
import { advanceRun, advanceWindow, faultDetector, gpsVerdict, sensorVerdict, type Signal } from './detector.ts';

let t: TestApp;
let demoOrg: string;

const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
/** Device times: one a second, from two hours ago (never in the future, however many reports). */
const T0 = Date.now() - 2 * 3_600_000;
let tick = 0;
const nextTime = () => new Date(T0 + ++tick * 1000).toISOString();

/** Block 3 for a temperature in °C (sign-magnitude), or "no reading". */
const rawTemp = (c: number | null) => (c === null ? 32768 + 300 : c < 0 ? 32768 + Math.round(-c * 10) : Math.round(c * 10));
const extra = (o: { battery?: number; temp?: number | null; humidity?: number; noBlock3?: boolean } = {}) =>
  JSON.stringify({
    1: { batval: Math.round((o.battery ?? 85.6) * 10) },
    ...(o.noBlock3 ? {} : { 3: { temp: rawTemp(o.temp === undefined ? 4 : o.temp), humidity: Math.round((o.humidity ?? 65) * 10) } }),
  });
const GOOD = { lat: 31.2, lon: 121.5, positioning: 'GPS', network: '4G', speed: 0 };
const NO_TEMP = { extraData: extra({ temp: null }) };
const WET = { extraData: extra({ humidity: 101 }) };

async function send(d: DeviceWithSecret, body: unknown): Promise<IntakeResult> {
  const res = await t.app.inject({ method: 'POST', url: '/api/iot/v2/device/report', headers: { authorization: basic(d), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  expect(res.statusCode, res.body).toBe(200);
  await settle();
  return (res.json() as { data: IntakeResult }).data;
}
async function settle() {
  await t.app.readings.flushed();
  await t.app.faultDetector.settled();
}
/** One report (a new device time each) with the good values, changed by `over`. */
const report = (d: DeviceWithSecret, over: Record<string, unknown> = {}) => send(d, { deviceId: d.deviceId, time: nextTime(), ...GOOD, extraData: extra(), ...over });
const reports = (d: DeviceWithSecret, n: number, over: Record<string, unknown> = {}) => Array.from({ length: n }, () => ({ deviceId: d.deviceId, time: nextTime(), ...GOOD, extraData: extra(), ...over }));

async function faultsOf(d: DeviceWithSecret, kind?: FaultKind) {
  const db = t.app.database.db;
  return db
    .select()
    .from(faults)
    .where(and(eq(faults.deviceRef, d.id), kind ? eq(faults.kind, kind) : undefined))
    .orderBy(faults.firstAt);
}
let made = 0;
/** A device of the demo organisation (registered in the database: the clock may be past any session). */
async function device(name: string): Promise<DeviceWithSecret> {
  const secret = `fault-detector-secret-${++made}-0123456789`;
  const [row] = await t.app.database.db.insert(devices).values({ orgId: demoOrg, deviceId: `FD-${made}-${name}`, name, secretHash: hashSecret(secret) }).returning();
  return { ...(row as unknown as DeviceWithSecret), secret };
}
/** The clock moves on by `ms` for the whole app (Date only: timers still run). */
function elapse(ms: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  vi.setSystemTime(Date.now() + ms);
}
afterEach(() => {
  vi.useRealTimers();
});
beforeAll(async () => {
  t = await testApp();
  demoOrg = (await t.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
});
afterAll(async () => {
  await t.close();
});

describe('what a report says', () => {
  it('tells a failed sensor, a failed GPS fix and a normal report apart', () => {
    expect(sensorVerdict({ temperature: null, humidity: 50 })).toBe('bad');
    expect(sensorVerdict({ temperature: 4, humidity: 100.1 })).toBe('bad');
    expect(sensorVerdict({ temperature: 4, humidity: 100 })).toBe('ok');
    expect(sensorVerdict({ humidity: 40 })).toBe('ok');
    expect(sensorVerdict({ battery: 50 })).toBeNull();
    expect(gpsVerdict({ positioning: 'GPS', lat: 0, lon: 0 })).toBe('bad');
    expect(gpsVerdict({ positioning: 'GPS' })).toBe('bad');
    expect(gpsVerdict({ positioning: 'GPS', lat: 0, lon: 121.5 })).toBe('ok');
    expect(gpsVerdict({ positioning: 'LBS' })).toBeNull();
    expect(gpsVerdict({ lat: 0, lon: 0 })).toBeNull();
  });
});

describe('counting on explicit times', () => {
  const sig = (at: number, over: Partial<Signal> = {}): Signal => ({ kind: 'sensor_failure', deviceRef: 'd', at, n: 1, detail: {}, ...over });

  it('a run fires at its threshold, starts again, and ends at a normal report in a gap', () => {
    const never = () => false;
    expect(advanceRun(null, [sig(1), sig(2)], 3, never)).toEqual({ counter: { count: 2, since: 1, lastAt: 2 }, fires: [] });
    const fired = advanceRun({ count: 2, since: 1, lastAt: 2 }, [sig(3), sig(4)], 3, never);
    expect(fired.fires.map((f) => f.at)).toEqual([3]);
    expect(fired.fires[0]!.detail).toMatchObject({ reports: 3, since: new Date(1).toISOString() });
    expect(fired.counter).toEqual({ count: 1, since: 4, lastAt: 4 });
    // A normal report between 2 and 10 ends the run: 10 starts a new one.
    const ended = advanceRun({ count: 2, since: 1, lastAt: 2 }, [sig(10), sig(11)], 3, (a, b) => a === 2 && b === 10);
    expect(ended).toEqual({ counter: { count: 2, since: 10, lastAt: 11 }, fires: [] });
  });

  it('a window fires at its threshold within its length, not past it, and counts a racing episode once', () => {
    const W = 1000;
    expect(advanceWindow(null, [sig(0, { n: 4 })], 5, W)).toEqual({ counter: { count: 4, since: 0, lastAt: 0 }, fires: [] });
    // The fifth event after the window's end starts a new window.
    expect(advanceWindow({ count: 4, since: 0, lastAt: 0 }, [sig(1001)], 5, W)).toEqual({ counter: { count: 1, since: 1001, lastAt: 1001 }, fires: [] });
    const within = advanceWindow({ count: 4, since: 0, lastAt: 0 }, [sig(1000)], 5, W);
    expect(within.fires).toHaveLength(1);
    expect(within.counter!.count).toBe(0);
    // Ten at once: two occurrences.
    expect(advanceWindow(null, [sig(5, { n: 10 })], 5, W).fires).toHaveLength(2);
    // Two writes of one device saw the same silence (it began at 100): counted once.
    const episode = (at: number) => sig(at, { kind: 'offline_repeatedly', before: 100 });
    const once = advanceWindow(null, [episode(500), episode(501)], 3, W);
    expect(once.counter).toEqual({ count: 1, since: 500, lastAt: 500 });
    expect(advanceWindow(once.counter, [episode(502)], 3, W).counter).toEqual(once.counter);
  });
});

describe('sensor failures', () => {
  it('opens a fault at the third report running without a temperature reading, not at the second', async () => {
    const d = await device('no-temp');
    await report(d, NO_TEMP);
    await report(d, NO_TEMP);
    expect(await faultsOf(d)).toEqual([]);
    const third = nextTime();
    await report(d, { ...NO_TEMP, time: third });
    const [f] = await faultsOf(d);
    expect(f).toMatchObject({ kind: 'sensor_failure', status: 'open', count: 1, orgId: demoOrg });
    expect(f!.firstAt.toISOString()).toBe(third);
    expect(f!.detail).toMatchObject({ reason: 'temperature sensor gives no reading', reports: 3 });
  });

  it('a normal report ends the run; a report without the sensor block does not', async () => {
    const d = await device('flaky');
    await report(d, WET);
    await report(d, WET);
    await report(d); // normal: the run ends
    await report(d, WET);
    await report(d, WET);
    expect(await faultsOf(d)).toEqual([]);
    await report(d, { extraData: extra({ noBlock3: true }) }); // says nothing about the sensor
    await report(d, WET);
    const [f] = await faultsOf(d);
    expect(f).toMatchObject({ kind: 'sensor_failure', count: 1 });
    expect(f!.detail).toMatchObject({ reason: 'humidity above 100 percent', humidity: 101, reports: 3 });
  });

  it('a normal report taken in the same batch ends the run too, and three running in one batch fire', async () => {
    const d = await device('batch');
    await send(d, [...reports(d, 2, WET), ...reports(d, 1), ...reports(d, 2, WET)]);
    expect(await faultsOf(d)).toEqual([]);
    await send(d, reports(d, 3, NO_TEMP));
    expect((await faultsOf(d)).map((f) => f.count)).toEqual([1]);
  });

  it('a failure that goes on counts further occurrences on the one open fault', async () => {
    const d = await device('dead');
    await send(d, reports(d, 3, NO_TEMP));
    const more = reports(d, 3, NO_TEMP);
    const last = more[2]!.time;
    await send(d, more.reverse());
    await report(d, NO_TEMP);
    const all = await faultsOf(d);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ status: 'open', count: 2 });
    expect(all[0]!.lastAt.toISOString()).toBe(last);
  });
});

describe('GPS failures', () => {
  it('opens a fault at the third GPS report running without a usable position; LBS reports say nothing about it', async () => {
    const d = await device('gps');
    await report(d, { lat: 0, lon: 0 });
    await report(d, { positioning: 'LBS', lat: 31.3, lon: 121.6 });
    await report(d, { lat: undefined, lon: undefined });
    expect(await faultsOf(d)).toEqual([]);
    await report(d, { lat: 0, lon: 0 });
    const [f] = await faultsOf(d, 'gps_failure');
    expect(f).toMatchObject({ status: 'open', count: 1 });
    expect(f!.detail).toMatchObject({ reason: 'GPS fix without a usable position', reports: 3, lat: 0, lon: 0 });
    expect(await faultsOf(d, 'sensor_failure')).toEqual([]);
  });

  it('a good fix ends the run', async () => {
    const d = await device('gps-ok');
    await report(d, { lat: 0, lon: 0 });
    await report(d, { lat: 0, lon: 0 });
    await report(d);
    await report(d, { lat: 0, lon: 0 });
    await report(d, { lat: 0, lon: 0 });
    expect(await faultsOf(d)).toEqual([]);
  });
});

describe('low battery', () => {
  it('one report below the limit is enough; at the limit is not; each one counts on the open fault', async () => {
    const d = await device('battery');
    await report(d, { extraData: extra({ battery: 20 }) });
    expect(await faultsOf(d)).toEqual([]);
    await report(d, { extraData: extra({ battery: 19.9 }) });
    let [f] = await faultsOf(d);
    expect(f).toMatchObject({ kind: 'low_battery', status: 'open', count: 1 });
    expect(f!.detail).toMatchObject({ value: 19.9, limit: 20 });
    await send(d, reports(d, 2, { extraData: extra({ battery: 15 }) }));
    [f] = await faultsOf(d);
    expect(f).toMatchObject({ count: 3, detail: expect.objectContaining({ value: 15 }) });
  });
});

describe('offline repeatedly', () => {
  /** Longer than the offline time (the default ten minutes). */
  const OFF = () => 11 * 60_000;

  it('opens a fault at the third silence longer than the offline time within a day, not at the second', async () => {
    const d = await device('offline');
    await report(d);
    elapse(5 * 60_000); // shorter than the offline time: no episode
    await report(d);
    for (let i = 0; i < 2; i++) {
      elapse(OFF());
      await report(d);
    }
    expect(await faultsOf(d)).toEqual([]);
    expect((await t.app.database.db.select().from(faultCounters).where(eq(faultCounters.deviceRef, d.id)))[0]).toMatchObject({ kind: 'offline_repeatedly', count: 2 });
    elapse(OFF());
    await report(d);
    const [f] = await faultsOf(d);
    expect(f).toMatchObject({ kind: 'offline_repeatedly', status: 'open', count: 1 });
    expect(f!.detail).toMatchObject({ times: 3, hours: 24, reason: 'silent longer than the offline time' });
    expect((f!.detail as { silentS: number }).silentS).toBeGreaterThanOrEqual(660);
  });

  it('silences more than a day apart do not add up', async () => {
    const d = await device('offline-slow');
    await report(d);
    for (let i = 0; i < 2; i++) {
      elapse(OFF());
      await report(d);
    }
    // A day later: a third silence, in a new window.
    elapse(25 * 3_600_000);
    await report(d);
    expect(await faultsOf(d)).toEqual([]);
    for (let i = 0; i < 2; i++) {
      elapse(OFF());
      await report(d);
    }
    expect(await faultsOf(d)).toHaveLength(1);
  });
});

describe('bad reports', () => {
  const broken = (d: DeviceWithSecret) => ({ deviceId: d.deviceId, time: nextTime(), ...GOOD, extraData: '{"3":{"temp":"hot"}}' });

  it('opens a fault at the fifth refused report within an hour; each keeps its reason and the good ones are stored', async () => {
    const d = await device('bad');
    for (let i = 0; i < 4; i++) {
      const r = await send(d, [broken(d), { deviceId: d.deviceId, time: nextTime(), ...GOOD, extraData: extra() }]);
      expect(r).toEqual({ accepted: 1, duplicates: 0, rejected: [{ index: 0, reason: 'block 3 field temp must be a number' }] });
    }
    expect(await faultsOf(d)).toEqual([]);
    await send(d, 'not a report');
    const [f] = await faultsOf(d);
    expect(f).toMatchObject({ kind: 'bad_reports', status: 'open', count: 1 });
    expect(f!.detail).toMatchObject({ times: 5, minutes: 60, lastRefusal: expect.stringContaining('report') });
    const logged = await t.app.database.db.select().from(intakeLog).where(eq(intakeLog.deviceRef, d.id));
    expect(logged).toHaveLength(5);
    expect(await t.app.database.db.select().from(telemetry).where(eq(telemetry.deviceRef, d.id))).toHaveLength(4);
  });

  it('refusals more than an hour apart do not add up; ten at once are two occurrences', async () => {
    const d = await device('bad-slow');
    await send(d, [broken(d), broken(d), broken(d), broken(d)]);
    elapse(61 * 60_000);
    await send(d, broken(d));
    expect(await faultsOf(d)).toEqual([]);
    await send(d, [broken(d), broken(d), broken(d)]);
    expect(await faultsOf(d)).toEqual([]);
    await send(d, broken(d));
    expect((await faultsOf(d)).map((f) => f.count)).toEqual([1]);
    await send(d, Array.from({ length: 10 }, () => broken(d)));
    expect((await faultsOf(d)).map((f) => f.count)).toEqual([3]);
  });

  it('counts refusals of a whole message too (an MQTT payload that is not JSON)', async () => {
    const d = await device('mqtt-bad');
    for (let i = 0; i < 5; i++) await t.app.intake.refuse('mqtt', d.deviceId, 'payload is not JSON', '{oops', d.id);
    await settle();
    expect(await faultsOf(d, 'bad_reports')).toHaveLength(1);
    // A refusal of no known device (a wrong secret, an unknown id) belongs to no one.
    await t.app.intake.refuse('http', d.deviceId, 'device authentication failed', null);
    await settle();
    expect((await faultsOf(d, 'bad_reports'))[0]!.count).toBe(1);
  });

  it('the intake goes on when the detector fails', async () => {
    const d = await device('detector-down');
    const detector = t.app.faultDetector;
    const { refused, stored } = detector;
    detector.refused = () => {
      throw new Error('detector down');
    };
    detector.stored = () => {
      throw new Error('detector down');
    };
    try {
      const r = await send(d, [broken(d), { deviceId: d.deviceId, time: nextTime(), ...GOOD, extraData: extra() }]);
      expect(r).toEqual({ accepted: 1, duplicates: 0, rejected: [{ index: 0, reason: 'block 3 field temp must be a number' }] });
    } finally {
      detector.refused = refused;
      detector.stored = stored;
    }
    expect((await send(d, reports(d, 1))).accepted).toBe(1);
    expect(await t.app.database.db.select().from(telemetry).where(eq(telemetry.deviceRef, d.id))).toHaveLength(2);
  });
});

describe('several processes', () => {
  it('the reading store of each process asks when a device was last heard of only when it may have been silent', async () => {
    const d = await device('two-stores');
    let clock = Date.now();
    const heard: (number | undefined)[] = [];
    const store = () => {
      const events = storedReadings();
      events.stored.subscribe((e) => heard.push(e.heardBefore.get(d.id)?.getTime()));
      return readingStore(t.app.database.db, { silenceAfterMs: 600_000, now: () => new Date(clock), events });
    };
    const [a, b] = [store(), store()];
    const write = async (s: typeof a, minute: number) => {
      clock = T0 + minute * 60_000;
      await s.submit([{ orgId: demoOrg, deviceRef: d.id, time: new Date(clock), lat: null, lon: null, acc: null, raw: {}, sensors: {} }]);
    };
    await write(a, 0); // never heard of
    await write(a, 1); // this process wrote it a minute ago: not asked
    await write(b, 2); // the other process never wrote it: asked
    await write(a, 12); // this process last wrote it 11 minutes ago, the other 10 minutes ago
    await write(a, 23); // silent for 11 minutes
    expect(heard).toEqual([undefined, undefined, T0 + 60_000, T0 + 2 * 60_000, T0 + 12 * 60_000]);
  });

  const reading = (d: DeviceWithSecret, time: string, sensors: Record<string, unknown>): Reading => ({
    orgId: demoOrg,
    deviceRef: d.id,
    time: new Date(time),
    lat: 31.2,
    lon: 121.5,
    positioning: 'GPS',
    network: '4G',
    speed: 0,
    course: null,
    acc: null,
    raw: {},
    sensors,
  });

  it('two detectors counting one device at once open one fault and count every occurrence once', async () => {
    const d = await device('two-nodes');
    const a = faultDetector(t.app.database.db, { log: t.app.log, offlineAfterMs: 600_000 });
    const b = faultDetector(t.app.database.db, { log: t.app.log, offlineAfterMs: 600_000 });
    const low = (i: number) => reading(d, new Date(T0 + i).toISOString(), { battery: 10 });
    for (let round = 0; round < 5; round++) {
      a.stored([], [low(round * 2)], new Map());
      b.stored([], [low(round * 2 + 1)], new Map());
    }
    // The same silence, seen by two racing writes of the device: one episode.
    const now = Date.now();
    const state = { deviceRef: d.id, receivedAt: new Date(now) } as Parameters<typeof a.stored>[0][number];
    const before = new Map([[d.id, new Date(now - 3_600_000)]]);
    a.stored([state], [], before);
    b.stored([{ ...state, receivedAt: new Date(now + 5) }], [], before);
    await Promise.all([a.settled(), b.settled()]);
    const all = await faultsOf(d);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ kind: 'low_battery', count: 10 });
    const [episodes] = await t.app.database.db.select().from(faultCounters).where(eq(faultCounters.deviceRef, d.id));
    expect(episodes).toMatchObject({ kind: 'offline_repeatedly', count: 1 });
  });
});

// History tracks through the API: full detail when the range holds few enough points, one point
// per time bucket past maxPoints (and full detail again for a narrow window), the curves' sensor
// columns, LBS and fix-less reports marked; a task's track follows its first device over its
// journey with its limits; the summary finds the trips and stops of a drive with a GPS jump and
// lists the alarms on the way; bad ranges are refused in both languages; and another
// organisation reads nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { TrackAnswer, TrackSummary } from '@iotc/shared/track';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmLevels, alarms, orgs, transportTaskDevices, transportTasks } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let operator: string;
let rival: string;
let demoOrg: string;
const T0 = Date.parse('2026-11-01T00:00:00Z');

const api = <T>(url: string, token: string, lang: 'zh-CN' | 'en-US' = 'en-US') => call<T>(t.app, { method: 'GET', url, token, lang });
const iso = (ms: number) => new Date(ms).toISOString();

async function device(token: string, deviceId: string): Promise<DeviceWithSecret> {
  const res = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token, body: { deviceId, name: deviceId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

interface Reading {
  t: number;
  lat: number | null;
  lon: number | null;
  positioning?: string;
  speed?: number | null;
  sensors?: Record<string, unknown>;
}

/** Stores readings as the intake does (one JSON parameter for the lot). */
async function store(orgId: string, ref: string, readings: Reading[]) {
  const json = JSON.stringify(
    readings.map((r) => ({ time: iso(r.t), lat: r.lat, lon: r.lon, positioning: r.positioning ?? 'GPS', speed: r.speed ?? null, sensors: r.sensors ?? {} })),
  );
  await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
    select ${orgId}::uuid, ${ref}::uuid, time, lat, lon, positioning, speed, '{}'::jsonb, sensors
    from jsonb_to_recordset(${json}::jsonb) as x(time timestamptz, lat float8, lon float8, positioning text, speed float8, sensors jsonb)`);
}

/** `n` readings one second apart from `start`, driving north slowly, in SQL (fast for tens of thousands). */
async function storeSeries(orgId: string, ref: string, start: number, n: number) {
  await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
    select ${orgId}::uuid, ${ref}::uuid, ${iso(start)}::timestamptz + i * interval '1 second', 31 + i * 0.00001, 121.5, 'GPS', 36, '{}'::jsonb,
      jsonb_build_object('temperature', 4 + (i % 100) / 100.0)
    from generate_series(0, ${n - 1}::int) as g(i)`);
}

// Metres to degrees of latitude, and of longitude at 31°.
const M_LAT = 1 / 111_195;
const M_LON = 1 / (111_195 * Math.cos((31 * Math.PI) / 180));

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'track-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await createTenantUser(db, { code: 'rival-track', account: 'rival-track', password: DEMO_PASSWORD, permissions: ['device:read', 'device:write'] });
  admin = await login(t.app, 'track-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  rival = await login(t.app, 'rival-track', DEMO_PASSWORD);
});
afterAll(async () => t?.close());

describe('the track of a device', () => {
  let d: DeviceWithSecret;
  beforeAll(async () => {
    d = await device(admin, 'TRK-FULL-1');
    const readings: Reading[] = [];
    for (let i = 0; i < 300; i++) {
      readings.push({ t: T0 + i * 10_000, lat: 31 + i * 0.0001, lon: 121.5, speed: 40, sensors: { temperature: 3 + i / 100, humidity: 50, door: i === 100 ? 'open' : 'closed' } });
    }
    readings[50] = { ...readings[50]!, positioning: 'LBS' };
    readings[60] = { ...readings[60]!, lat: null, lon: null };
    await store(demoOrg, d.id, readings);
  });

  it('answers every point of a range that holds no more than maxPoints, with the curves beside the positions', async () => {
    const res = await api<TrackAnswer>(`/api/iot/v2/tracks?deviceId=${d.id}&from=${iso(T0)}&to=${iso(T0 + 3000_000)}`, operator);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tr = res.body.data!;
    expect(tr.simplified).toBe(false);
    expect(tr.bucketS).toBeNull();
    expect(tr.device.deviceId).toBe('TRK-FULL-1');
    expect(tr.task).toBeNull();
    const p = tr.points;
    expect(p.t).toHaveLength(300);
    for (const col of [p.lat, p.lon, p.lbs, p.speed, p.temp, p.humidity, p.door]) expect(col).toHaveLength(300);
    expect(p.t[0]).toBe(T0);
    expect(p.t.every((v, i) => i === 0 || v > p.t[i - 1]!)).toBe(true);
    expect(p.temp[10]).toBeCloseTo(3.1, 6);
    expect(p.humidity[10]).toBe(50);
    expect(p.door[100]).toBe(1);
    expect(p.door[101]).toBe(0);
    expect(p.lbs[50]).toBe(1);
    expect(p.lbs[51]).toBe(0);
    expect(p.lat[60]).toBeNull();
    expect(p.lat[61]).toBeCloseTo(31.0061, 6);
  });

  it('answers [from, to): a reading at `to` is not in it', async () => {
    const res = await api<TrackAnswer>(`/api/iot/v2/tracks?deviceId=${d.id}&from=${iso(T0 + 10_000)}&to=${iso(T0 + 50_000)}`, operator);
    expect(res.body.data!.points.t).toEqual([T0 + 10_000, T0 + 20_000, T0 + 30_000, T0 + 40_000]);
  });
});

describe('a long track', () => {
  let d: DeviceWithSecret;
  const N = 20_000;
  beforeAll(async () => {
    d = await device(admin, 'TRK-LONG-1');
    await storeSeries(demoOrg, d.id, T0, N);
  });

  it('past maxPoints answers the first point of each time bucket, whole seconds long', async () => {
    const res = await api<TrackAnswer>(`/api/iot/v2/tracks?deviceId=${d.id}&from=${iso(T0)}&to=${iso(T0 + N * 1000)}&maxPoints=1000`, operator);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tr = res.body.data!;
    expect(tr.simplified).toBe(true);
    expect(tr.bucketS).toBe(20);
    expect(tr.points.t).toHaveLength(1000);
    // One reading a second from T0: each bucket's first reading is at its start.
    expect(tr.points.t.every((v, i) => v === T0 + i * 20_000)).toBe(true);
    expect(tr.points.lat[1]).toBeCloseTo(31 + 20 * 0.00001, 8);
    expect(tr.points.temp[1]).toBeCloseTo(4.2, 6);
  });

  it('answers full detail again for a window the client zooms into', async () => {
    const from = T0 + 5000_000;
    const res = await api<TrackAnswer>(`/api/iot/v2/tracks?deviceId=${d.id}&from=${iso(from)}&to=${iso(from + 600_000)}&maxPoints=1000`, operator);
    const tr = res.body.data!;
    expect(tr.simplified).toBe(false);
    expect(tr.points.t).toHaveLength(600);
    expect(tr.points.t[0]).toBe(from);
    expect(tr.points.t[599]).toBe(from + 599_000);
  });

  it('skips empty buckets instead of inventing points', async () => {
    // The range runs past the data: the buckets after it hold nothing.
    const res = await api<TrackAnswer>(`/api/iot/v2/tracks?deviceId=${d.id}&from=${iso(T0)}&to=${iso(T0 + 2 * N * 1000)}&maxPoints=1000`, operator);
    const tr = res.body.data!;
    expect(tr.bucketS).toBe(40);
    expect(tr.points.t).toHaveLength(500);
    expect(Math.max(...tr.points.t)).toBeLessThan(T0 + N * 1000);
  });
});

describe('the summary', () => {
  let d: DeviceWithSecret;
  const start = T0 + 10 * 86_400_000;
  beforeAll(async () => {
    d = await device(admin, 'TRK-SUM-1');
    const readings: Reading[] = [];
    let t0 = start;
    // 10 minutes parked at A, 20 minutes east at 60 km/h (16.7 m/s), 10 minutes parked at B, one reading every 10 s.
    for (let i = 0; i < 60; i++) readings.push({ t: t0 + i * 10_000, lat: 31, lon: 121.5, speed: 0 });
    t0 += 600_000;
    for (let i = 1; i <= 120; i++) readings.push({ t: t0 + i * 10_000, lat: 31, lon: 121.5 + i * 166.67 * M_LON, speed: 60 });
    t0 += 1_200_000;
    const bLon = 121.5 + 120 * 166.67 * M_LON;
    for (let i = 1; i <= 60; i++) readings.push({ t: t0 + i * 10_000, lat: 31, lon: bLon, speed: 0 });
    // A wild fix 50 km north in the middle of the drive: a jump, not a detour.
    readings[100] = { ...readings[100]!, lat: 31 + 50_000 * M_LAT };
    await store(demoOrg, d.id, readings);
    const [level] = await t.app.database.db.select().from(alarmLevels).where(eq(alarmLevels.orgId, demoOrg)).limit(1);
    await t.app.database.db.insert(alarms).values({
      orgId: demoOrg,
      policyName: 'summary test',
      ruleId: 'r1',
      type: 'overspeed',
      levelId: level!.id,
      deviceRef: d.id,
      status: 'cleared',
      startedAt: new Date(start + 900_000),
      lastAt: new Date(start + 960_000),
      lat: 31,
      lon: 121.55,
      threshold: 50,
      value: 60,
    });
  });

  it('finds the drive between two stops, leaves the GPS jump out and lists the alarm on the way', async () => {
    const q = `deviceId=${d.id}&from=${iso(start)}&to=${iso(start + 3_000_000)}`;
    const res = await api<TrackSummary>(`/api/iot/v2/tracks/summary?${q}`, operator, 'zh-CN');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.data!;
    expect(s.trips).toHaveLength(1);
    expect(s.stops).toHaveLength(2);
    expect(s.stats.stopCount).toBe(2);
    expect(s.stats.jumps).toBe(1);
    expect(s.stats.points).toBe(240);
    // 120 legs of 166.67 m: 20 km, within the GPS error of the ends.
    expect(s.stats.distanceM).toBeGreaterThan(19_500);
    expect(s.stats.distanceM).toBeLessThan(20_500);
    expect(s.stats.maxSpeedKmh).toBeGreaterThanOrEqual(59);
    expect(s.stats.maxSpeedKmh).toBeLessThan(70);
    expect(s.stats.avgSpeedKmh).toBeGreaterThan(50);
    expect(s.stats.avgSpeedKmh).toBeLessThan(70);
    expect(s.stops[0]!.durationS).toBeGreaterThanOrEqual(540);
    expect(s.stops[1]!.open).toBe(true);
    expect(s.alarms).toHaveLength(1);
    expect(s.alarms[0]!.type).toBe('overspeed');
    expect(s.alarms[0]!.levelName).toMatch(/[\u4e00-\u9fa5]/);
  });
});

describe('the track of a transport task', () => {
  it("follows the task's first device from its start, with the task's limits", async () => {
    const first = await device(admin, 'TRK-TASK-1');
    const second = await device(admin, 'TRK-TASK-2');
    const startedAt = T0 + 20 * 86_400_000;
    await store(demoOrg, first.id, [
      { t: startedAt - 60_000, lat: 31, lon: 121, sensors: { temperature: 5 } },
      { t: startedAt + 60_000, lat: 31.001, lon: 121, sensors: { temperature: 6 } },
      { t: startedAt + 120_000, lat: 31.002, lon: 121, sensors: { temperature: 7 } },
    ]);
    await store(demoOrg, second.id, [{ t: startedAt + 60_000, lat: 40, lon: 116 }]);
    const db = t.app.database.db;
    const [task] = await db
      .insert(transportTasks)
      .values({
        orgId: demoOrg,
        code: 'TT-20261121-0001',
        status: 'arrived',
        goodsName: 'Vaccines',
        originName: 'A',
        originLat: 31,
        originLon: 121,
        originRadiusM: 500,
        destinationName: 'B',
        destinationLat: 31.01,
        destinationLon: 121,
        destinationRadiusM: 500,
        plannedDistanceM: 1100,
        settings: { tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: null },
        startedAt: new Date(startedAt),
        arrivedAt: new Date(startedAt + 180_000),
        createdBy: 'test',
      })
      .returning();
    await db.insert(transportTaskDevices).values([
      { taskId: task!.id, deviceRef: first.id, position: 0 },
      { taskId: task!.id, deviceRef: second.id, position: 1 },
    ]);
    const res = await api<TrackAnswer>(`/api/iot/v2/tracks?taskId=${task!.id}&to=${iso(startedAt + 180_000)}`, operator);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tr = res.body.data!;
    expect(tr.task).toEqual({ id: task!.id, code: 'TT-20261121-0001' });
    expect(tr.device.deviceId).toBe('TRK-TASK-1');
    expect(tr.from).toBe(iso(startedAt));
    expect(tr.points.temp).toEqual([6, 7]);
    expect(tr.limits).toEqual({ tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: null });

    const theirs = await api<TrackAnswer>(`/api/iot/v2/tracks?taskId=${task!.id}`, rival);
    expect(theirs.status).toBe(404);
  });
});

describe('refusals', () => {
  it('refuses a range that ends before it starts, one longer than 31 days and a query without a device or task, in both languages', async () => {
    const d = await device(admin, 'TRK-BAD-1');
    const inverted = await api<TrackAnswer>(`/api/iot/v2/tracks?deviceId=${d.id}&from=${iso(T0 + 1000)}&to=${iso(T0)}`, operator, 'en-US');
    expect(inverted.status).toBe(400);
    expect(inverted.body.errorcode).toBe('TRACK_RANGE_INVERTED');
    expect(inverted.body.errormsg).toBe('The end of the time range must be later than its start');
    const long = await api<TrackAnswer>(`/api/iot/v2/tracks/summary?deviceId=${d.id}&from=${iso(T0)}&to=${iso(T0 + 32 * 86_400_000)}`, operator, 'zh-CN');
    expect(long.status).toBe(400);
    expect(long.body.errorcode).toBe('TRACK_RANGE_TOO_LONG');
    expect(long.body.errormsg).toBe('轨迹最多查询 31 天，请缩短时间范围');
    const none = await api<TrackAnswer>(`/api/iot/v2/tracks?from=${iso(T0)}`, operator, 'en-US');
    expect(none.status).toBe(400);
    expect(none.body.errormsg).toContain('Please pick a device or a task');
    const tooMany = await api<TrackAnswer>(`/api/iot/v2/tracks?deviceId=${d.id}&maxPoints=50000`, operator);
    expect(tooMany.status).toBe(400);
  });

  it("gives another organisation nothing of a device's track, and its own", async () => {
    const mine = await device(admin, 'TRK-ISO-1');
    await store(demoOrg, mine.id, [{ t: T0, lat: 31, lon: 121 }]);
    const q = `from=${iso(T0 - 1000)}&to=${iso(T0 + 1000)}`;
    expect((await api<TrackAnswer>(`/api/iot/v2/tracks?deviceId=${mine.id}&${q}`, rival)).status).toBe(404);
    expect((await api<TrackSummary>(`/api/iot/v2/tracks/summary?deviceId=${mine.id}&${q}`, rival)).status).toBe(404);
    const theirs = await device(rival, 'TRK-ISO-2');
    const own = await api<TrackAnswer>(`/api/iot/v2/tracks?deviceId=${theirs.id}&${q}`, rival);
    expect(own.status).toBe(200);
    expect(own.body.data!.points.t).toEqual([]);
  });
});

// Latest state and history through the API: the intake keeps each device's newest position and
// last known sensor values (a late older report does not overwrite them), the status follows
// speed, ignition and silence, lists count and filter by status, the readings come back paged,
// as thinned curves and as an export, and the browsers' WebSocket gets each change within a
// second, only within its own organisation tree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import ExcelJS from 'exceljs';
import type { Page } from '@iotc/shared/envelope';
import type { DeviceWithSecret, IntakeResult } from '@iotc/shared/device';
import type { DeviceState, IntakeLogRow, LiveMessage, MapPoint, Series, StatusCounts, TelemetryRow } from '@iotc/shared/live';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { deviceStates, orgs } from '../../db/schema.ts';
import { openLive, until } from '../../test/live-socket.ts';

const OFFLINE_MS = 10 * 60_000;
let t: TestApp;
let admin: string;
let outsider: string;
let tracker: DeviceWithSecret;
let logger: DeviceWithSecret;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
async function report(d: DeviceWithSecret, body: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return res.json() as { data: IntakeResult };
}
const get = <T>(url: string, token = admin, lang: 'en-US' | 'zh-CN' = 'en-US') => call<T>(t.app, { method: 'GET', url, token, lang });

beforeAll(async () => {
  t = await testApp({ offlineAfterMs: OFFLINE_MS });
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'live-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'live-admin', DEMO_PASSWORD);
  await createTenantUser(db, { code: 'other-live', account: 'other-live', password: DEMO_PASSWORD, permissions: ['device:read'] });
  outsider = await login(t.app, 'other-live', DEMO_PASSWORD);
  const make = async (deviceId: string, name: string) =>
    (await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId, name } })).body.data!;
  tracker = await make('LIVE-TRACKER-1', 'Truck tracker');
  logger = await make('LIVE-LOGGER-1', 'Cold room logger');
  await make('LIVE-SPARE-1', 'Spare tracker');
});
afterAll(async () => {
  await t.close();
});

describe('latest state', () => {
  it('keeps the newest position and the last value of each sensor; a late older report changes nothing', async () => {
    const r = await report(tracker, {
      deviceId: tracker.deviceId,
      time: minutesAgo(2),
      lat: 31.23,
      lon: 121.47,
      speed: 62,
      course: 90,
      acc: true,
      extraData: '{"1":{"batval":856},"3":{"temp":32818,"humidity":652},"16":{"gac":0}}',
    });
    expect(r.data.accepted).toBe(1);
    // Older, from another place: stored as history but not the latest state.
    await report(tracker, { deviceId: tracker.deviceId, time: minutesAgo(5), lat: 30.0, lon: 120.0, speed: 10, extraData: '{"3":{"temp":100}}' });
    // Newer, battery only and no position: position and temperature stay.
    await report(tracker, { deviceId: tracker.deviceId, time: minutesAgo(1), speed: 70, acc: true, extraData: '{"1":{"batval":850}}' });
    const latest = await get<DeviceState>(`/api/iot/v2/devices/${tracker.id}/latest`);
    expect(latest.body.data).toMatchObject({
      deviceId: tracker.deviceId,
      status: 'driving',
      lat: 31.23,
      lon: 121.47,
      speed: 70,
      sensors: { battery: 85, temperature: -5, humidity: 65.2, door: 'closed' },
      time: expect.any(String),
    });
    expect(new Date(latest.body.data!.time!).getTime()).toBeGreaterThan(Date.now() - 90_000);
  });

  it('derives parked, shutdown, unused and offline', async () => {
    await report(logger, { deviceId: logger.deviceId, time: minutesAgo(1), lat: 31.1, lon: 121.3, speed: 0, extraData: '{"3":{"temp":32968}}' });
    let page = await get<Page<DeviceState>>('/api/iot/v2/device-states?size=100');
    const status = (p: typeof page) => Object.fromEntries(p.body.data!.rows.map((s) => [s.deviceId, s.status]));
    expect(status(page)).toEqual({ 'LIVE-LOGGER-1': 'parked', 'LIVE-SPARE-1': 'unused', 'LIVE-TRACKER-1': 'driving' });
    await report(tracker, { deviceId: tracker.deviceId, time: new Date().toISOString(), speed: 0, acc: false });
    page = await get<Page<DeviceState>>('/api/iot/v2/device-states?size=100');
    expect(status(page)['LIVE-TRACKER-1']).toBe('shutdown');
    // Silent past the offline time.
    await t.app.database.db.update(deviceStates).set({ receivedAt: new Date(Date.now() - OFFLINE_MS - 60_000) }).where(eq(deviceStates.deviceRef, logger.id));
    page = await get<Page<DeviceState>>('/api/iot/v2/device-states?size=100');
    expect(status(page)['LIVE-LOGGER-1']).toBe('offline');
    const counts = await get<StatusCounts>('/api/iot/v2/device-states/summary');
    expect(counts.body.data).toEqual({ all: 3, unused: 1, shutdown: 1, offline: 1, parked: 0, driving: 0 });
    const offline = await get<Page<DeviceState>>('/api/iot/v2/device-states?status=offline');
    expect(offline.body.data!.rows.map((s) => s.deviceId)).toEqual(['LIVE-LOGGER-1']);
    const bad = await get('/api/iot/v2/device-states?status=flying', admin, 'zh-CN');
    expect(bad.status).toBe(400);
    // Sorted by the derived status; a field that cannot be sorted is named in the refusal.
    const byStatus = await get<Page<DeviceState>>('/api/iot/v2/device-states?size=100&sort=status,desc');
    expect(byStatus.body.data!.rows.map((s) => s.status)).toEqual(['unused', 'shutdown', 'offline']);
    const unsortable = await get('/api/iot/v2/device-states?sort=secret,asc');
    expect(unsortable.status).toBe(400);
    expect(unsortable.body.errormsg).toContain('sortable: deviceId, name, lastSeenAt, status, speed');
  });

  it('gives the map every positioned device, and another organisation nothing', async () => {
    const points = await get<MapPoint[]>('/api/iot/v2/device-states/points');
    expect(points.body.data!.map((p) => p.deviceId).sort()).toEqual(['LIVE-LOGGER-1', 'LIVE-TRACKER-1']);
    expect((await get<MapPoint[]>('/api/iot/v2/device-states/points', outsider)).body.data).toEqual([]);
    expect((await get<StatusCounts>('/api/iot/v2/device-states/summary', outsider)).body.data!.all).toBe(0);
    expect((await get(`/api/iot/v2/devices/${tracker.id}/latest`, outsider)).status).toBe(404);
    const now = new Date().toISOString();
    expect((await get(`/api/iot/v2/telemetry?device=${tracker.id}&from=${minutesAgo(60)}&to=${now}`, outsider)).status).toBe(404);
    expect((await get(`/api/iot/v2/intake-logs?device=${tracker.id}`, outsider)).status).toBe(404);
  });
});

describe('history', () => {
  it('pages the readings of a window, newest first, with raw and decoded values', async () => {
    const q = `device=${tracker.id}&from=${encodeURIComponent(minutesAgo(60))}&to=${encodeURIComponent(new Date(Date.now() + 1000).toISOString())}`;
    const page = await get<Page<TelemetryRow>>(`/api/iot/v2/telemetry?${q}&size=2`);
    expect(page.body.data!.total).toBe(4);
    expect(page.body.data!.rows).toHaveLength(2);
    const all = await get<Page<TelemetryRow>>(`/api/iot/v2/telemetry?${q}&size=10&sort=time,asc`);
    const oldest = all.body.data!.rows[0]!;
    expect(oldest).toMatchObject({ lat: 30, lon: 120, sensors: { temperature: 10 }, raw: { '3': { temp: 100 } } });
  });

  it('thins the curves to maxPoints, keeping the first and last reading', async () => {
    const base = Date.now() - 50 * 60_000;
    const reports = Array.from({ length: 120 }, (_, i) => ({
      deviceId: logger.deviceId,
      time: new Date(base + i * 10_000).toISOString(),
      extraData: `{"3":{"temp":${100 + i},"humidity":500}}`,
    }));
    expect((await report(logger, reports)).data.accepted).toBe(120);
    const from = encodeURIComponent(new Date(base).toISOString());
    const to = encodeURIComponent(new Date(base + 119 * 10_000).toISOString());
    const series = (await get<Series>(`/api/iot/v2/telemetry/series?device=${logger.id}&from=${from}&to=${to}&maxPoints=25`)).body.data!;
    expect(series.total).toBe(120);
    expect(series.times.length).toBeLessThanOrEqual(25);
    expect(series.values.temperature![0]).toBe(10);
    expect(series.values.temperature!.at(-1)).toBe(21.9);
    expect(series.values.humidity!.every((h) => h === 50)).toBe(true);
    // Values the device never sent have no curve.
    expect(series.values.light).toBeUndefined();
    const full = (await get<Series>(`/api/iot/v2/telemetry/series?device=${logger.id}&from=${from}&to=${to}`)).body.data!;
    expect(full.times).toHaveLength(120);
    const wrong = await get(`/api/iot/v2/telemetry/series?device=${logger.id}&from=${to}&to=${from}`, admin, 'zh-CN');
    expect(wrong.status).toBe(400);
  });

  it('exports the readings as Excel with headers in the user language', async () => {
    const from = encodeURIComponent(minutesAgo(60));
    const to = encodeURIComponent(new Date(Date.now() + 1000).toISOString());
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/iot/v2/telemetry/export?device=${tracker.id}&from=${from}&to=${to}&format=xlsx`,
      headers: { access_token: admin, language: 'zh-CN', timezone: 'Asia/Shanghai' },
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('传感器数据');
    expect(sheet.getRow(1).values).toEqual(expect.arrayContaining(['设备时间', '温度(°C)', '电量(%)', '门状态']));
    expect(sheet.rowCount).toBe(5);
  });

  it("lists a device's refused reports with their reasons", async () => {
    await report(tracker, [{ deviceId: tracker.deviceId, time: '2999-01-01T00:00:00Z' }]);
    const log = await get<Page<IntakeLogRow>>(`/api/iot/v2/intake-logs?device=${tracker.id}`);
    expect(log.body.data!.rows[0]).toMatchObject({ channel: 'http', reason: 'time 2999-01-01T00:00:00Z is in the future' });
  });
});

describe('live push', () => {
  let base: string;
  beforeAll(async () => {
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
  });

  const open = (token: string) => openLive(base, token);
  const statesOf = (messages: LiveMessage[]) => messages.flatMap((m) => (m.type === 'device-states' ? m.data : []));

  // How fast is the benchmark's (intake.*.publish_to_ws_p99_*): here only that it arrives.
  it('pushes a stored report to the own organisation, and not to others', async () => {
    const mine = await open(admin);
    const theirs = await open(outsider);
    expect(await until(() => mine.messages.some((m) => m.type === 'hello'), 15_000)).toBe(true);
    await report(tracker, { deviceId: tracker.deviceId, time: new Date().toISOString(), lat: 31.3, lon: 121.5, speed: 55, acc: true, extraData: '{"3":{"temp":41}}' });
    const arrived = await until(() => statesOf(mine.messages).some((s) => s.deviceId === tracker.deviceId && s.lat === 31.3), 15_000);
    expect(arrived).toBe(true);
    expect(statesOf(mine.messages).find((s) => s.lat === 31.3)).toMatchObject({ status: 'driving', sensors: { temperature: 4.1 } });
    await new Promise((r) => setTimeout(r, 300));
    expect(statesOf(theirs.messages)).toEqual([]);
    mine.ws.close();
    theirs.ws.close();
  });

  it('pushes a device that fell silent as offline', async () => {
    const mine = await open(admin);
    expect(await until(() => mine.messages.some((m) => m.type === 'hello'), 15_000)).toBe(true);
    await t.app.sweepOffline();
    // Its last report becomes older than the offline time just after that sweep.
    await t.app.database.db.update(deviceStates).set({ receivedAt: new Date(Date.now() - OFFLINE_MS + 5) }).where(eq(deviceStates.deviceRef, tracker.id));
    await new Promise((r) => setTimeout(r, 20));
    await t.app.sweepOffline();
    expect(await until(() => statesOf(mine.messages).some((s) => s.deviceId === tracker.deviceId && s.status === 'offline'), 15_000)).toBe(true);
    mine.ws.close();
  });

  it('closes a socket without a valid session', async () => {
    const ws = new WebSocket(`${base}/api/iot/v2/live?access_token=nonsense`);
    const code = await new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    expect(code).toBe(4401);
  });
});

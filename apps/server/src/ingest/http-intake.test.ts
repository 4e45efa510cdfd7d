// The device registry and HTTP intake through inject(): a device is registered with a secret
// shown once; its reports are authenticated by it, decoded and stored raw and decoded; bad
// reports are refused with a reason in the intake log while the good ones of the same batch are
// kept; a repeated device time is stored once; one organisation never sees another's devices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { DeviceRow, DeviceWithSecret, IntakeResult } from '@iotc/shared/device';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../test/harness.ts';
import { intakeLog, orgs, telemetry } from '../db/schema.ts';
import { addOrgUser, createTenantUser } from '../test/fixtures.ts';

let t: TestApp;
let operator: string;
let demoAdmin: string;
let device: DeviceWithSecret;

beforeAll(async () => {
  t = await testApp();
  const demoOrg = (await t.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(t.app.database.db, { orgId: demoOrg, account: 'demo-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  demoAdmin = await login(t.app, 'demo-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  const made = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: demoAdmin, body: { deviceId: '860000000000001', name: 'Reefer 1', model: 'T-100' } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  device = made.body.data!;
});
afterAll(async () => {
  await t.close();
});

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
async function report(body: unknown, auth = basic(device.deviceId, device.secret)) {
  const res = await t.app.inject({ method: 'POST', url: '/api/iot/v2/device/report', headers: { authorization: auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, body: res.json() as { data: IntakeResult; errorcode: string | null; errormsg: string | null } };
}
const base = (time: string, over: Record<string, unknown> = {}) => ({
  deviceId: '860000000000001',
  time,
  lat: 31.2304,
  lon: 121.4737,
  positioning: 'GPS',
  network: '4G',
  speed: 42.5,
  course: 90,
  extraData: '{"1":{"batval":856},"3":{"temp":32818,"humidity":652},"16":{"gac":1}}',
  ...over,
});

describe('device registry', () => {
  it('registers a device with a secret shown once; the operator may read but not register', async () => {
    expect(device.secret.length).toBeGreaterThanOrEqual(32);
    const list = await call<Page<DeviceRow>>(t.app, { method: 'GET', url: '/api/iot/v2/devices', token: operator });
    expect(list.body.data!.rows).toEqual([expect.objectContaining({ deviceId: '860000000000001', name: 'Reefer 1', model: 'T-100', orgName: 'Demo Cold Chain Co.' })]);
    expect(JSON.stringify(list.body)).not.toContain(device.secret);
    const denied = await call(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: operator, body: { deviceId: '860000000000009', name: 'x' }, lang: 'zh-CN' });
    expect(denied.status).toBe(403);
    expect(denied.body.errormsg).toBe('暂无权限');
    const dup = await call(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: demoAdmin, body: { deviceId: '860000000000001', name: 'again' } });
    expect(dup.body).toMatchObject({ errorcode: 'DEVICE_ID_TAKEN', errormsg: 'A device with this id already exists' });
    const bad = await call(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: demoAdmin, body: { deviceId: 'a b', name: 'x' }, lang: 'zh-CN' });
    expect(bad.body).toMatchObject({ errorcode: 'DEVICE_ID_FORMAT', errormsg: '设备编号须为 4-40 位字母、数字、_ 或 -（IMEI 或序列号）' });
  });

  it("keeps one organisation's devices from another", async () => {
    await createTenantUser(t.app.database.db, { code: 'other', account: 'other.op', password: 'Other#2026' });
    const other = await login(t.app, 'other.op', 'Other#2026');
    // That user's role has no device:read: 403; an administrator of the other tree sees nothing of demo's.
    expect((await call(t.app, { method: 'GET', url: '/api/iot/v2/devices', token: other })).status).toBe(403);
    const admin = await login(t.app, 'admin', ADMIN_PASSWORD);
    const rival = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: 'PLATFORM-01', name: 'Platform tracker' } });
    expect(rival.status).toBe(200);
    for (const [method, url] of [
      ['GET', `/api/iot/v2/devices/${rival.body.data!.id}`],
      ['DELETE', `/api/iot/v2/devices/${rival.body.data!.id}`],
      ['POST', `/api/iot/v2/devices/${rival.body.data!.id}/reset-secret`],
    ] as const) {
      expect((await call(t.app, { method, url, token: demoAdmin })).status, `${method} ${url}`).toBe(404);
    }
    const mine = await call<Page<DeviceRow>>(t.app, { method: 'GET', url: '/api/iot/v2/devices?size=100', token: demoAdmin });
    expect(mine.body.data!.rows.map((d) => d.deviceId)).toEqual(['860000000000001']);
  });
});

describe('HTTP intake', () => {
  it('stores a report raw and decoded, and refuses a wrong secret or an unknown device', async () => {
    const r = await report(base('2026-11-21T08:00:00Z'));
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    const [row] = await t.app.database.db.select().from(telemetry);
    expect(row).toMatchObject({ lat: 31.2304, lon: 121.4737, positioning: 'GPS', network: '4G', speed: 42.5, course: 90 });
    expect(row!.sensors).toEqual({ battery: 85.6, temperature: -5, humidity: 65.2, door: 'open' });
    expect(row!.raw).toEqual({ 1: { batval: 856 }, 3: { temp: 32818, humidity: 652 }, 16: { gac: 1 } });

    const wrong = await report(base('2026-11-21T08:01:00Z'), basic(device.deviceId, 'not-the-secret'));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ errorcode: 'DEVICE_AUTH_FAILED', errormsg: 'Device authentication failed' });
    expect((await report(base('2026-11-21T08:01:00Z'), basic('UNKNOWN-1', 'x'))).status).toBe(401);
    expect((await report(base('2026-11-21T08:01:00Z'), 'Bearer x')).status).toBe(401);
  });

  it('keeps the good reports of a batch, refuses the bad ones with reasons, and stores a device time once', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const r = await report([
      base('2026-11-21T09:00:00Z'),
      base('2026-11-21T09:00:00Z'),
      base('2026-11-21T08:00:00Z'),
      base('2026-11-21T09:01:00Z', { lat: 95 }),
      base(future),
      base('2026-11-21T09:02:00Z', { extraData: '{"3":{"temp":"hot"}}' }),
      base('2026-11-21T09:03:00Z', { extraData: 'not json' }),
      base('2026-11-21T09:04:00Z', { deviceId: 'SOMEONE-ELSE' }),
      'not an object',
      base('2026-11-21T09:05:00Z', { extraData: [{ id: 3, temp: 45 }] }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data.accepted).toBe(2);
    // The repeat within the batch and the time stored by the previous test.
    expect(r.body.data.duplicates).toBe(2);
    expect(r.body.data.rejected).toEqual([
      { index: 3, reason: expect.stringContaining('lat') },
      { index: 4, reason: `time ${future} is in the future` },
      { index: 5, reason: 'block 3 field temp must be a number' },
      { index: 6, reason: 'extraData is not JSON' },
      { index: 7, reason: 'deviceId SOMEONE-ELSE is not the authenticated device 860000000000001' },
      { index: 8, reason: expect.stringContaining('report') },
    ]);
    const logged = await t.app.database.db.select().from(intakeLog).where(eq(intakeLog.deviceId, '860000000000001'));
    expect(logged.map((l) => l.reason)).toEqual(expect.arrayContaining(['extraData is not JSON', 'block 3 field temp must be a number']));
    expect(logged.every((l) => l.channel === 'http')).toBe(true);
    const stored = await t.app.database.db.select().from(telemetry);
    expect(stored).toHaveLength(3);
    const listed = await call<Page<DeviceRow>>(t.app, { method: 'GET', url: '/api/iot/v2/devices', token: operator });
    expect(listed.body.data!.rows[0]!.lastSeenAt).not.toBeNull();
  });

  it('a reset secret stops the old one at once', async () => {
    const reset = await call<DeviceWithSecret>(t.app, { method: 'POST', url: `/api/iot/v2/devices/${device.id}/reset-secret`, token: demoAdmin });
    expect((await report(base('2026-11-21T10:00:00Z'))).status).toBe(401);
    expect((await report(base('2026-11-21T10:00:00Z'), basic(device.deviceId, reset.body.data!.secret))).status).toBe(200);
    device = reset.body.data!;
  });

  it('deleting a device deletes its readings and stops its reports', async () => {
    const db = t.app.database.db;
    expect((await db.select().from(telemetry).where(eq(telemetry.deviceRef, device.id))).length).toBeGreaterThan(0);
    const removed = await call(t.app, { method: 'DELETE', url: `/api/iot/v2/devices/${device.id}`, token: demoAdmin });
    expect(removed.status).toBe(200);
    expect(await db.select().from(telemetry).where(eq(telemetry.deviceRef, device.id))).toEqual([]);
    expect((await report(base('2026-11-21T11:00:00Z'))).status).toBe(401);
  });
});

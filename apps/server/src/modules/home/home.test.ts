// The home screen's lists on the demo fleet: message alerts raised by the latest readings
// against the bound assets' limits (and low battery, open doors, silence), newest first; the
// platform notifications in the request language, one without details.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@iotc/shared/envelope';
import type { HomeAlert, Notice, StatusCounts } from '@iotc/shared/live';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';
import { demoDevices, rekey, seedDemoFleet } from '../../demo/seed-demo.ts';

let t: TestApp;
let demo: string;
let outsider: string;

beforeAll(async () => {
  t = await testApp();
  expect(await seedDemoFleet(t.app.database.db)).toBe(true);
  // Only once: a second start leaves the fleet as it is.
  expect(await seedDemoFleet(t.app.database.db)).toBe(false);
  demo = await login(t.app, 'demo', DEMO_PASSWORD);
  await createTenantUser(t.app.database.db, { code: 'other-home', account: 'other-home', password: DEMO_PASSWORD, permissions: ['device:read'] });
  outsider = await login(t.app, 'other-home', DEMO_PASSWORD);
});
afterAll(async () => {
  await t.close();
});

const get = <T>(url: string, token = demo, lang: 'en-US' | 'zh-CN' = 'en-US') => call<T>(t.app, { method: 'GET', url, token, lang });

describe('home', () => {
  it('counts the demo fleet by status and raises alerts from the latest readings', async () => {
    const fleet = await demoDevices(t.app.database.db);
    expect(fleet.map((d) => d.kind).sort()).toEqual([...Array(9).fill('coldroom'), ...Array(4).fill('container'), ...Array(8).fill('vehicle')]);
    expect((await get<StatusCounts>('/api/iot/v2/device-states/summary')).body.data).toMatchObject({ all: 21, unused: 21 });
    const truck = fleet.find((d) => d.kind === 'vehicle')!; // chilled 2-8 C
    const secret = (await rekey(t.app.database.db, [truck.id])).get(truck.id)!;
    const send = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/iot/v2/device/report',
        headers: { authorization: `Basic ${Buffer.from(`${truck.deviceId}:${secret}`).toString('base64')}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const res = await send({ deviceId: truck.deviceId, time: new Date().toISOString(), lat: 31.2, lon: 121.4, speed: 60, extraData: '{"1":{"batval":150},"3":{"temp":93},"16":{"gac":1}}' });
    expect(res.statusCode).toBe(200);
    const alerts = (await get<Page<HomeAlert>>('/api/iot/v2/home/alerts')).body.data!;
    expect(alerts.rows.map((a) => [a.deviceId, a.kind, a.value, a.limit])).toEqual(
      expect.arrayContaining([
        [truck.deviceId, 'lowBattery', 15, 20],
        [truck.deviceId, 'tempHigh', 9.3, 8],
        [truck.deviceId, 'doorOpen', null, null],
      ]),
    );
    expect(alerts.total).toBe(3);
    expect((await get<Page<HomeAlert>>('/api/iot/v2/home/alerts', outsider)).body.data!.total).toBe(0);
  });

  it("keeps the alerts of a time window (the home's last-week picker), and counts vehicles or several asset kinds", async () => {
    const fleet = await demoDevices(t.app.database.db);
    const truck = fleet.filter((d) => d.kind === 'vehicle')[1]!;
    const secret = (await rekey(t.app.database.db, [truck.id])).get(truck.id)!;
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${Buffer.from(`${truck.deviceId}:${secret}`).toString('base64')}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ deviceId: truck.deviceId, time: threeDaysAgo.toISOString(), lat: 31.2, lon: 121.4, extraData: '{"16":{"gac":1}}' }),
    });
    expect(res.statusCode).toBe(200);
    const kinds = async (q: string) => (await get<Page<HomeAlert>>(`/api/iot/v2/home/alerts?${q}`)).body.data!.rows.filter((a) => a.deviceId === truck.deviceId).map((a) => a.kind);
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    // Three days ago: its door alert is in a window around it, not in the last day's.
    expect(await kinds(`from=${iso(threeDaysAgo.getTime() - 3_600_000)}&to=${iso(threeDaysAgo.getTime() + 3_600_000)}`)).toContain('doorOpen');
    expect(await kinds(`from=${iso(Date.now() - 86_400_000)}`)).toEqual([]);
    expect(await kinds('')).toContain('doorOpen');
    expect((await call(t.app, { method: 'GET', url: '/api/iot/v2/home/alerts?from=yesterday', token: demo })).status).toBe(400);

    // The home counts vehicles: the devices on the 8 trucks; the transport scenario, trucks and containers.
    expect((await get<StatusCounts>('/api/iot/v2/device-states/summary?assetKind=vehicle')).body.data!.all).toBe(8);
    expect((await get<StatusCounts>('/api/iot/v2/device-states/summary?assetKind=vehicle,container')).body.data!.all).toBe(12);
    const states = (await get<Page<{ asset: { kind: string } | null }>>('/api/iot/v2/device-states?assetKind=vehicle,container&size=100')).body.data!;
    expect(states.total).toBe(12);
    expect(new Set(states.rows.map((r) => r.asset?.kind))).toEqual(new Set(['vehicle', 'container']));
  });

  it('lists the platform notifications newest first in the request language', async () => {
    const zh = (await get<Page<Notice>>('/api/iot/v2/notifications', demo, 'zh-CN')).body.data!;
    expect(zh.rows.map((n) => n.title)).toEqual(['欢迎使用物联网云平台', '平台例行维护通知']);
    expect(zh.rows[1]!.body).toBe('');
    const en = (await get<Page<Notice>>('/api/iot/v2/notifications?page=2&size=1', outsider)).body.data!;
    expect(en).toMatchObject({ total: 2, rows: [{ title: 'Routine platform maintenance', level: 'info' }] });
  });
});

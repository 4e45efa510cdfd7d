// The faults resource through inject(), on faults the real intake found: the list with its
// filters, sorting and pages, the counts by kind and status, one fault with its repair records,
// recording repairs (under repair, resolved, refused once resolved, a new occurrence opening a
// new fault), validation texts in both languages, the export in both languages and the request's
// time zone, the permissions, and organisation isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { FaultDetail, FaultRow, FaultStats, RepairInput } from '@iotc/shared/fault';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { assets, deviceBindings, devices, orgs, roleMenus, rolePermissions, roles } from '../../db/schema.ts';
import { hashSecret } from '../../ingest/pipeline.ts';
import { seenText } from './service.ts';

let t: TestApp;
let admin: string;
let operator: string;
let viewer: string;
let rival: string;
let demoOrg: string;
let battery: DeviceWithSecret;
let sensor: DeviceWithSecret;
let gps: DeviceWithSecret;
let foreign: DeviceWithSecret;

const URL = '/api/iot/v2/faults';
const api = <T>(method: 'GET' | 'POST', url: string, token: string, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') => call<T>(t.app, { method, url, token, body, lang });
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
const T0 = Date.now() - 3_600_000;
let tick = 0;
const nextTime = () => new Date(T0 + ++tick * 1000).toISOString();

async function report(d: DeviceWithSecret, extraData: object, over: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: d.deviceId, time: nextTime(), lat: 31.2, lon: 121.5, positioning: 'GPS', extraData: JSON.stringify(extraData), ...over }),
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.readings.flushed();
  await t.app.faultDetector.settled();
}
const lowBattery = (d: DeviceWithSecret) => report(d, { 1: { batval: 150 } });
const list = async (query: string, token = admin) => {
  const r = await api<Page<FaultRow>>('GET', `${URL}?${query}`, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data!;
};
const repair = (id: string, body: RepairInput, token = operator, lang: 'zh-CN' | 'en-US' = 'en-US') => api<FaultDetail>('POST', `${URL}/${id}/repairs`, token, body, lang);

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'faults-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'faults-admin', DEMO_PASSWORD);
  // The seeded demo operator: device:read and fault:handle.
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  // Reads devices, may not record repairs.
  const [viewerRole] = await db.insert(roles).values({ orgId: demoOrg, code: 'fault-viewer', nameZh: '查看', nameEn: 'Viewer' }).returning();
  await db.insert(rolePermissions).values({ roleId: viewerRole!.id, permission: 'device:read' });
  await db.insert(roleMenus).values({ roleId: viewerRole!.id, menuId: '102-monitor-live-device' });
  await addOrgUser(db, { orgId: demoOrg, account: 'faults-viewer', password: DEMO_PASSWORD, roleCodes: ['fault-viewer'] });
  viewer = await login(t.app, 'faults-viewer', DEMO_PASSWORD);
  // Another organisation with every right on its own faults.
  const other = await createTenantUser(db, { code: 'rival-faults', account: 'rival-faults', password: DEMO_PASSWORD, permissions: ['device:read', 'fault:handle'] });
  rival = await login(t.app, 'rival-faults', DEMO_PASSWORD);

  const make = async (deviceId: string, name: string) => (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId, name })).body.data!;
  battery = await make('FAULT-BAT-01', 'Tracker with a tired battery');
  sensor = await make('FAULT-TMP-02', 'Logger with a dead probe');
  gps = await make('FAULT-GPS-03', 'Tracker without a fix');
  const secret = 'rival-secret-0123456789abcdef';
  const [row] = await db.insert(devices).values({ orgId: other.org.id, deviceId: 'FAULT-RIVAL-09', name: 'Rival tracker', secretHash: hashSecret(secret) }).returning();
  foreign = { ...(row as unknown as DeviceWithSecret), secret };
  // The logger is mounted on a vehicle: its faults are found by the vehicle's plate too.
  const [truck] = await db.insert(assets).values({ orgId: demoOrg, kind: 'vehicle', code: '沪A·F0012', name: 'Reefer truck 12', attrs: {} }).returning();
  await db.insert(deviceBindings).values({ orgId: demoOrg, deviceRef: sensor.id, deviceId: sensor.deviceId, assetRef: truck!.id, assetKind: 'vehicle', assetCode: truck!.code, assetName: truck!.name, boundBy: 'test' });

  await lowBattery(battery);
  for (let i = 0; i < 3; i++) await report(sensor, { 3: { temp: 33068, humidity: 600 } });
  for (let i = 0; i < 6; i++) await report(gps, {}, { lat: 0, lon: 0 });
  await lowBattery(foreign);
});
afterAll(async () => {
  await t.close();
});

describe('the list', () => {
  it("shows the organisation's faults newest last seen first, with device, asset and organisation", async () => {
    const page = await list('');
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => r.device.deviceId)).toEqual(['FAULT-GPS-03', 'FAULT-TMP-02', 'FAULT-BAT-01']);
    const probe = page.rows[1]!;
    expect(probe).toMatchObject({
      kind: 'sensor_failure',
      status: 'open',
      count: 1,
      orgId: demoOrg,
      orgName: 'Demo Cold Chain Co.',
      device: { id: sensor.id, deviceId: 'FAULT-TMP-02', name: 'Logger with a dead probe' },
      asset: { kind: 'vehicle', code: '沪A·F0012', name: 'Reefer truck 12' },
      resolvedAt: null,
      resolvedBy: null,
      repairCount: 0,
      detail: { reason: 'temperature sensor gives no reading', reports: 3 },
    });
    expect(page.rows[0]).toMatchObject({ kind: 'gps_failure', count: 2, asset: null });
  });

  it('filters by kind, status, device, keyword (device or asset) and last seen, sorts and pages', async () => {
    expect((await list('kind=low_battery')).rows.map((r) => r.device.deviceId)).toEqual(['FAULT-BAT-01']);
    expect((await list('kind=low_battery,gps_failure')).total).toBe(2);
    expect((await list('status=resolved')).total).toBe(0);
    expect((await list(`deviceId=${gps.id}`)).rows.map((r) => r.kind)).toEqual(['gps_failure']);
    expect((await list('keyword=dead%20probe')).rows.map((r) => r.device.deviceId)).toEqual(['FAULT-TMP-02']);
    expect((await list(`keyword=${encodeURIComponent('f0012')}`)).rows.map((r) => r.device.deviceId)).toEqual(['FAULT-TMP-02']);
    expect((await list('keyword=%25')).total).toBe(0);
    const all = (await list('')).rows;
    const probeAt = all.find((r) => r.kind === 'sensor_failure')!.lastAt;
    expect((await list(`from=${probeAt}&to=${new Date(Date.parse(probeAt) + 1).toISOString()}`)).rows.map((r) => r.kind)).toEqual(['sensor_failure']);
    expect((await list(`to=${probeAt}`)).rows.map((r) => r.kind)).toEqual(['low_battery']);
    expect((await list('sort=count,desc')).rows[0]!.kind).toBe('gps_failure');
    expect((await list('sort=firstAt,asc')).rows.map((r) => r.kind)).toEqual(['low_battery', 'sensor_failure', 'gps_failure']);
    const second = await list('size=1&page=2&sort=lastAt,asc');
    expect(second).toMatchObject({ total: 3, page: 2, size: 1 });
    expect(second.rows.map((r) => r.kind)).toEqual(['sensor_failure']);
  });

  it('refuses unknown filters values and sort fields, in the request language', async () => {
    const kind = await api('GET', `${URL}?kind=broken_screen`, admin);
    expect(kind.status).toBe(400);
    expect(kind.body.errorcode).toBe('VALIDATION');
    const sort = await api('GET', `${URL}?sort=deviceId,asc`, admin, undefined, 'zh-CN');
    expect(sort.status).toBe(400);
    expect(sort.body.errormsg).toContain('请求参数有误');
    expect((await api('GET', `${URL}?deviceId=not-a-uuid`, admin)).status).toBe(400);
  });

  it('counts by kind and by status for the same filters, zeros included', async () => {
    const r = await api<FaultStats>('GET', `${URL}/stats`, admin);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      byKind: [
        { kind: 'sensor_failure', count: 1 },
        { kind: 'gps_failure', count: 1 },
        { kind: 'low_battery', count: 1 },
        { kind: 'offline_repeatedly', count: 0 },
        { kind: 'bad_reports', count: 0 },
      ],
      byStatus: [
        { status: 'open', count: 3 },
        { status: 'repairing', count: 0 },
        { status: 'resolved', count: 0 },
      ],
    });
    const narrowed = (await api<FaultStats>('GET', `${URL}/stats?kind=low_battery`, admin)).body.data!;
    expect(narrowed.byStatus[0]).toEqual({ status: 'open', count: 1 });
    expect(narrowed.byKind.find((k) => k.kind === 'gps_failure')!.count).toBe(0);
  });
});

describe('repairs', () => {
  it('under repair, further occurrences, resolved; then no more records, and a new occurrence opens a new fault', async () => {
    const [f] = (await list(`deviceId=${battery.id}`)).rows;
    const started = await repair(f!.id, { action: 'Ordered a battery', result: 'in_progress' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toMatchObject({ status: 'repairing', repairCount: 1, repairs: [{ by: 'demo', action: 'Ordered a battery', result: 'in_progress', note: '' }] });

    await lowBattery(battery);
    const [still] = (await list(`deviceId=${battery.id}`)).rows;
    expect(still).toMatchObject({ id: f!.id, status: 'repairing', count: 2 });

    const done = await repair(f!.id, { action: '  Replaced the battery  ', result: 'replaced', note: 'Pack B-20' });
    expect(done.body.data).toMatchObject({ status: 'resolved', resolvedBy: 'demo', repairCount: 2 });
    expect(done.body.data!.repairs.map((r) => [r.action, r.result, r.note])).toEqual([
      ['Ordered a battery', 'in_progress', ''],
      ['Replaced the battery', 'replaced', 'Pack B-20'],
    ]);
    expect(Date.parse(done.body.data!.resolvedAt!)).toBeGreaterThan(Date.now() - 60_000);
    // The detail reads the same.
    const detail = await api<FaultDetail>('GET', `${URL}/${f!.id}`, viewer);
    expect(detail.body.data).toEqual(done.body.data);

    for (const [lang, text] of [
      ['en-US', 'The fault is already resolved'],
      ['zh-CN', '该故障已解决'],
    ] as const) {
      const again = await repair(f!.id, { action: 'Once more', result: 'repaired' }, operator, lang);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ errorcode: 'FAULT_RESOLVED', errormsg: text });
    }

    await lowBattery(battery);
    const both = (await list(`deviceId=${battery.id}&sort=firstAt,asc`)).rows;
    expect(both.map((r) => [r.status, r.count])).toEqual([
      ['resolved', 2],
      ['open', 1],
    ]);
    expect(both[1]!.id).not.toBe(f!.id);
  });

  it('resolving a run starts its counting again', async () => {
    const d = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId: 'FAULT-TMP-05', name: 'Second logger' })).body.data!;
    const dead = { 3: { temp: 33068, humidity: 600 } };
    for (let i = 0; i < 5; i++) await report(d, dead);
    const [f] = (await list(`deviceId=${d.id}`)).rows;
    expect((await repair(f!.id, { action: 'New probe', result: 'repaired' })).status).toBe(200);
    // The two bad reports counted before the repair do not carry over.
    await report(d, dead);
    await report(d, dead);
    expect((await list(`deviceId=${d.id}`)).total).toBe(1);
    await report(d, dead);
    expect((await list(`deviceId=${d.id}&status=open`)).total).toBe(1);
  });

  it('explains a missing repair text and a wrong result in the request language', async () => {
    const [f] = (await list(`deviceId=${gps.id}`)).rows;
    for (const [lang, text] of [
      ['en-US', 'Please describe the repair'],
      ['zh-CN', '请填写维修内容'],
    ] as const) {
      const r = await repair(f!.id, { action: '   ', result: 'repaired' }, operator, lang);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ errorcode: 'REPAIR_ACTION_REQUIRED', errormsg: text });
    }
    const wrong = await repair(f!.id, { action: 'Antenna', result: 'fixed' as never }, operator, 'zh-CN');
    expect(wrong.status).toBe(400);
    expect(wrong.body.errorcode).toBe('VALIDATION');
    expect(wrong.body.errormsg).toMatch(/^请求参数有误：结果须为以下取值之一：/);
    expect((await api('GET', `${URL}/${f!.id}`, admin)).body.data).toMatchObject({ status: 'open', repairCount: 0 });
  });

  it('recording needs fault:handle, reading device:read', async () => {
    const [f] = (await list(`deviceId=${gps.id}`)).rows;
    const denied = await repair(f!.id, { action: 'Antenna', result: 'repaired' }, viewer, 'zh-CN');
    expect(denied.status).toBe(403);
    expect(denied.body.errormsg).toBe('暂无权限');
    expect((await api('GET', URL, viewer)).status).toBe(200);
    const nobody = await createTenantUser(t.app.database.db, { code: 'no-devices', account: 'faults-nobody', password: DEMO_PASSWORD });
    expect(nobody.org).toBeTruthy();
    const token = await login(t.app, 'faults-nobody', DEMO_PASSWORD);
    for (const url of [URL, `${URL}/stats`, `${URL}/export?format=csv`, `${URL}/${f!.id}`]) expect((await api('GET', url, token)).status, url).toBe(403);
    expect((await api('GET', `${URL}/00000000-0000-4000-8000-000000000000`, admin)).status).toBe(404);
  });
});

describe('export', () => {
  it('writes the query as CSV with English headers and names, times in the request time zone', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${URL}/export?format=csv&kind=gps_failure`, headers: { access_token: admin, language: 'en-US', timezone: 'Asia/Shanghai' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/device-faults-\d{8}-\d{6}\.csv/);
    const lines = res.body.replace(/^\ufeff/, '').trim().split('\n');
    expect(lines[0]).toBe('Last seen,First seen,Fault type,Status,Device ID,Device name,Asset,Occurrences,What was seen,Repairs,Resolved,Resolved by,Organisation');
    expect(lines).toHaveLength(2);
    const [f] = (await list('kind=gps_failure')).rows;
    const local = new Date(Date.parse(f!.lastAt) + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    expect(lines[1]).toBe(`${local},${lines[1]!.split(',')[1]},GPS failure,Open,FAULT-GPS-03,Tracker without a fix,,2,No usable GPS position in 3 reports running,0,,,Demo Cold Chain Co.`);
  });

  it('writes Excel with Chinese headers and names', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${URL}/export?format=xlsx&deviceId=${sensor.id}`, headers: { access_token: admin, language: 'zh-CN', timezone: 'Asia/Shanghai' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('设备故障'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('设备故障')!;
    expect(sheet.getRow(1).values).toEqual([undefined, '最近发生', '首次发现', '故障类型', '状态', '设备编号', '设备名称', '资产', '发生次数', '故障现象', '维修次数', '解决时间', '解决人', '组织']);
    const row = sheet.getRow(2).values as unknown[];
    expect(row.slice(3, 10)).toEqual(['传感器故障', '待处理', 'FAULT-TMP-02', 'Logger with a dead probe', '沪A·F0012 Reefer truck 12', 1, '连续 3 次上报无有效温湿度读数']);
    expect(sheet.rowCount).toBe(2);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, object> };
    for (const path of [URL, `${URL}/export`, `${URL}/stats`, `${URL}/{id}`, `${URL}/{id}/repairs`]) expect(doc.paths[path], path).toBeDefined();
  });

  it('says what was seen for every kind in both languages', () => {
    expect(seenText('low_battery', { value: 15, limit: 20 }, 'zh')).toBe('电量 15%，低于 20%');
    expect(seenText('low_battery', {}, 'en')).toBe('Battery below 20%');
    expect(seenText('offline_repeatedly', { times: 3, hours: 24 }, 'en')).toBe('Offline 3 times within 24 hours');
    expect(seenText('bad_reports', { times: 5, minutes: 60 }, 'zh')).toBe('60 分钟内 5 条上报被拒收');
  });
});

describe('organisation isolation', () => {
  it('another organisation cannot list, count, read, export or repair these faults, and sees only its own', async () => {
    const mine = (await list('', admin)).rows;
    expect(mine.some((r) => r.device.deviceId === 'FAULT-RIVAL-09')).toBe(false);
    const theirs = await list('', rival);
    expect(theirs.rows.map((r) => [r.device.deviceId, r.kind])).toEqual([['FAULT-RIVAL-09', 'low_battery']]);
    const stats = (await api<FaultStats>('GET', `${URL}/stats`, rival)).body.data!;
    expect(stats.byStatus.reduce((n, s) => n + s.count, 0)).toBe(1);

    const target = mine.find((r) => r.kind === 'gps_failure')!;
    expect((await api('GET', `${URL}/${target.id}`, rival)).status).toBe(404);
    const fix = await repair(target.id, { action: 'Sneaky', result: 'repaired' }, rival);
    expect(fix.status).toBe(404);
    expect((await api<FaultDetail>('GET', `${URL}/${target.id}`, admin)).body.data).toMatchObject({ status: 'open', repairCount: 0 });
    expect((await list(`deviceId=${gps.id}`, rival)).total).toBe(0);
    expect((await list(`keyword=FAULT-GPS`, rival)).total).toBe(0);
    expect((await api('GET', `${URL}?orgId=${demoOrg}`, rival)).status).toBe(404);
    const res = await t.app.inject({ method: 'GET', url: `${URL}/export?format=csv`, headers: { access_token: rival, language: 'en-US' } });
    expect(res.body).not.toContain('FAULT-GPS-03');
    expect(res.body).toContain('FAULT-RIVAL-09');
    // And the other way round.
    expect((await api('GET', `${URL}/${theirs.rows[0]!.id}`, admin)).status).toBe(404);
    expect((await repair(theirs.rows[0]!.id, { action: 'x', result: 'repaired' }, operator)).status).toBe(404);
  });
});

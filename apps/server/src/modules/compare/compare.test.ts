// Operational data comparison through the API, with values worked by hand from readings, alarms
// and tasks stored directly: warehouses (a cold room's device counts for its warehouse) on
// compliance, average temperature, door-open time (intervals capped at 30 min) and alarms per
// 1,000 hours; vehicles on mileage and on-time rate; routes on on-time rate, planned distance,
// alarms per 1,000 task hours and task temperature; the export; refusals in both languages;
// permissions per kind; and another organisation's targets answer 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { COMPARE_API, type CompareAnswer, type CompareRoutes } from '@iotc/shared/compare';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmLevels, alarms, assets, deviceBindings, devices, roleMenus, rolePermissions, roles, transportTaskDevices, transportTasks } from '../../db/schema.ts';

let t: TestApp;
let token: string;
let deviceOnly: string;
let rival: string;
let org: string;
const HOUR = 3_600_000;
const MIN = 60_000;
const T0 = Date.parse('2026-11-02T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
// Period A is the day from T0, period B the day before.
const PERIODS = `aFrom=${iso(T0)}&aTo=${iso(T0 + 24 * HOUR)}&bFrom=${iso(T0 - 24 * HOUR)}&bTo=${iso(T0)}`;
const HZ = 'Shanghai → Hangzhou';
const SZ = 'Shanghai → Suzhou';

const ids: Record<string, string> = {};

const get = <T>(url: string, tok: string, lang: 'zh-CN' | 'en-US' = 'en-US') => call<T>(t.app, { method: 'GET', url, token: tok, lang });
const compare = (kind: string, targets: string[], metric: string, tok = token, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  get<CompareAnswer>(`${COMPARE_API.compare}?kind=${kind}&metric=${metric}&ids=${encodeURIComponent(JSON.stringify(targets))}&${PERIODS}`, tok, lang);
const values = (a: CompareAnswer) => a.rows.map((r) => [r.name, r.a, r.b, r.change]);

async function store(ref: string, readings: { t: number; sensors: Record<string, unknown> }[]) {
  const json = JSON.stringify(readings.map((r) => ({ time: iso(r.t), sensors: r.sensors })));
  await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, raw, sensors)
    select ${org}::uuid, ${ref}::uuid, time, '{}'::jsonb, sensors from jsonb_to_recordset(${json}::jsonb) as x(time timestamptz, sensors jsonb)`);
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const tenant = await createTenantUser(db, { code: 'cmp', account: 'cmp-user', password: DEMO_PASSWORD, permissions: ['device:read', 'transport:read'] });
  org = tenant.org.id;
  // A user of the same organisation who may read devices but not transport.
  const [devRole] = await db.insert(roles).values({ orgId: org, code: 'dev', nameZh: '设备', nameEn: 'Devices' }).returning();
  await db.insert(rolePermissions).values({ roleId: devRole!.id, permission: 'device:read' });
  await db.insert(roleMenus).values({ roleId: devRole!.id, menuId: '102-monitor-live-device' });
  await addOrgUser(db, { orgId: org, account: 'cmp-dev', password: DEMO_PASSWORD, roleCodes: ['dev'] });
  const other = await createTenantUser(db, { code: 'cmp-rival', account: 'cmp-rival', password: DEMO_PASSWORD, permissions: ['device:read', 'transport:read'] });
  token = await login(t.app, 'cmp-user', DEMO_PASSWORD);
  deviceOnly = await login(t.app, 'cmp-dev', DEMO_PASSWORD);
  rival = await login(t.app, 'cmp-rival', DEMO_PASSWORD);

  const asset = async (key: string, kind: 'warehouse' | 'cold_room' | 'vehicle', range: [number, number] | null, parent?: string, orgId = org) => {
    const [row] = await db
      .insert(assets)
      .values({ orgId, kind, code: key, name: `Name ${key}`, parentId: parent ? ids[parent] : null, attrs: {}, tempMin: range?.[0] ?? null, tempMax: range?.[1] ?? null })
      .returning();
    ids[key] = row!.id;
  };
  await asset('W1', 'warehouse', [2, 8]);
  await asset('R1', 'cold_room', null, 'W1');
  await asset('W2', 'warehouse', [0, 10]);
  await asset('V1', 'vehicle', [2, 8]);
  await asset('V2', 'vehicle', [2, 8]);
  await asset('WX', 'warehouse', [2, 8], undefined, other.org.id);

  // Installed two days before period A began (unless said otherwise): alive through both periods.
  const device = async (key: string, on: string, createdAt = T0 - 48 * HOUR) => {
    const [d] = await db.insert(devices).values({ orgId: org, deviceId: `CMP-${key}`, name: key, secretHash: 'x', createdAt: new Date(createdAt) }).returning();
    ids[key] = d!.id;
    await db.insert(deviceBindings).values({ orgId: org, deviceRef: d!.id, deviceId: `CMP-${key}`, assetRef: ids[on], assetKind: on.startsWith('V') ? 'vehicle' : on.startsWith('R') ? 'cold_room' : 'warehouse', assetCode: on, assetName: on, boundBy: 'test' });
  };
  await device('D1', 'R1');
  await device('D2', 'W1');
  await device('D3', 'W2');
  await device('D4', 'V1');
  await device('D5', 'V2');
  // V3's tracker was installed 18 h into period A: its alarms count over its 6 hours, not the day.
  await asset('V3', 'vehicle', [2, 8]);
  await device('D6', 'V3', T0 + 18 * HOUR);

  // W1 in A: D1 (cold room, W1's range 2..8) 4, 9, 5, 6 and D2 2; doors open 10 + 30 (capped) + 30 (last, capped) min.
  await store(ids.D1!, [
    { t: T0 - 24 * HOUR, sensors: { temperature: 10, door: 'open' } },
    { t: T0, sensors: { temperature: 4, door: 'open' } },
    { t: T0 + 10 * MIN, sensors: { temperature: 9, door: 'closed' } },
    { t: T0 + 20 * MIN, sensors: { temperature: 5, door: 'open' } },
    { t: T0 + 60 * MIN, sensors: { temperature: 6, door: 'open' } },
  ]);
  await store(ids.D2!, [{ t: T0 + 5 * MIN, sensors: { temperature: 2, door: 'closed' } }]);
  await store(ids.D3!, [
    { t: T0 + 5 * MIN, sensors: { temperature: 1 } },
    { t: T0 + 6 * MIN, sensors: { temperature: 11 } },
  ]);
  await store(ids.D4!, [
    { t: T0 - 20 * HOUR, sensors: { mileage: 50 } },
    { t: T0 - 10 * HOUR, sensors: { mileage: 90 } },
    { t: T0 + HOUR, sensors: { mileage: 100, temperature: 3 } },
    { t: T0 + 3 * HOUR, sensors: { mileage: 130, temperature: 5 } },
    { t: T0 + 12 * HOUR, sensors: { mileage: 160, temperature: 20 } },
  ]);
  await store(ids.D5!, [
    { t: T0 + HOUR, sensors: { mileage: 10 } },
    { t: T0 + 2 * HOUR, sensors: { mileage: 15 } },
  ]);

  const task = async (key: string, route: string, asset: string, start: number, arrived: number, planned: number, distanceKm: number, status: 'arrived' | 'completed') => {
    const [origin, destination] = route.split(' → ');
    const [row] = await db
      .insert(transportTasks)
      .values({
        orgId: org,
        code: key,
        status,
        goodsName: 'Vaccine',
        originName: origin!,
        originLat: 31,
        originLon: 121,
        originRadiusM: 500,
        destinationName: destination!,
        destinationLat: 30,
        destinationLon: 120,
        destinationRadiusM: 500,
        plannedDistanceM: distanceKm * 1000,
        settings: {},
        createdBy: 'test',
        assetRef: ids[asset],
        startedAt: new Date(start),
        arrivedAt: new Date(arrived),
        plannedArrival: new Date(planned),
      })
      .returning();
    ids[key] = row!.id;
  };
  await task('K1', HZ, 'V1', T0 + HOUR, T0 + 5 * HOUR, T0 + 6 * HOUR, 180, 'arrived');
  await task('K2', HZ, 'V1', T0 + 6 * HOUR, T0 + 12 * HOUR, T0 + 10 * HOUR, 200, 'arrived');
  await task('K3', SZ, 'V2', T0 + 2 * HOUR, T0 + 4 * HOUR, T0 + 5 * HOUR, 100, 'completed');
  await task('K4', HZ, 'V1', T0 - 20 * HOUR, T0 - 16 * HOUR, T0 - 15 * HOUR, 150, 'arrived');
  await db.insert(transportTaskDevices).values({ taskId: ids.K1!, deviceRef: ids.D4!, position: 0 });

  const level = (await db.select().from(alarmLevels).where(eq(alarmLevels.orgId, org)))[0]!;
  const alarm = (device: string, at: number, task?: string) =>
    db.insert(alarms).values({ orgId: org, policyName: 'p', ruleId: 'r', type: 'temperature', levelId: level.id, deviceRef: ids[device]!, taskId: task ? ids[task] : null, status: 'cleared', startedAt: new Date(at), lastAt: new Date(at), threshold: 8 });
  await alarm('D1', T0 + HOUR);
  await alarm('D1', T0 + 2 * HOUR);
  await alarm('D1', T0 - 2 * HOUR);
  await alarm('D4', T0 + 2 * HOUR, 'K1');
  await alarm('D6', T0 + 20 * HOUR);
});
afterAll(async () => t?.close());

describe('warehouses', () => {
  it('compliance: readings inside the range of the room or, without one, the warehouse', async () => {
    const res = await compare('warehouse', [ids.W1!, ids.W2!], 'compliance');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data!.unit).toBe('%');
    // W1: A 4 of 5 (9 is out), B 0 of 1 (10); W2: A 1 of 2, B nothing.
    expect(values(res.body.data!)).toEqual([
      ['Name W1', 80, 0, 80],
      ['Name W2', 50, null, null],
    ]);
    expect(res.body.data!.rows[0]!.id).toBe(ids.W1);
  });

  it('average temperature and door-open time in minutes, each open interval capped at 30 min', async () => {
    const avg = await compare('warehouse', [ids.W1!, ids.W2!], 'avgTemp');
    expect(values(avg.body.data!)).toEqual([
      ['Name W1', 5.2, 10, -4.8],
      ['Name W2', 6, null, null],
    ]);
    const door = await compare('warehouse', [ids.W1!, ids.W2!], 'doorOpen');
    expect(door.body.data!.unit).toBe('min');
    // A: 0→10 min open (10), 20→60 open (capped 30), 60 min → day end open (capped 30); B: the lone open reading (30). W2 has no door sensor.
    expect(values(door.body.data!)).toEqual([
      ['Name W1', 70, 30, 40],
      ['Name W2', null, null, null],
    ]);
  });

  it('alarms per 1,000 hours: alarms / (24 h × 2 devices) × 1,000', async () => {
    const res = await compare('warehouse', [ids.W1!, ids.W2!], 'alarmRate');
    expect(values(res.body.data!)).toEqual([
      ['Name W1', 41.67, 20.83, 20.84],
      ['Name W2', 0, 0, 0],
    ]);
  });
});

describe('vehicles', () => {
  it('mileage from the odometer, on-time rate of their tasks, compliance and alarms', async () => {
    expect(values((await compare('vehicle', [ids.V1!, ids.V2!], 'mileage')).body.data!)).toEqual([
      ['Name V1', 60, 40, 20],
      ['Name V2', 5, null, null],
    ]);
    expect(values((await compare('vehicle', [ids.V1!, ids.V2!], 'onTime')).body.data!)).toEqual([
      ['Name V1', 50, 100, -50],
      ['Name V2', 100, null, null],
    ]);
    expect(values((await compare('vehicle', [ids.V1!, ids.V2!], 'compliance')).body.data!)).toEqual([
      ['Name V1', 66.67, null, null],
      ['Name V2', null, null, null],
    ]);
    expect(values((await compare('vehicle', [ids.V1!, ids.V2!], 'alarmRate')).body.data!)).toEqual([
      ['Name V1', 41.67, 0, 41.67],
      ['Name V2', 0, 0, 0],
    ]);
  });

  it('alarms per 1,000 hours of the device life in the period: one alarm in 6 h since installation, none before it', async () => {
    // 1 / 6 h × 1,000, not 1 / 24 h × 1,000 = 41.67; in period B the tracker did not exist yet.
    expect(values((await compare('vehicle', [ids.V1!, ids.V3!], 'alarmRate')).body.data!)).toEqual([
      ['Name V1', 41.67, 0, 41.67],
      ['Name V3', 166.67, null, null],
    ]);
  });
});

describe('routes', () => {
  it('lists the route keys of the caller, most tasks first', async () => {
    const res = await get<CompareRoutes>(COMPARE_API.routes, token);
    expect(res.body.data).toEqual([
      { key: HZ, tasks: 3 },
      { key: SZ, tasks: 1 },
    ]);
    expect((await get<CompareRoutes>(COMPARE_API.routes, rival)).body.data).toEqual([]);
    expect((await get(COMPARE_API.routes, deviceOnly)).status).toBe(403);
  });

  it('on-time rate, planned distance of delivered tasks, alarms per 1,000 task hours, temperature while the tasks ran', async () => {
    expect(values((await compare('route', [HZ, SZ], 'onTime')).body.data!)).toEqual([
      [HZ, 50, 100, -50],
      [SZ, 100, null, null],
    ]);
    expect(values((await compare('route', [HZ, SZ], 'mileage')).body.data!)).toEqual([
      [HZ, 380, 150, 230],
      [SZ, 100, null, null],
    ]);
    // HZ in A: 1 alarm over 4 h + 6 h of tasks; B: none over 4 h.
    expect(values((await compare('route', [HZ, SZ], 'alarmRate')).body.data!)).toEqual([
      [HZ, 100, 0, 100],
      [SZ, 0, null, null],
    ]);
    // K1 carries D4 from 1 h to 5 h: readings 3 and 5 (20 at 12 h is after arrival).
    expect(values((await compare('route', [HZ, SZ], 'avgTemp')).body.data!)).toEqual([
      [HZ, 4, null, null],
      [SZ, null, null, null],
    ]);
  });
});

describe('export', () => {
  it('writes the table as CSV with the periods in the headers', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${COMPARE_API.export}?format=csv&kind=warehouse&metric=compliance&ids=${ids.W1},${ids.W2}&${PERIODS}`,
      headers: { access_token: token, language: 'zh-CN', timezone: 'Asia/Shanghai' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace('\ufeff', '').trim().split('\n');
    expect(lines[0]).toBe('仓库,周期 A 2026-11-02 08:00 – 2026-11-03 08:00 (%),周期 B 2026-11-01 08:00 – 2026-11-02 08:00 (%),变化（A − B）');
    expect(lines.slice(1)).toEqual(['Name W1,80,0,80', 'Name W2,50,,']);
  });
});

describe('refusals and isolation', () => {
  it('refuses a metric the kind does not have, a period over 92 days, repeated or too few targets', async () => {
    const door = await compare('route', [HZ, SZ], 'doorOpen', token, 'zh-CN');
    expect(door.status).toBe(400);
    expect(door.body).toMatchObject({ errorcode: 'COMPARE_METRIC_NOT_ALLOWED', errormsg: '该对比对象不支持此指标' });
    const long = await get(
      `${COMPARE_API.compare}?kind=warehouse&metric=avgTemp&ids=${ids.W1},${ids.W2}&aFrom=${iso(T0 - 93 * 24 * HOUR)}&aTo=${iso(T0)}&bFrom=${iso(T0)}&bTo=${iso(T0 + HOUR)}`,
      token,
      'zh-CN',
    );
    expect(long.body).toMatchObject({ errorcode: 'COMPARE_RANGE_TOO_LONG', errormsg: '对比周期最多 92 天，请缩短时间范围' });
    const twice = await compare('warehouse', [ids.W1!, ids.W1!], 'avgTemp');
    expect(twice.status).toBe(400);
    expect(twice.body.errorcode).toBe('COMPARE_TARGETS_REPEATED');
    const one = await compare('warehouse', [ids.W1!], 'avgTemp');
    expect(one.status).toBe(400);
    expect(one.body.errorcode).toBe('VALIDATION');
  });

  it("answers 404 for another organisation's targets and for a vehicle asked as a warehouse", async () => {
    expect((await compare('warehouse', [ids.W1!, ids.WX!], 'avgTemp')).status).toBe(404);
    expect((await compare('warehouse', [ids.W1!, ids.W2!], 'avgTemp', rival)).status).toBe(404);
    expect((await compare('route', [HZ, SZ], 'onTime', rival)).status).toBe(404);
    expect((await compare('warehouse', [ids.W1!, ids.V1!], 'avgTemp')).status).toBe(404);
    expect((await compare('warehouse', [ids.W1!, 'not-a-uuid'], 'avgTemp')).status).toBe(404);
  });

  it('needs device:read for warehouses and vehicles, transport:read for routes', async () => {
    expect((await compare('warehouse', [ids.W1!, ids.W2!], 'avgTemp', deviceOnly)).status).toBe(200);
    const routes = await compare('route', [HZ, SZ], 'onTime', deviceOnly);
    expect(routes.status).toBe(403);
    expect(routes.body.errorcode).toBe('NO_PERMISSION');
  });
});

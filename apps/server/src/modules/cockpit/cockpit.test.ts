// The cockpit summary on the demo fleet with real rows: assets online by kind after reports
// over HTTP intake, tasks in transit (one abnormal by an open alarm), active alarms by level in
// both languages, today's temperature compliance from stored readings against the assets'
// ranges, warehouses by province, vehicle positions, the trends and the newest alarms first;
// another organisation sees none of it (and the demo none of its numbers); device:read needed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { CockpitSummary } from '@iotc/shared/cockpit';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';
import { demoDevices, rekey, seedDemoFleet, type DemoDevice } from '../../demo/seed-demo.ts';
import { alarmLevels, alarms, assets, deviceBindings, devices, transportTasks } from '../../db/schema.ts';
import { lastDays, levelsByCode, provincesByCode } from './service.ts';

let t: TestApp;
let demo: string;
let outsider: string;
let noRead: string;
let outsiderOrg: string;
let fleet: DemoDevice[];

const URL = '/api/iot/v2/cockpit';
const get = (token: string, lang: 'en-US' | 'zh-CN' = 'en-US') => call<CockpitSummary>(t.app, { method: 'GET', url: URL, token, lang });

async function send(d: DemoDevice, secret: string, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: `Basic ${Buffer.from(`${d.deviceId}:${secret}`).toString('base64')}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: d.deviceId, ...body }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function assetOf(deviceRef: string) {
  const [b] = await t.app.database.db.select().from(deviceBindings).where(eq(deviceBindings.deviceRef, deviceRef));
  return b!.assetRef!;
}

function task(orgId: string, code: string, status: 'in_transit' | 'arrived' | 'pending', extra: Partial<typeof transportTasks.$inferInsert> = {}) {
  return {
    orgId,
    code,
    status,
    goodsName: 'Vaccine',
    originName: 'A',
    originLat: 31,
    originLon: 121,
    originRadiusM: 500,
    destinationName: 'B',
    destinationLat: 32,
    destinationLon: 120,
    destinationRadiusM: 500,
    plannedDistanceM: 100_000,
    settings: {},
    createdBy: 'test',
    ...extra,
  } satisfies typeof transportTasks.$inferInsert;
}

beforeAll(async () => {
  t = await testApp();
  expect(await seedDemoFleet(t.app.database.db)).toBe(true);
  demo = await login(t.app, 'demo', DEMO_PASSWORD);
  const other = await createTenantUser(t.app.database.db, { code: 'other-cockpit', account: 'other-cockpit', password: DEMO_PASSWORD, permissions: ['device:read'] });
  outsiderOrg = other.org.id;
  outsider = await login(t.app, 'other-cockpit', DEMO_PASSWORD);
  await createTenantUser(t.app.database.db, { code: 'no-read', account: 'no-read', password: DEMO_PASSWORD, permissions: [] });
  noRead = await login(t.app, 'no-read', DEMO_PASSWORD);
  fleet = await demoDevices(t.app.database.db);
});
afterAll(async () => {
  await t.close();
});

describe('cockpit', () => {
  it('needs device:read', async () => {
    expect((await get(noRead)).status).toBe(403);
  });

  it('sums up the demo fleet and leaks nothing to another organisation', async () => {
    const db = t.app.database.db;
    const trucks = fleet.filter((d) => d.kind === 'vehicle');
    const rooms = fleet.filter((d) => d.kind === 'coldroom');
    const secrets = await rekey(db, [trucks[0]!.id, trucks[1]!.id, rooms[0]!.id]);
    const now = Date.now();
    const at = (ms: number) => new Date(now - ms).toISOString();
    // The fleet was mounted before the readings below (readings before a binding do not count for its asset).
    await db.update(deviceBindings).set({ boundAt: new Date(now - 86_400_000) });
    // Truck 1 (chilled 2..8 C) in Shanghai: 5.0 C in range, then 9.3 C out of range.
    await send(trucks[0]!, secrets.get(trucks[0]!.id)!, { time: at(3000), lat: 31.23, lon: 121.47, speed: 40, extraData: '{"3":{"temp":50}}' });
    await send(trucks[0]!, secrets.get(trucks[0]!.id)!, { time: at(2000), lat: 31.24, lon: 121.48, speed: 45, extraData: '{"3":{"temp":93}}' });
    // Truck 2 in Guangzhou, no temperature.
    await send(trucks[1]!, secrets.get(trucks[1]!.id)!, { time: at(2000), lat: 23.13, lon: 113.26, speed: 0 });
    // A cold room (its own range) in range.
    const roomAsset = (await db.select().from(assets).where(eq(assets.id, await assetOf(rooms[0]!.id))))[0]!;
    const mid = ((roomAsset.tempMin ?? 0) + (roomAsset.tempMax ?? 0)) / 2;
    await send(rooms[0]!, secrets.get(rooms[0]!.id)!, { time: at(1000), lat: 31.2, lon: 121.9, extraData: JSON.stringify({ 3: { temp: Math.round(mid * 10) } }) });

    // Alarms: two active (one of them on a task in transit), one cleared; a rival's active one.
    const [demoOrgId] = [(await db.select({ orgId: assets.orgId }).from(assets).where(eq(assets.id, roomAsset.id)))[0]!.orgId];
    const levelOf = async (orgId: string, code: string) => (await db.select().from(alarmLevels).where(and(eq(alarmLevels.orgId, orgId), eq(alarmLevels.code, code))))[0]!;
    const demoLevels = await db.select().from(alarmLevels).where(eq(alarmLevels.orgId, demoOrgId));
    const top = demoLevels.sort((a, b) => a.priority - b.priority)[0]!;
    const [inTransit] = await db.insert(transportTasks).values(task(demoOrgId, 'TT-C-1', 'in_transit', { startedAt: new Date(now - 3600_000) })).returning();
    await db.insert(transportTasks).values([task(demoOrgId, 'TT-C-2', 'in_transit', { startedAt: new Date(now - 7200_000) }), task(demoOrgId, 'TT-C-3', 'arrived', { startedAt: new Date(now - 9000_000), arrivedAt: new Date(now - 60_000) }), task(outsiderOrg, 'TT-X-1', 'in_transit', { startedAt: new Date(now - 60_000) })]);
    const alarm = (orgId: string, levelId: string, deviceRef: string, status: 'active' | 'cleared', startedAgo: number, taskId: string | null = null) => ({
      orgId,
      policyName: 'p',
      ruleId: 'r',
      type: 'temp_high',
      levelId,
      deviceRef,
      taskId,
      status,
      startedAt: new Date(now - startedAgo),
      lastAt: new Date(now - startedAgo),
      threshold: 8,
      value: 9.3,
    });
    await db.insert(alarms).values([
      alarm(demoOrgId, top.id, trucks[0]!.id, 'active', 120_000, inTransit!.id),
      alarm(demoOrgId, top.id, trucks[1]!.id, 'active', 60_000),
      alarm(demoOrgId, demoLevels[1]!.id, rooms[0]!.id, 'cleared', 30_000),
    ]);
    // The outsider: a warehouse in Guangdong, a device and an active alarm of its own.
    await db.insert(assets).values({ orgId: outsiderOrg, kind: 'warehouse', code: 'X-WH', name: 'Rival warehouse', attrs: { province: '广东省' } });
    const [dev] = await db.insert(devices).values({ orgId: outsiderOrg, deviceId: 'RIVAL0001', name: 'Rival', secretHash: 'x' }).returning();
    await db.insert(alarms).values(alarm(outsiderOrg, (await levelOf(outsiderOrg, top.code)).id, dev!.id, 'active', 10_000));

    const en = (await get(demo)).body.data!;
    expect(en.timezone).toBe('Asia/Shanghai');
    // The demo logger picked is on a cold room or a refrigerator.
    const room = roomAsset.kind === 'cold_room' ? 1 : 0;
    expect(en.assets).toEqual([
      { kind: 'vehicle', total: 8, online: 2 },
      { kind: 'container', total: 4, online: 0 },
      { kind: 'warehouse', total: 3, online: 0 },
      { kind: 'cold_room', total: 6, online: room },
      { kind: 'refrigerator', total: 3, online: 1 - room },
      { kind: 'gateway', total: 3, online: 0 },
    ]);
    expect(en.devices).toEqual({ total: 21, online: 3 });
    expect(en.tasks).toEqual({ inTransit: 2, abnormal: 1 });
    expect(en.alarms.active).toBe(2);
    expect(en.alarms.byLevel[0]).toMatchObject({ code: top.code, name: top.nameEn, color: top.color, count: 2 });
    expect(en.alarms.byLevel.map((l) => l.code)).toEqual(demoLevels.map((l) => l.code));
    // Three readings with a temperature on assets with a range; the 9.3 C one is out.
    expect(en.compliance).toMatchObject({ readings: 3, inRange: 2 });
    expect(en.compliance.rate).toBeCloseTo(2 / 3, 5);
    expect(en.provinces).toEqual(
      expect.arrayContaining([
        { code: '310000', name: 'Shanghai', warehouses: 1, coldRooms: 3 },
        { code: '440000', name: 'Guangdong', warehouses: 1, coldRooms: 3 },
        { code: '110000', name: 'Beijing', warehouses: 1, coldRooms: 3 },
      ]),
    );
    expect(en.provinces).toHaveLength(3);
    expect(en.vehicles.map((v) => [v.deviceId, v.lat, v.lon, v.status]).sort()).toEqual(
      [
        [trucks[0]!.deviceId, 31.24, 121.48, 'driving'],
        [trucks[1]!.deviceId, 23.13, 113.26, 'parked'],
      ].sort(),
    );
    // Trends: the three alarms in the last hours, the four readings in the last hours, one task arrived today.
    expect(en.trends.hours).toHaveLength(24);
    expect(en.trends.alarmsByLevel.flatMap((l) => l.counts).reduce((a, b) => a + b, 0)).toBe(3);
    expect(en.trends.readings.reduce((a, b) => a + b, 0)).toBe(4);
    expect(en.trends.days).toEqual(lastDays(new Date(), 'Asia/Shanghai', 7));
    expect(en.trends.tasksArrived.at(-1)).toBe(1);
    expect(en.trends.tasksStarted.reduce((a, b) => a + b, 0)).toBe(3);
    // Newest first.
    expect(en.ticker.map((a) => [a.device.deviceId, a.status])).toEqual([
      [rooms[0]!.deviceId, 'cleared'],
      [trucks[1]!.deviceId, 'active'],
      [trucks[0]!.deviceId, 'active'],
    ]);

    const zh = (await get(demo, 'zh-CN')).body.data!;
    expect(zh.alarms.byLevel[0]!.name).toBe(top.nameZh);
    // Province names follow the language: the dictionary's, keyed by code.
    expect(zh.provinces.map((p) => [p.code, p.name]).sort()).toEqual([
      ['110000', '北京'],
      ['310000', '上海'],
      ['440000', '广东'],
    ]);

    const rival = (await get(outsider)).body.data!;
    expect(rival.assets).toEqual([{ kind: 'warehouse', total: 1, online: 0 }]);
    expect(rival.devices).toEqual({ total: 1, online: 0 });
    expect(rival.tasks).toEqual({ inTransit: 1, abnormal: 0 });
    expect(rival.alarms.active).toBe(1);
    expect(rival.compliance).toMatchObject({ readings: 0, inRange: 0, rate: null });
    // Written in full ("广东省"): the same dictionary entry, named in English.
    expect(rival.provinces).toEqual([{ code: '440000', name: 'Guangdong', warehouses: 1, coldRooms: 0 }]);
    expect(rival.vehicles).toEqual([]);
    expect(rival.ticker).toHaveLength(1);
    expect(rival.trends.readings.reduce((a, b) => a + b, 0)).toBe(0);
  });
});

describe('cockpit helpers', () => {
  it('puts the spellings of one province in one row, named in the language', () => {
    const rows = [
      { province: '上海', warehouses: 2, coldRooms: 3 },
      { province: 'Shanghai', warehouses: 1, coldRooms: 1 },
      { province: '广东省', warehouses: 1, coldRooms: 0 },
      { province: 'Atlantis', warehouses: 1, coldRooms: 0 },
    ];
    expect(provincesByCode(rows, 'en')).toEqual([
      { code: '310000', name: 'Shanghai', warehouses: 3, coldRooms: 4 },
      { code: '440000', name: 'Guangdong', warehouses: 1, coldRooms: 0 },
      { code: null, name: 'Atlantis', warehouses: 1, coldRooms: 0 },
    ]);
    expect(provincesByCode(rows, 'zh').map((p) => p.name)).toEqual(['上海', '广东', 'Atlantis']);
  });

  it('lists the local days ending today', () => {
    // 2026-03-01 23:30 UTC is already 2 March in Shanghai.
    expect(lastDays(new Date('2026-03-01T23:30:00Z'), 'Asia/Shanghai', 3)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    expect(lastDays(new Date('2026-03-01T23:30:00Z'), 'UTC', 2)).toEqual(['2026-02-28', '2026-03-01']);
  });

  it('groups levels of several organisations by code, the own names winning', () => {
    const row = (orgId: string, code: string, nameEn: string, active: number, priority = 1) => ({ orgId, code, nameZh: `${nameEn}-zh`, nameEn, color: orgId === 'own' ? '#f00' : '#00f', priority, active });
    expect(levelsByCode([row('child', 'L1', 'Child', 2), row('own', 'L1', 'Own', 1), row('own', 'L2', 'Two', 0, 2)], 'own', 'en')).toEqual([
      { code: 'L1', name: 'Own', color: '#f00', priority: 1, count: 3 },
      { code: 'L2', name: 'Two', color: '#f00', priority: 2, count: 0 },
    ]);
  });
});

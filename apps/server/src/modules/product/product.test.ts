// Product profiles, batches and excursion budgets through the API, worked by hand: a vaccine
// profile (2-8 °C, 60 min above, 0 min below, never above 25 °C, alert at 80 %), a batch carried by
// a task (20 min above) and then stored in a cold room (30 min above): 50 of 60 minutes used, 10
// left, in alert; the alarm job raises the alert once, and the exhaustion once after a second task
// adds 20 minutes more. Validation in both languages; another organisation neither reads nor
// changes profiles, batches or a task's batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, and, sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import type { BatchDetail, BatchRow, ProfileRow, TaskBatch } from '@iotc/shared/product';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarms, assets, deviceBindings, orgs, transportTaskDevices, transportTasks, warehouseRecords } from '../../db/schema.ts';
import { HAS_PDFTOTEXT, pdfText } from '../../test/pdf-text.ts';
import type { ShipmentReport } from '@iotc/shared/report';
import { budgetAlarmTick } from './job.ts';

const PROFILES = '/api/iot/v2/product-profiles';
const BATCHES = '/api/iot/v2/product-batches';
type Lang = 'zh-CN' | 'en-US';

let t: TestApp;
let admin: string;
let rival: string;
let demoOrg: string;
const MIN = 60_000;
const T0 = Date.parse('2026-11-20T08:00:00Z');
const at = (m: number) => new Date(T0 + m * MIN);

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown, lang: Lang = 'en-US') => call<T>(t.app, { method, url, token, body, lang });
function expectError(res: { status: number; body: { errorcode: string | null; errormsg: string | null } }, status: number, code: ErrorCode) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.errorcode).toBe(code);
}

async function device(deviceId: string): Promise<DeviceWithSecret> {
  const res = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId, name: deviceId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
/** Readings at [minute, °C]. */
async function readings(d: DeviceWithSecret, pairs: [number, number][]) {
  const rows = pairs.map(([m, temperature]) => ({ time: at(m).toISOString(), temperature }));
  await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, raw, sensors)
    select ${demoOrg}::uuid, ${d.id}::uuid, time, '{}'::jsonb, jsonb_build_object('temperature', temperature)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(time timestamptz, temperature float8)`);
}
async function task(code: string, d: DeviceWithSecret, fromMin: number, toMin: number) {
  const db = t.app.database.db;
  const [row] = await db
    .insert(transportTasks)
    .values({
      orgId: demoOrg,
      code,
      status: 'arrived',
      goodsName: 'Vaccine',
      originName: 'A',
      originLat: 31,
      originLon: 121,
      originRadiusM: 500,
      destinationName: 'B',
      destinationLat: 31.1,
      destinationLon: 121.1,
      destinationRadiusM: 500,
      plannedDistanceM: 10_000,
      settings: {},
      startedAt: at(fromMin),
      arrivedAt: at(toMin),
      createdBy: 'test',
    })
    .returning();
  await db.insert(transportTaskDevices).values({ taskId: row!.id, deviceRef: d.id, position: 0 });
  return row!;
}

const vaccine = { name: 'Vaccine 2-8', lowC: 2, highC: 8, aboveBudgetMin: 60, belowBudgetMin: 0, absoluteMaxC: 25, alertPercent: 80 };
let profile: ProfileRow;
let batchId: string;
let task1: typeof transportTasks.$inferSelect;
let logger2: DeviceWithSecret;

beforeAll(async () => {
  t = await testApp({ productBudgetMs: 0 });
  const db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'product-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'product-admin', DEMO_PASSWORD);
  await createTenantUser(db, { code: 'product-rival', account: 'product-rival', password: DEMO_PASSWORD, permissions: ['transport:read', 'transport:write'] });
  rival = await login(t.app, 'product-rival', DEMO_PASSWORD);

  // Task 1, 08:00-10:00, its logger every 10 minutes: 5, 9 (08:10), 10.5 (08:20), then 6.
  const logger1 = await device('BUDGET-L1');
  await readings(logger1, [[0, 5], [10, 9], [20, 10.5], [30, 6], [60, 6], [90, 6]]);
  task1 = await task('BUDGET-T1', logger1, 0, 120);

  // Cold room with its logger every 30 minutes: 10:30 4, 11:00 8.5, then 5 (the batch is in from 10:30 to 14:00).
  const [room] = await db.insert(assets).values({ orgId: demoOrg, kind: 'cold_room', code: 'CR-BUDGET', name: 'Cold room budget', attrs: {} }).returning();
  const roomLogger = await device('BUDGET-R1');
  await db.insert(deviceBindings).values({ orgId: demoOrg, deviceRef: roomLogger.id, deviceId: roomLogger.deviceId, assetRef: room!.id, assetKind: 'cold_room', assetCode: room!.code, assetName: room!.name, boundAt: at(-1440), boundBy: 'test' });
  await readings(roomLogger, [[150, 4], [180, 8.5], [210, 5], [240, 5], [270, 5], [300, 5], [330, 5], [360, 5]]);
  const rec = { orgId: demoOrg, warehouseCode: 'WH', warehouseName: 'Warehouse', roomRef: room!.id, roomKind: 'cold_room' as const, roomCode: room!.code, roomName: room!.name, goodsName: 'Vaccine', batchNo: 'VAX-001', handler: 'h', createdBy: 'test', auditStatus: 'approved' as const };
  await db.insert(warehouseRecords).values([
    { ...rec, direction: 'in', quantity: 100, time: at(150) },
    { ...rec, direction: 'out', quantity: 100, time: at(360) },
    // A pending record does not count.
    { ...rec, direction: 'in', quantity: 5, time: at(400), auditStatus: 'pending' },
  ]);
  logger2 = await device('BUDGET-L2');
});
afterAll(async () => t?.close());

describe('product profiles', () => {
  it('are made, listed and changed; a bad range is refused in both languages; a name once per organisation', async () => {
    const res = await api<ProfileRow>('POST', PROFILES, admin, vaccine);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    profile = res.body.data!;
    expect(profile).toMatchObject({ ...vaccine, absoluteMinC: null, batches: 0, remark: '' });
    expectError(await api('POST', PROFILES, admin, vaccine), 409, 'PRODUCT_NAME_TAKEN');
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const bad = await api('POST', PROFILES, admin, { ...vaccine, name: 'Bad', lowC: 9 }, lang);
      expectError(bad, 400, 'PRODUCT_RANGE_ORDER');
      expect(bad.body.errormsg).toContain(errorText('PRODUCT_RANGE_ORDER', lang === 'zh-CN' ? 'zh' : 'en'));
    }
    expectError(await api('POST', PROFILES, admin, { ...vaccine, name: 'Bad', absoluteMaxC: 7 }), 400, 'PRODUCT_ABS_MAX_BELOW_HIGH');
    expectError(await api('POST', PROFILES, admin, { ...vaccine, name: 'Bad', alertPercent: 100 }), 400, 'PRODUCT_ALERT_PERCENT');
    const changed = await api<ProfileRow>('PUT', `${PROFILES}/${profile.id}`, admin, { ...vaccine, remark: 'WHO PQS' });
    expect(changed.body.data).toMatchObject({ remark: 'WHO PQS' });
    const list = await api<Page<ProfileRow>>('GET', `${PROFILES}?keyword=vaccine`, admin);
    expect(list.body.data!.rows.map((r) => r.name)).toEqual(['Vaccine 2-8']);
  });

  it('another organisation neither reads nor changes them', async () => {
    expect((await api<Page<ProfileRow>>('GET', PROFILES, rival)).body.data!.total).toBe(0);
    expectError(await api('GET', `${PROFILES}/${profile.id}`, rival), 404, 'NOT_FOUND');
    expectError(await api('PUT', `${PROFILES}/${profile.id}`, rival, vaccine), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `${PROFILES}/${profile.id}`, rival), 404, 'NOT_FOUND');
    // Nor attaches it to a batch of its own.
    expectError(await api('POST', BATCHES, rival, { batchNo: 'R-1', profileId: profile.id }), 400, 'PRODUCT_PROFILE_NOT_FOUND');
  });
});

describe('a batch through a task and a cold room', () => {
  it('is attached to a task, and its budget is 50 of 60 minutes above used, 10 left, in alert', async () => {
    const set = await api<TaskBatch[]>('PUT', `/api/iot/v2/transport-tasks/${task1.id}/batches`, admin, { batches: [{ batchNo: 'VAX-001', goodsName: 'Vaccine', profileId: profile.id }] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data!.map((b) => b.batchNo)).toEqual(['VAX-001']);
    batchId = set.body.data![0]!.id;
    // Task 1: 9 stands 08:10-08:20, 10.5 stands 08:20-08:30 → 20 min. Cold room: 8.5 stands 11:00-11:30 → 30 min.
    const detail = (await api<BatchDetail>('GET', `${BATCHES}/${batchId}`, admin)).body.data!;
    expect(detail.periods.map((p) => [p.kind, p.label, p.aboveMin, p.belowMin])).toEqual([
      ['task', 'BUDGET-T1', 20, 0],
      ['storage', 'Warehouse / Cold room budget', 30, 0],
    ]);
    expect(detail.periods[1]).toMatchObject({ from: at(150).toISOString(), to: at(360).toISOString(), devices: ['BUDGET-R1'] });
    expect(detail.budget!.above).toMatchObject({ budgetMin: 60, usedMin: 50, leftMin: 10, state: 'alert', device: 'BUDGET-R1' });
    expect(detail.budget!.below).toMatchObject({ usedMin: 0, state: 'ok' });
    expect(detail.budget!.absoluteMax).toMatchObject({ limit: 25, crossed: false, extreme: { value: 10.5, device: 'BUDGET-L1' } });
    const list = await api<Page<BatchRow>>('GET', `${BATCHES}?keyword=VAX`, admin);
    expect(list.body.data!.rows[0]).toMatchObject({ batchNo: 'VAX-001', tasks: 1, budget: { above: { usedMin: 50, leftMin: 10 } } });
    const onTask = await api<TaskBatch[]>('GET', `/api/iot/v2/transport-tasks/${task1.id}/batches`, admin);
    expect(onTask.body.data![0]!.budget!.above.leftMin).toBe(10);
    // The profile is in use now.
    expectError(await api('DELETE', `${PROFILES}/${profile.id}`, admin), 409, 'PRODUCT_PROFILE_IN_USE');
  });

  it("the task's shipment report shows each batch's profile, budget used and left (JSON, and the PDF in both languages)", async () => {
    const res = await api<ShipmentReport>('GET', `/api/iot/v2/reports/shipment/${task1.id}`, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data!.batches).toEqual([expect.objectContaining({ batchNo: 'VAX-001', profile: expect.objectContaining({ name: 'Vaccine 2-8' }), budget: expect.objectContaining({ above: expect.objectContaining({ usedMin: 50, leftMin: 10 }) }) })]);
    if (!HAS_PDFTOTEXT) return;
    for (const [lang, expected] of [
      ['en-US', 'above: used 50 of 60 min, left 10 min (alert)'],
      ['zh-CN', '超温：已用 50/60 分钟，剩余 10 分钟（预警）'],
    ] as const) {
      const pdf = await t.app.inject({ method: 'GET', url: `/api/iot/v2/reports/shipment/${task1.id}?format=pdf`, headers: { access_token: admin, language: lang, timezone: 'Asia/Shanghai' } });
      expect(pdf.statusCode).toBe(200);
      const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
      expect(text).toContain('VAX-001');
      expect(text).toContain(expected);
    }
  });

  it('another organisation neither reads the batch nor sets the task\'s batches', async () => {
    expectError(await api('GET', `${BATCHES}/${batchId}`, rival), 404, 'NOT_FOUND');
    expect((await api<Page<BatchRow>>('GET', BATCHES, rival)).body.data!.total).toBe(0);
    expectError(await api('PUT', `${BATCHES}/${batchId}`, rival, { batchNo: 'X' }), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `${BATCHES}/${batchId}`, rival), 404, 'NOT_FOUND');
    expectError(await api('PUT', `/api/iot/v2/transport-tasks/${task1.id}/batches`, rival, { batches: [] }), 404, 'NOT_FOUND');
    expectError(await api('GET', `/api/iot/v2/transport-tasks/${task1.id}/batches`, rival), 404, 'NOT_FOUND');
  });

  it('raises the alert once, and the exhaustion once when a second task adds 20 minutes', async () => {
    const db = t.app.database.db;
    const tick = () => t.app.lease('product budgets', (tx) => budgetAlarmTick(tx), [] as string[]);
    const budgetAlarms = () => db.select().from(alarms).where(and(eq(alarms.orgId, demoOrg), sql`${alarms.ruleId} like 'budget-%'`));
    const first = await tick();
    expect(first).toHaveLength(1);
    expect(await budgetAlarms()).toEqual([expect.objectContaining({ ruleId: 'budget-above-alert', type: 'temp_high', policyName: 'VAX-001 · Vaccine 2-8', threshold: 8, status: 'active' })]);
    expect(await tick()).toEqual([]);

    // Task 2, 15:00-16:00: 12 °C from 15:00 to 15:20 → 20 more minutes: 70 of 60, exhausted.
    const task2 = await task('BUDGET-T2', logger2, 420, 480);
    await readings(logger2, [[420, 12], [430, 12], [440, 5], [470, 5]]);
    await api('PUT', `/api/iot/v2/transport-tasks/${task2.id}/batches`, admin, { batches: [{ batchNo: 'VAX-001' }] });
    const second = await tick();
    expect(second).toHaveLength(1);
    const all = await budgetAlarms();
    expect(all.map((a) => a.ruleId).sort()).toEqual(['budget-above-alert', 'budget-above-exhausted']);
    expect(await tick()).toEqual([]);
    const detail = (await api<BatchDetail>('GET', `${BATCHES}/${batchId}`, admin)).body.data!;
    expect(detail.budget!.above).toMatchObject({ usedMin: 70, leftMin: 0, state: 'exhausted' });
    expect(Object.keys(detail.raised).sort()).toEqual(['above:alert', 'above:exhausted']);
  });
});

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
import { alarms, assets, deviceBindings, orgs, productBatches, productProfiles, productTaskProfiles, transportTaskDevices, transportTasks, warehouseRecords } from '../../db/schema.ts';
import { HAS_PDFTOTEXT, pdfText } from '../../test/pdf-text.ts';
import type { ShipmentReport } from '@iotc/shared/report';
import type { MenuItem } from '@iotc/shared/auth';
import type { TaskDetail } from '@iotc/shared/transport';
import { budgetAlarmTick } from './job.ts';
import { computeBudget } from './budget.ts';
import { budgetProfileOf } from './service.ts';

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
async function task(code: string, d: DeviceWithSecret, fromMin: number, toMin: number, status: 'arrived' | 'completed' = 'arrived') {
  const db = t.app.database.db;
  const [row] = await db
    .insert(transportTasks)
    .values({
      orgId: demoOrg,
      code,
      status,
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
  await createTenantUser(db, { code: 'product-rival', account: 'product-rival', password: DEMO_PASSWORD, permissions: ['transport:read', 'transport:write', 'product:read', 'product:write'] });
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

/** A cold room with its logger bound since the day before T0. */
async function room(code: string, loggerId: string) {
  const db = t.app.database.db;
  const [r] = await db.insert(assets).values({ orgId: demoOrg, kind: 'cold_room', code, name: `Room ${code}`, attrs: {} }).returning();
  const logger = await device(loggerId);
  await db.insert(deviceBindings).values({ orgId: demoOrg, deviceRef: logger.id, deviceId: logger.deviceId, assetRef: r!.id, assetKind: 'cold_room', assetCode: r!.code, assetName: r!.name, boundAt: at(-1440), boundBy: 'test' });
  const rec = { orgId: demoOrg, warehouseCode: 'WH', warehouseName: 'Warehouse', roomRef: r!.id, roomKind: 'cold_room' as const, roomCode: r!.code, roomName: r!.name, goodsName: 'Vaccine', handler: 'h', createdBy: 'test', auditStatus: 'approved' as const };
  return { room: r!, logger, rec };
}

describe("a task's product profile", () => {
  let lab: DeviceWithSecret;
  let made: TaskDetail;
  let plain: TaskDetail;
  const shanghai = { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 };
  const hangzhou = { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 };

  it('is picked in the task body, shown on the task, kept by a copy, and only one of the caller\'s organisations', async () => {
    lab = await device('BUDGET-TP');
    const res = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', admin, { goodsName: 'Vaccine', deviceIds: [lab.id], origin: shanghai, destination: hangzhou, profileId: profile.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    made = res.body.data!;
    expect(made.profile).toEqual({ id: profile.id, name: 'Vaccine 2-8' });
    expect((await api<TaskDetail>('GET', `/api/iot/v2/transport-tasks/${made.id}`, admin)).body.data!.profile?.name).toBe('Vaccine 2-8');
    const copy = await api<TaskDetail>('POST', `/api/iot/v2/transport-tasks/${made.id}/copy`, admin);
    expect(copy.body.data!.profile?.id).toBe(profile.id);
    // Taken off by an edit, then put back.
    const body = { goodsName: 'Vaccine', deviceIds: [lab.id], origin: shanghai, destination: hangzhou };
    plain = (await api<TaskDetail>('PUT', `/api/iot/v2/transport-tasks/${copy.body.data!.id}`, admin, { ...body, profileId: null })).body.data!;
    expect(plain.profile).toBeNull();
    // Another organisation's profile is refused, in both languages.
    const rivalProfile = (await api<ProfileRow>('POST', PROFILES, rival, { ...vaccine, name: 'Rival profile' })).body.data!;
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const bad = await api('PUT', `/api/iot/v2/transport-tasks/${made.id}`, admin, { ...body, profileId: rivalProfile.id }, lang);
      expectError(bad, 400, 'PRODUCT_PROFILE_NOT_FOUND');
      expect(bad.body.errormsg).toContain(errorText('PRODUCT_PROFILE_NOT_FOUND', lang === 'zh-CN' ? 'zh' : 'en'));
    }
  });

  it('the shipment report judges the trip alone against it: 20 of 60 min above used, 40 left; JSON and PDF in both languages', async () => {
    // Task 1 (08:00-10:00) carries the profile now: its own 20 minutes above (08:10-08:30), not the batch's 70.
    await t.app.database.db.insert(productTaskProfiles).values({ taskId: task1.id, profileId: profile.id });
    const res = await api<ShipmentReport>('GET', `/api/iot/v2/reports/shipment/${task1.id}`, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const trip = res.body.data!.tripBudget!;
    expect(trip.profile.name).toBe('Vaccine 2-8');
    expect(trip.budget.above).toMatchObject({ budgetMin: 60, usedMin: 20, leftMin: 40, state: 'ok' });
    expect(trip.budget.below).toMatchObject({ budgetMin: 0, usedMin: 0, leftMin: 0, state: 'ok' });
    expect(trip.budget.absoluteMax).toMatchObject({ limit: 25, crossed: false, extreme: { value: 10.5 } });
    expect(trip.budget.absoluteMin.extreme?.value).toBe(5);
    // A task without a profile has no trip budget.
    const none = await api<ShipmentReport>('GET', `/api/iot/v2/reports/shipment/${plain.id}`, admin);
    expect(none.body.data!.tripBudget ?? null).toBeNull();
    if (!HAS_PDFTOTEXT) return;
    for (const [lang, label, expected] of [
      ['en-US', 'Product profile (this trip)', 'above: used 20 of 60 min, left 40 min (within budget)'],
      ['zh-CN', '产品档案（本次运输）', '超温：已用 20/60 分钟，剩余 40 分钟（预算内）'],
    ] as const) {
      const pdf = await t.app.inject({ method: 'GET', url: `/api/iot/v2/reports/shipment/${task1.id}?format=pdf`, headers: { access_token: admin, language: lang, timezone: 'Asia/Shanghai' } });
      expect(pdf.statusCode).toBe(200);
      const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
      // (A line may break inside a Chinese phrase: compared without spaces.)
      expect(text.replace(/\s/g, '')).toContain(label.replace(/\s/g, ''));
      expect(text.replace(/\s/g, '')).toContain(expected.replace(/\s/g, ''));
    }
  });

  it('a batch on the task without its own profile takes the task\'s', async () => {
    // VAX-002 only travelled on task 1: 20 minutes above under the task's profile.
    await api('PUT', `/api/iot/v2/transport-tasks/${task1.id}/batches`, admin, { batches: [{ batchNo: 'VAX-001' }, { batchNo: 'VAX-002', goodsName: 'Vaccine' }] });
    const list = await api<Page<BatchRow>>('GET', `${BATCHES}?keyword=VAX-002`, admin);
    expect(list.body.data!.rows[0]).toMatchObject({ batchNo: 'VAX-002', profileFrom: 'task', profile: { id: profile.id }, budget: { above: { usedMin: 20, leftMin: 40 } } });
    // VAX-001 keeps its own.
    expect((await api<Page<BatchRow>>('GET', `${BATCHES}?keyword=VAX-001`, admin)).body.data!.rows[0]!.profileFrom).toBe('batch');
    // The task's profile off: VAX-002 has none.
    await t.app.database.db.delete(productTaskProfiles).where(eq(productTaskProfiles.taskId, task1.id));
    await t.app.database.db.update(productBatches).set({ computedAt: null }).where(eq(productBatches.batchNo, 'VAX-002'));
    expect((await api<Page<BatchRow>>('GET', `${BATCHES}?keyword=VAX-002`, admin)).body.data!.rows[0]).toMatchObject({ profile: null, profileFrom: null, budget: null });
    await t.app.database.db.insert(productTaskProfiles).values({ taskId: task1.id, profileId: profile.id });
  });

  it('deleting it while a task or a batch carries it is refused, naming them, in both languages', async () => {
    const taskOnly = (await api<ProfileRow>('POST', PROFILES, admin, { ...vaccine, name: 'Task only' })).body.data!;
    const body = { goodsName: 'Vaccine', deviceIds: [lab.id], origin: shanghai, destination: hangzhou };
    await api('PUT', `/api/iot/v2/transport-tasks/${made.id}`, admin, { ...body, profileId: taskOnly.id });
    for (const [lang, text] of [
      ['en-US', `The product profile is in use and cannot be deleted: used by transport tasks ${made.code}`],
      ['zh-CN', `产品档案正在使用中，不能删除：正在使用它的有运输任务 ${made.code}`],
    ] as const) {
      const res = await api('DELETE', `${PROFILES}/${taskOnly.id}`, admin, undefined, lang);
      expectError(res, 409, 'PRODUCT_PROFILE_IN_USE');
      expect(res.body.errormsg).toBe(text);
    }
    const both = await api('DELETE', `${PROFILES}/${profile.id}`, admin);
    expectError(both, 409, 'PRODUCT_PROFILE_IN_USE');
    expect(both.body.errormsg).toContain('used by batches VAX-001; transport tasks ');
    expect(both.body.errormsg).toContain(task1.code);
    // Free again: deleted.
    await api('PUT', `/api/iot/v2/transport-tasks/${made.id}`, admin, { ...body, profileId: null });
    expect((await api('DELETE', `${PROFILES}/${taskOnly.id}`, admin)).status).toBe(200);
  });
});

describe('a batch in two places at once', () => {
  it('counts the overlapping minutes once: task 10:00-11:00 above 10:20-10:50, storage 10:40-12:00 above 10:40-11:10 → 50 min, not 60', async () => {
    // Worked by hand (minutes after 08:00): task A 120..180, its logger every 10 min:
    //   10:00 5, 10:10 5, 10:20 9, 10:30 9, 10:40 9, 10:50 5 → above 10:20-10:50 (30 min).
    // The batch's 'in' record at 10:40 (before the truck arrived at 11:00), out at 12:00; the room's
    //   logger: 10:40 9, 10:50 9, 11:00 9, 11:10 5, then 5 → above 10:40-11:10 (30 min).
    // Union 10:20-11:10 = 50 min of 60: 10 left, alert (≥ 48). Each period shows its own 30.
    const la = await device('BUDGET-LA');
    await readings(la, [[120, 5], [130, 5], [140, 9], [150, 9], [160, 9], [170, 5]]);
    const taskA = await task('BUDGET-TA', la, 120, 180, 'completed');
    const { logger, rec } = await room('CR-OVERLAP', 'BUDGET-RO');
    await readings(logger, [[160, 9], [170, 9], [180, 9], [190, 5], [200, 5], [210, 5], [220, 5], [230, 5]]);
    await t.app.database.db.insert(warehouseRecords).values([
      { ...rec, batchNo: 'VAX-OVL', direction: 'in', quantity: 10, time: at(160) },
      { ...rec, batchNo: 'VAX-OVL', direction: 'out', quantity: 10, time: at(240) },
    ]);
    await api('PUT', `/api/iot/v2/transport-tasks/${taskA.id}/batches`, admin, { batches: [{ batchNo: 'VAX-OVL', profileId: profile.id }] });
    const id = (await api<Page<BatchRow>>('GET', `${BATCHES}?keyword=VAX-OVL`, admin)).body.data!.rows[0]!.id;
    const detail = (await api<BatchDetail>('GET', `${BATCHES}/${id}`, admin)).body.data!;
    expect(detail.periods.map((p) => [p.kind, p.aboveMin, p.devices])).toEqual([
      ['task', 30, ['BUDGET-LA']],
      ['storage', 30, ['BUDGET-RO']],
    ]);
    expect(detail.budget!.above).toMatchObject({ usedMin: 50, leftMin: 10, state: 'alert' });
  });

  it('a stay still open runs until the `now` given, not the wall clock; two rooms each read their own logger', async () => {
    // VAX-OPEN: in room P at 18:00 (minute 600), moved to room Q at 19:00 (660, out of P and into Q), still in Q.
    // P's logger: 18:00 5, 18:30 9 (→ above 18:30-19:00, 30 min). Q's logger: 19:00 9 (stands at most 30 min).
    // At now = 19:10: Q's 9 stands 19:00-19:10 = 10 min → 40 min above. At now = 20:00: capped at 30 → 60.
    const p = await room('CR-P', 'BUDGET-RP');
    const q = await room('CR-Q', 'BUDGET-RQ');
    await readings(p.logger, [[600, 5], [630, 9]]);
    await readings(q.logger, [[660, 9]]);
    await t.app.database.db.insert(warehouseRecords).values([
      { ...p.rec, batchNo: 'VAX-OPEN', direction: 'in', quantity: 10, time: at(600) },
      { ...p.rec, batchNo: 'VAX-OPEN', direction: 'out', quantity: 10, time: at(660) },
      { ...q.rec, batchNo: 'VAX-OPEN', direction: 'in', quantity: 10, time: at(660) },
    ]);
    const db = t.app.database.db;
    await api('POST', BATCHES, admin, { batchNo: 'VAX-OPEN', profileId: profile.id });
    const [b] = await db.select().from(productBatches).where(eq(productBatches.batchNo, 'VAX-OPEN'));
    const [pr] = await db.select().from(productProfiles).where(eq(productProfiles.id, profile.id));
    const early = await computeBudget(db, b!, budgetProfileOf(pr!), at(670).getTime());
    expect(early.periods.map((x) => [x.label, x.to, x.devices, x.aboveMin])).toEqual([
      ['Warehouse / Room CR-P', at(660).toISOString(), ['BUDGET-RP'], 30],
      ['Warehouse / Room CR-Q', null, ['BUDGET-RQ'], 10],
    ]);
    expect(early.budget.above.usedMin).toBe(40);
    expect((await computeBudget(db, b!, budgetProfileOf(pr!), at(720).getTime())).budget.above.usedMin).toBe(60);
  });
});

describe('the batch list reads the stored budgets', () => {
  it('shows what the job stored, not a computation on read; the page computes afresh; a change makes it stale', async () => {
    const db = t.app.database.db;
    const vax1 = () => api<Page<BatchRow>>('GET', `${BATCHES}?keyword=VAX-001`, admin).then((r) => r.body.data!.rows[0]!);
    // Stored as computed: 70 min above (task 1, the room, task 2).
    const stored = await vax1();
    expect(stored.budget!.above.usedMin).toBe(70);
    expect(stored.computedAt).not.toBeNull();
    // 10 more minutes above on task 2 (a late reading of 12 °C at 15:40 stands until the 5 °C at 15:50): the list still
    // shows the stored 70 with the same time; the batch's page computes 80 and stores it; the list then shows 80.
    await readings(logger2, [[460, 12]]);
    const again = await vax1();
    expect(again.budget!.above.usedMin).toBe(70);
    expect(again.computedAt).toBe(stored.computedAt);
    const detail = (await api<BatchDetail>('GET', `${BATCHES}/${batchId}`, admin)).body.data!;
    expect(detail.budget!.above.usedMin).toBe(80);
    expect((await vax1()).budget!.above.usedMin).toBe(80);
    // Stale after a change the stored value does not know: a direct write of an old value with an old time …
    await db.update(productBatches).set({ used: stored.budget as unknown as Record<string, unknown>, computedAt: new Date(Date.parse(stored.computedAt!)) }).where(eq(productBatches.id, batchId));
    expect((await vax1()).budget!.above.usedMin).toBe(70);
    // … then the profile changes (after it was stored): computed again under the new profile (budget 100).
    await api('PUT', `${PROFILES}/${profile.id}`, admin, { ...vaccine, aboveBudgetMin: 100, remark: 'WHO PQS' });
    expect((await vax1()).budget!.above).toMatchObject({ usedMin: 80, budgetMin: 100, leftMin: 20 });
    // … and leaving a task clears it: without task 2 the batch has task 1's 20 and the room's 30 = 50.
    const task2 = (await db.select().from(transportTasks).where(eq(transportTasks.code, 'BUDGET-T2')))[0]!;
    await api('PUT', `/api/iot/v2/transport-tasks/${task2.id}/batches`, admin, { batches: [] });
    expect((await vax1()).budget!.above.usedMin).toBe(50);
  });
});

describe('product permissions', () => {
  it('without product:read and product:write the routes answer 403 and the menu has no product screens; the organisation administrator has them', async () => {
    const db = t.app.database.db;
    const menuIds = ['102-warehouse-ops-stock', '102-warehouse-ops-batches', '102-warehouse-ops-profiles'];
    await createTenantUser(db, { code: 'product-noperm', account: 'product-noperm', password: DEMO_PASSWORD, permissions: ['transport:read', 'transport:write', 'warehouse:read'], menuIds });
    await createTenantUser(db, { code: 'product-reader', account: 'product-reader', password: DEMO_PASSWORD, permissions: ['product:read', 'warehouse:read'], menuIds });
    const none = await login(t.app, 'product-noperm', DEMO_PASSWORD);
    const reader = await login(t.app, 'product-reader', DEMO_PASSWORD);
    for (const lang of ['zh-CN', 'en-US'] as const) {
      expectError(await api('GET', PROFILES, none, undefined, lang), 403, 'NO_PERMISSION');
      expectError(await api('GET', BATCHES, none, undefined, lang), 403, 'NO_PERMISSION');
    }
    expectError(await api('POST', PROFILES, none, { ...vaccine, name: 'No' }), 403, 'NO_PERMISSION');
    expectError(await api('GET', `/api/iot/v2/transport-tasks/${task1.id}/batches`, none), 403, 'NO_PERMISSION');
    // Reading without writing.
    expect((await api('GET', PROFILES, reader)).status).toBe(200);
    expectError(await api('POST', PROFILES, reader, { ...vaccine, name: 'No' }), 403, 'NO_PERMISSION');
    const urls = async (token: string) => {
      const res = await call<MenuItem[]>(t.app, { method: 'POST', url: '/iot-cloud-auth/menu/v1/loadMenu', token, body: { type: 102 } });
      const out: string[] = [];
      const walk = (items: MenuItem[]) => items.forEach((m) => (m.url && out.push(m.url), walk(m.children)));
      walk(res.body.data!);
      return out;
    };
    const noneUrls = await urls(none);
    expect(noneUrls).toContain('view/warehouse/stock');
    expect(noneUrls).not.toContain('view/warehouse/batches');
    expect(noneUrls).not.toContain('view/warehouse/profiles');
    expect(await urls(reader)).toEqual(expect.arrayContaining(['view/warehouse/batches', 'view/warehouse/profiles']));
    expect(await urls(admin)).toEqual(expect.arrayContaining(['view/warehouse/batches', 'view/warehouse/profiles']));
  });
});

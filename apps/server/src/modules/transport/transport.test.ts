// Transport tasks and templates through the API: templates (CRUD, a name once per organisation,
// a level of the organisation, deleting leaves the tasks' settings); tasks: every validation error
// in en and zh, the code of the day numbered per organisation, filters, status tabs and counts,
// abnormal from a real alarm of the task's own policy (and the policy ending it on completion),
// late, every move allowed or refused, the cancel reason, closed tasks, busy devices, copy, the
// story, export in both languages, import (all rows or none), the monitor with live progress,
// the recogniser's `recognised` and `liveTasksOfDevices`, and organisation isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { AssetRow, ImportResult } from '@iotc/shared/asset';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import { TASK_STATUSES, TASK_TRANSITIONS, type TaskCounts, type TaskDetail, type TaskEventRow, type TaskRow, type TaskStatus, type TemplateRow } from '@iotc/shared/transport';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmPolicies, orgs, transportTasks } from '../../db/schema.ts';

const TASKS = '/api/iot/v2/transport-tasks';
const TEMPLATES = '/api/iot/v2/transport-templates';
const CODE = /^TT-(\d{8})-(\d{4})$/;
type Lang = 'zh-CN' | 'en-US';

let t: TestApp;
let admin: string;
/** The seeded demo operator (transport:read and transport:write). */
let operator: string;
/** A user of a child organisation of demo. */
let east: string;
let rival: string;
let ids: { demoOrg: string; eastOrg: string; rivalOrg: string };
let level: string;
let levelCode: string;
let rivalLevel: string;
let rivalDevice: DeviceWithSecret;
let rivalVehicle: AssetRow;
let rivalTemplate: TemplateRow;
let vehicle: AssetRow;
let warehouse: AssetRow;
let deviceNo = 0;

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown, lang: Lang = 'en-US') => call<T>(t.app, { method, url, token, body, lang });
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
const today = () => new Date().toISOString().slice(0, 10).replaceAll('-', '');

async function device(token = admin, orgId?: string): Promise<DeviceWithSecret> {
  const deviceId = `TT${String(++deviceNo).padStart(8, '0')}`;
  const res = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', token, { deviceId, name: `Tracker ${deviceNo}`, orgId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
/** One report of the device: position, speed, temperature (°C), `ago` ms before now. */
async function report(d: DeviceWithSecret, r: { lat: number; lon: number; speed?: number; temp?: number; ago?: number }) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify({
      deviceId: d.deviceId,
      time: new Date(Date.now() - (r.ago ?? 60_000)).toISOString(),
      lat: r.lat,
      lon: r.lon,
      speed: r.speed ?? 0,
      ...(r.temp !== undefined ? { extraData: JSON.stringify({ 3: { temp: Math.round(r.temp * 10) } }) } : {}),
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
}

const shanghai = { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 };
const hangzhou = { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 };

function taskBody(devices: string[], over: Record<string, unknown> = {}): Record<string, unknown> {
  return { goodsName: 'Vaccines', deviceIds: devices, origin: shanghai, destination: hangzhou, ...over };
}
async function create(body: Record<string, unknown>, token = admin, lang: Lang = 'en-US') {
  return api<TaskDetail>('POST', TASKS, token, body, lang);
}
async function made(body: Record<string, unknown>, token = admin): Promise<TaskDetail> {
  const res = await create(body, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function move(id: string, to: TaskStatus, note = '', token = admin, lang: Lang = 'en-US') {
  return api<TaskDetail>('POST', `${TASKS}/${id}/transition`, token, { to, note }, lang);
}
async function moved(id: string, to: TaskStatus, note = ''): Promise<TaskDetail> {
  const res = await move(id, to, note || (to === 'cancelled' ? 'not needed' : ''));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
/** A task with its own device, moved to `status` by hand. */
async function taskIn(status: TaskStatus, over: Record<string, unknown> = {}): Promise<TaskDetail> {
  const d = await device();
  const task = await made(taskBody([d.id], over));
  const path: Record<TaskStatus, TaskStatus[]> = { pending: [], in_transit: ['in_transit'], arrived: ['in_transit', 'arrived'], completed: ['in_transit', 'completed'], cancelled: ['cancelled'] };
  let last = task;
  for (const s of path[status]) last = await moved(task.id, s);
  return last;
}
async function list(query: string, token = admin): Promise<Page<TaskRow>> {
  const res = await api<Page<TaskRow>>('GET', `${TASKS}?${query}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function get(id: string, token = admin): Promise<TaskDetail> {
  const res = await api<TaskDetail>('GET', `${TASKS}/${id}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function story(id: string): Promise<TaskEventRow[]> {
  return (await api<TaskEventRow[]>('GET', `${TASKS}/${id}/events`, admin)).body.data!;
}
function expectError(res: { status: number; body: { errorcode: string | null; errormsg: string | null } }, status: number, code: ErrorCode, lang: Lang = 'en-US') {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.errorcode).toBe(code);
  expect(res.body.errormsg).toBe(errorText(code, lang === 'zh-CN' ? 'zh' : 'en'));
}
async function policyOf(taskId: string) {
  const [p] = await t.app.database.db.select().from(alarmPolicies).where(eq(alarmPolicies.taskId, taskId));
  return p;
}
async function alarmsOf(d: DeviceWithSecret): Promise<AlarmRow[]> {
  return (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${d.id}&size=100`, admin)).body.data!.rows;
}
async function templateOf(body: Record<string, unknown>, token = admin) {
  return api<TemplateRow>('POST', TEMPLATES, token, { origin: shanghai, destination: hangzhou, ...body });
}
async function sheet(rows: (string | number)[][], headers: string[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('tasks');
  ws.addRow(headers);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'tt-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  const eastTenant = await createTenantUser(db, { code: 'tt-east', account: 'tt-east', password: DEMO_PASSWORD, orgName: 'Demo East', permissions: ['transport:read', 'transport:write', 'device:read', 'device:write'] });
  await db.update(orgs).set({ parentId: demoOrg }).where(eq(orgs.id, eastTenant.org.id));
  const rivalTenant = await createTenantUser(db, {
    code: 'tt-rival',
    account: 'tt-rival',
    password: DEMO_PASSWORD,
    permissions: ['transport:read', 'transport:write', 'device:read', 'device:write', 'asset:read', 'asset:write', 'alarm:read', 'alarm:write'],
  });
  ids = { demoOrg, eastOrg: eastTenant.org.id, rivalOrg: rivalTenant.org.id };
  admin = await login(t.app, 'tt-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  east = await login(t.app, 'tt-east', DEMO_PASSWORD);
  rival = await login(t.app, 'tt-rival', DEMO_PASSWORD);
  const levels = async (token: string, orgId: string) => (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100', token)).body.data!.rows.filter((l) => l.orgId === orgId);
  const demoLevel = (await levels(admin, demoOrg))[0]!;
  level = demoLevel.id;
  levelCode = demoLevel.code;
  rivalLevel = (await levels(rival, rivalTenant.org.id))[0]!.id;
  rivalDevice = await device(rival);
  const asset = async (token: string, kind: string, code: string) => {
    const res = await api<AssetRow>('POST', `/api/iot/v2/${kind}`, token, { code, name: code });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data!;
  };
  vehicle = await asset(admin, 'vehicles', '沪A12345');
  warehouse = await asset(admin, 'warehouses', 'WH-1');
  rivalVehicle = await asset(rival, 'vehicles', '浙B00001');
  rivalTemplate = (await templateOf({ name: 'Rival lane' }, rival)).body.data!;
});

afterAll(async () => {
  await t?.close();
});

describe('templates', () => {
  it('are created, listed with their task count, changed and deleted; tasks keep their settings', async () => {
    const res = await templateOf({ name: 'Cold lane', description: 'Shanghai to Hangzhou', tempMin: 2, tempMax: 8, alarm: { levelId: level, durationS: 120 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tpl = res.body.data!;
    expect(tpl).toMatchObject({ orgId: ids.demoOrg, name: 'Cold lane', tempMin: 2, tempMax: 8, taskCount: 0, origin: { ...shanghai, address: '' } });
    expect(tpl.alarm).toMatchObject({ levelId: level, temperature: true, durationS: 120 });
    const d = await device();
    const task = await made(taskBody([d.id], { templateId: tpl.id, tempMin: 2, tempMax: 8, alarm: tpl.alarm }));
    expect(task.templateId).toBe(tpl.id);
    const listed = (await api<Page<TemplateRow>>('GET', `${TEMPLATES}?keyword=cold`, admin)).body.data!;
    expect(listed.rows.map((r) => [r.name, r.taskCount])).toEqual([['Cold lane', 1]]);
    expect((await list(`templateId=${tpl.id}`)).rows.map((r) => r.id)).toEqual([task.id]);

    const changed = await api<TemplateRow>('PUT', `${TEMPLATES}/${tpl.id}`, admin, { ...tpl, name: 'Cold lane 2', tempMax: 6 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Cold lane 2', tempMax: 6 });
    expect((await api<TemplateRow>('GET', `${TEMPLATES}/${tpl.id}`, operator)).body.data!.name).toBe('Cold lane 2');

    expect((await api('DELETE', `${TEMPLATES}/${tpl.id}`, admin)).status).toBe(200);
    expect((await api('GET', `${TEMPLATES}/${tpl.id}`, admin)).status).toBe(404);
    const after = await get(task.id);
    expect(after.templateId).toBeNull();
    expect(after).toMatchObject({ tempMin: 2, tempMax: 8 });
  });

  it('takes a name once per organisation and a level of its own organisation', async () => {
    expect((await templateOf({ name: 'Lane A' })).status).toBe(200);
    expectError(await templateOf({ name: 'Lane A' }), 409, 'TEMPLATE_NAME_TAKEN');
    const zh = await call(t.app, { method: 'POST', url: TEMPLATES, token: admin, lang: 'zh-CN', body: { name: 'Lane A', origin: shanghai, destination: hangzhou } });
    expectError(zh, 409, 'TEMPLATE_NAME_TAKEN', 'zh-CN');
    expect(zh.body.errormsg).toBe('该组织下已存在同名模板');
    const b = (await templateOf({ name: 'Lane B' })).body.data!;
    expectError(await api('PUT', `${TEMPLATES}/${b.id}`, admin, { ...b, name: 'Lane A' }), 409, 'TEMPLATE_NAME_TAKEN');
    // The same name in another organisation is another template.
    expect((await templateOf({ name: 'Lane A' }, rival)).status).toBe(200);
    expectError(await templateOf({ name: 'Lane C', tempMax: 8, alarm: { levelId: rivalLevel } }), 400, 'ALARM_LEVEL_UNKNOWN');
    expectError(await templateOf({ name: 'Lane C', tempMax: 8 }), 400, 'ALARM_LEVEL_REQUIRED');
  });

  it('of another organisation cannot be read, changed or deleted', async () => {
    for (const [method, body] of [['GET'], ['PUT', { ...rivalTemplate, name: 'taken over' }], ['DELETE']] as const) {
      expect((await api(method, `${TEMPLATES}/${rivalTemplate.id}`, admin, body)).status).toBe(404);
    }
    const mine = (await api<Page<TemplateRow>>('GET', `${TEMPLATES}?size=100`, admin)).body.data!.rows;
    expect(mine.some((r) => r.orgId === ids.rivalOrg)).toBe(false);
    expect((await api('GET', `${TEMPLATES}?orgId=${ids.rivalOrg}`, admin)).status).toBe(404);
  });
});

describe('creating tasks', () => {
  it('refuses every invalid body with its code and text in en and zh', async () => {
    const d = await device();
    const cases: [Record<string, unknown>, number, ErrorCode][] = [
      [taskBody([d.id], { goodsName: ' ' }), 400, 'TASK_GOODS_REQUIRED'],
      [taskBody([]), 400, 'TASK_DEVICES_REQUIRED'],
      [taskBody([d.id, d.id]), 400, 'TASK_DEVICES_REPEATED'],
      [taskBody([d.id, rivalDevice.id]), 400, 'TASK_DEVICE_UNKNOWN'],
      [taskBody(['00000000-0000-4000-8000-000000000000']), 400, 'TASK_DEVICE_UNKNOWN'],
      [taskBody([d.id], { assetId: warehouse.id }), 400, 'TASK_ASSET_UNKNOWN'],
      [taskBody([d.id], { assetId: rivalVehicle.id }), 400, 'TASK_ASSET_UNKNOWN'],
      [taskBody([d.id], { templateId: rivalTemplate.id }), 400, 'TASK_TEMPLATE_UNKNOWN'],
      [taskBody([d.id], { tempMax: 8, alarm: { levelId: rivalLevel } }), 400, 'ALARM_LEVEL_UNKNOWN'],
      [taskBody([d.id], { tempMax: 8 }), 400, 'ALARM_LEVEL_REQUIRED'],
      [taskBody([d.id], { tempMin: 9, tempMax: 8, alarm: { levelId: level } }), 400, 'RANGE_INVERTED'],
      [taskBody([d.id], { plannedStart: '2026-03-02T00:00:00Z', plannedArrival: '2026-03-01T00:00:00Z' }), 400, 'TASK_ARRIVAL_BEFORE_START'],
      [taskBody([d.id], { origin: { ...shanghai, lat: 91 } }), 400, 'LAT_RANGE'],
      [taskBody([d.id], { destination: { ...hangzhou, lon: -181 } }), 400, 'LON_RANGE'],
      [taskBody([d.id], { origin: { ...shanghai, radiusM: 10 } }), 400, 'TASK_RADIUS_RANGE'],
      [taskBody([d.id], { alarm: { levelId: level, yawM: 500 } }), 400, 'TASK_YAW_NEEDS_ROUTE'],
      [taskBody([d.id], { routeSource: 'drawn', route: [[31.2, 121.5]] }), 400, 'ROUTE_TOO_SHORT'],
      [taskBody([d.id], { contacts: [{ name: '', phone: '', email: '' }] }), 400, 'CONTACT_EMPTY'],
      [taskBody([d.id], { orgId: ids.rivalOrg }), 404, 'NOT_FOUND'],
    ];
    for (const [body, status, code] of cases) {
      expectError(await create(body), status, code);
      expectError(await create(body, admin, 'zh-CN'), status, code, 'zh-CN');
    }
    expect((await list(`deviceId=${d.id}`)).total).toBe(0);
  });

  it('numbers tasks per organisation and day', async () => {
    const d = await device();
    const a = await made(taskBody([d.id]));
    const b = await made(taskBody([d.id]));
    const [, dayA, nA] = CODE.exec(a.code)!;
    const [, dayB, nB] = CODE.exec(b.code)!;
    expect(dayA).toBe(today());
    expect(dayB).toBe(today());
    expect(Number(nB)).toBe(Number(nA) + 1);
    const r = await made(taskBody([rivalDevice.id]), rival);
    expect(r.code).toBe(`TT-${today()}-0001`);
    expect(a).toMatchObject({ status: 'pending', orgId: ids.demoOrg, abnormal: false, abnormalReasons: [], activeAlarms: 0, onTime: null, createdBy: 'tt-admin' });
    expect(a.devices).toEqual([{ id: d.id, deviceId: d.deviceId, name: d.name }]);
    // Without a route the plan is the straight distance (Shanghai - Hangzhou, about 160 km).
    expect(a.plannedDistanceM).toBeGreaterThan(150_000);
    expect(a.plannedDistanceM).toBeLessThan(175_000);
  });

  it('measures a planned route along its points', async () => {
    const d = await device();
    const route: [number, number][] = [
      [31.2, 121.5],
      [31.2, 121.0],
      [30.27, 121.0],
      [30.27, 120.15],
    ];
    const task = await made(taskBody([d.id], { routeSource: 'drawn', route, assetId: vehicle.id, alarm: { levelId: level, yawM: 300 } }));
    expect(task.plannedDistanceM).toBeGreaterThan(230_000);
    expect(task.asset).toEqual({ id: vehicle.id, kind: 'vehicle', code: vehicle.code, name: vehicle.name });
    expect((await list(`assetId=${vehicle.id}`)).rows.map((r) => r.id)).toContain(task.id);
  });
});

describe('lists', () => {
  it('filters by keyword, high value, device, planned start and status tabs, and counts the tabs', async () => {
    const d = await device();
    const mark = `K${Date.now()}`;
    const a = await made(taskBody([d.id], { goodsName: `${mark} insulin`, highValue: true, plannedStart: '2030-05-01T00:00:00Z', plannedArrival: '2030-05-02T00:00:00Z' }));
    const b = await made(taskBody([d.id], { customer: `${mark} pharmacy`, plannedStart: '2030-06-01T00:00:00Z' }));
    const c = await made(taskBody([d.id], { driverName: `${mark} Wang`, destination: { ...hangzhou, name: 'Ningbo port' } }));
    await moved(c.id, 'in_transit');
    await moved(b.id, 'cancelled', 'customer called off');
    const byMark = (q: string) => list(`keyword=${mark}&${q}`).then((p) => p.rows.map((r) => r.id).sort());
    expect(await byMark('')).toEqual([a.id, b.id, c.id].sort());
    expect(await byMark('highValue=true')).toEqual([a.id]);
    expect(await byMark('highValue=false')).toEqual([b.id, c.id].sort());
    expect(await byMark('from=2030-05-15T00:00:00Z&to=2030-07-01T00:00:00Z')).toEqual([b.id]);
    expect(await byMark('status=pending')).toEqual([a.id]);
    expect(await byMark('status=pending,cancelled')).toEqual([a.id, b.id].sort());
    expect(await byMark('status=in_transit')).toEqual([c.id]);
    expect((await list('keyword=Ningbo')).rows.map((r) => r.id)).toEqual([c.id]);
    expect((await list(`deviceId=${d.id}&sort=plannedStart,asc`)).rows.map((r) => r.id).slice(0, 2)).toEqual([a.id, b.id]);
    expect((await list(`keyword=${mark}&sort=code,desc&size=2&page=1`)).rows.map((r) => r.code)).toEqual([c.code, b.code]);
    expect((await api('GET', `${TASKS}?sort=goodsName,asc`, admin)).status).toBe(400);
    const counts = (await api<TaskCounts>('GET', `${TASKS}/counts?keyword=${mark}&status=pending`, admin)).body.data!;
    expect(counts).toEqual({ all: 3, pending: 1, in_transit: 1, arrived: 0, completed: 0, cancelled: 1, abnormal: 0 });
    await moved(c.id, 'cancelled', 'done with it');
  });
});

describe('abnormal tasks and the task policy', () => {
  it('an alarm of the task makes it abnormal; completing ends the alarm and the policy', async () => {
    const d = await device();
    const task = await made(taskBody([d.id], { tempMin: 2, tempMax: 8, alarm: { levelId: level, durationS: 0, overspeedKmh: 90, door: true } }));
    expect(await policyOf(task.id)).toBeUndefined();
    await moved(task.id, 'in_transit');
    const policy = (await policyOf(task.id))!;
    expect(policy).toMatchObject({ enabled: true, name: task.code, scope: 'devices', targets: [d.id], orgId: ids.demoOrg });
    expect((policy.rules as { id: string }[]).map((r) => r.id).sort()).toEqual(['door_abnormal', 'overspeed', 'temp_high', 'temp_low']);
    // The task's policy is not among the policies people manage.
    const managed = (await api<Page<PolicyRow>>('GET', '/api/iot/v2/alarm-policies?size=100', admin)).body.data!.rows;
    expect(managed.some((p) => p.id === policy.id)).toBe(false);

    await report(d, { lat: 31.0, lon: 121.0, temp: 10 });
    const [alarm] = (await alarmsOf(d)).filter((a) => a.status === 'active');
    expect(alarm).toMatchObject({ type: 'temp_high', taskId: task.id, policyName: task.code });
    const now = await get(task.id);
    expect(now).toMatchObject({ abnormal: true, abnormalReasons: ['alarm'], activeAlarms: 1 });
    expect(now.live).toMatchObject({ temp: 10, lat: 31.0, lon: 121.0 });
    expect((await list(`status=abnormal&deviceId=${d.id}`)).rows.map((r) => r.id)).toEqual([task.id]);
    expect((await api<TaskCounts>('GET', `${TASKS}/counts?deviceId=${d.id}`, admin)).body.data!.abnormal).toBe(1);

    // Arrived: the goods are still watched, the driving rules stop.
    await moved(task.id, 'arrived');
    expect(((await policyOf(task.id))!.rules as { id: string }[]).map((r) => r.id).sort()).toEqual(['door_abnormal', 'temp_high', 'temp_low']);
    expect((await get(task.id)).abnormalReasons).toEqual(['alarm']);

    await moved(task.id, 'completed');
    expect((await policyOf(task.id))!.enabled).toBe(false);
    const ended = (await alarmsOf(d)).find((a) => a.id === alarm!.id)!;
    expect(ended.status).toBe('cleared');
    expect(await get(task.id)).toMatchObject({ abnormal: false, activeAlarms: 0, status: 'completed' });
    // Another warm report raises nothing now.
    await report(d, { lat: 31.0, lon: 121.0, temp: 11, ago: 30_000 });
    expect((await alarmsOf(d)).filter((a) => a.status === 'active')).toEqual([]);
  });

  it('an edit of an in-transit task changes its policy; a task without watched settings has none running', async () => {
    const task = await taskIn('in_transit', { tempMax: 8, alarm: { levelId: level } });
    const res = await api<TaskDetail>('PUT', `${TASKS}/${task.id}`, admin, taskBody(task.devices.map((d) => d.id), { tempMax: 12, humidityMax: 90, alarm: { levelId: level, humidity: true } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rules = (await policyOf(task.id))!.rules as { id: string; threshold: number }[];
    expect(rules.map((r) => [r.id, r.threshold]).sort()).toEqual([
      ['humidity_high', 90],
      ['temp_high', 12],
    ]);
    await api('PUT', `${TASKS}/${task.id}`, admin, taskBody(task.devices.map((d) => d.id)));
    expect((await policyOf(task.id))!.enabled).toBe(false);
  });

  it('an in-transit task past its planned arrival is late; a pending one is not abnormal', async () => {
    const past = { plannedStart: new Date(Date.now() - 5 * 3_600_000).toISOString(), plannedArrival: new Date(Date.now() - 3_600_000).toISOString() };
    const late = await taskIn('in_transit', past);
    const pending = await taskIn('pending', past);
    expect(await get(late.id)).toMatchObject({ abnormal: true, abnormalReasons: ['late'] });
    expect(await get(pending.id)).toMatchObject({ abnormal: false, abnormalReasons: [] });
    expect((await list('status=abnormal&size=100')).rows.map((r) => r.id)).toContain(late.id);
    // Arriving late: no longer abnormal, and not on time.
    const arrived = await moved(late.id, 'arrived');
    expect(arrived).toMatchObject({ abnormal: false, onTime: false });
    await moved(late.id, 'completed');
    const onTime = await taskIn('arrived', { plannedArrival: new Date(Date.now() + 3_600_000).toISOString() });
    expect(onTime.onTime).toBe(true);
    await moved(onTime.id, 'completed');
    await moved(pending.id, 'cancelled', 'test');
  });
});

describe('moves', () => {
  it('allows exactly the moves of TASK_TRANSITIONS', async () => {
    for (const from of TASK_STATUSES) {
      for (const to of TASK_STATUSES) {
        const task = await taskIn(from);
        const res = await move(task.id, to, 'because');
        if (TASK_TRANSITIONS[from].includes(to)) {
          expect(res.status, `${from} -> ${to}: ${JSON.stringify(res.body)}`).toBe(200);
          expect(res.body.data!.status).toBe(to);
        } else {
          expectError(res, 409, from === 'completed' || from === 'cancelled' ? 'TASK_CLOSED' : 'TASK_TRANSITION');
          expect((await get(task.id)).status).toBe(from);
        }
        const now = await get(task.id);
        if (now.status !== 'completed' && now.status !== 'cancelled') await moved(task.id, 'cancelled', 'clean up');
      }
    }
  });

  it('stamps times and modes, needs a cancel reason, and writes the story', async () => {
    const d = await device();
    const task = await made(taskBody([d.id]));
    expectError(await move(task.id, 'cancelled', ' '), 400, 'TASK_CANCEL_REASON_REQUIRED');
    expectError(await move(task.id, 'cancelled', '', admin, 'zh-CN'), 400, 'TASK_CANCEL_REASON_REQUIRED', 'zh-CN');
    const started = await moved(task.id, 'in_transit');
    expect(started).toMatchObject({ startMode: 'manual', arrivedAt: null });
    expect(Date.now() - Date.parse(started.startedAt!)).toBeLessThan(10_000);
    const arrived = await moved(task.id, 'arrived');
    expect(arrived.arriveMode).toBe('manual');
    // Back on the road: it was not there yet.
    const back = await moved(task.id, 'in_transit');
    expect(back).toMatchObject({ arrivedAt: null, arriveMode: null, startedAt: started.startedAt });
    const cancelled = await moved(task.id, 'cancelled', 'truck broke down');
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelReason: 'truck broke down' });
    expect(cancelled.cancelledAt).not.toBeNull();
    const events = await story(task.id);
    expect(events.map((e) => e.kind)).toEqual(['created', 'status_changed', 'status_changed', 'status_changed', 'status_changed']);
    expect(events[1]).toMatchObject({ actor: 'tt-admin', detail: { from: 'pending', to: 'in_transit', mode: 'manual', note: '' } });
    expect(events[4]!.detail).toMatchObject({ from: 'in_transit', to: 'cancelled', note: 'truck broke down' });
  });

  it('refuses to start a task whose device is on another running task', async () => {
    const d = await device();
    const a = await made(taskBody([d.id]));
    const b = await made(taskBody([d.id]));
    await moved(a.id, 'in_transit');
    expectError(await move(b.id, 'in_transit'), 409, 'TASK_DEVICE_BUSY');
    expectError(await move(b.id, 'in_transit', '', admin, 'zh-CN'), 409, 'TASK_DEVICE_BUSY', 'zh-CN');
    await moved(a.id, 'arrived');
    expectError(await move(b.id, 'in_transit'), 409, 'TASK_DEVICE_BUSY');
    // Nor may a running task take on a device of another running one.
    const other = await taskIn('in_transit');
    expectError(await api('PUT', `${TASKS}/${other.id}`, admin, taskBody([other.devices[0]!.id, d.id])), 409, 'TASK_DEVICE_BUSY');
    await moved(a.id, 'completed');
    expect((await moved(b.id, 'in_transit')).status).toBe('in_transit');
    await moved(b.id, 'completed');
    await moved(other.id, 'completed');
  });

  it('edits open tasks and refuses edits of closed ones', async () => {
    const task = await taskIn('pending');
    const devs = task.devices.map((d) => d.id);
    const res = await api<TaskDetail>('PUT', `${TASKS}/${task.id}`, operator, taskBody(devs, { goodsName: 'Plasma', customer: 'Ruijin Hospital' }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ goodsName: 'Plasma', customer: 'Ruijin Hospital', code: task.code });
    const events = await story(task.id);
    expect(events.at(-1)).toMatchObject({ kind: 'updated', actor: 'demo' });
    expect((events.at(-1)!.detail.changed as string[]).sort()).toEqual(['customer', 'goodsName']);
    await moved(task.id, 'cancelled', 'no longer needed');
    expectError(await api('PUT', `${TASKS}/${task.id}`, admin, taskBody(devs)), 409, 'TASK_CLOSED');
    expectError(await api('PUT', `${TASKS}/${task.id}`, admin, taskBody(devs), 'zh-CN'), 409, 'TASK_CLOSED', 'zh-CN');
    const done = await taskIn('completed');
    expectError(await api('PUT', `${TASKS}/${done.id}`, admin, taskBody(done.devices.map((d) => d.id))), 409, 'TASK_CLOSED');
  });

  it('copies a task as a new pending one with the same settings and devices', async () => {
    const source = await taskIn('completed', {
      tempMax: 8,
      alarm: { levelId: level },
      assetId: vehicle.id,
      plannedStart: '2030-01-01T00:00:00Z',
      plannedArrival: '2030-01-02T00:00:00Z',
      contacts: [{ name: 'Li', phone: '13800000000' }],
    });
    const res = await api<TaskDetail>('POST', `${TASKS}/${source.id}/copy`, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const copy = res.body.data!;
    expect(copy.id).not.toBe(source.id);
    expect(copy.code).toMatch(CODE);
    expect(copy.code).not.toBe(source.code);
    expect(copy).toMatchObject({ status: 'pending', plannedStart: null, plannedArrival: null, startedAt: null, completedAt: null, tempMax: 8, asset: source.asset, devices: source.devices, contacts: source.contacts, origin: source.origin });
    expect((await story(copy.id))[0]).toMatchObject({ kind: 'created', detail: { copiedFrom: source.id } });
    expect((await story(source.id)).at(-1)).toMatchObject({ kind: 'copied', detail: { copyId: copy.id, code: copy.code } });
  });
});

describe('export', () => {
  it('writes the filtered tasks in the request language and time zone', async () => {
    const d = await device();
    const task = await made(taskBody([d.id], { goodsName: 'Export check', highValue: true, plannedStart: '2030-03-01T00:00:00Z' }));
    for (const [lang, headers, status, yes, start] of [
      ['en-US', ['Code', 'Status'], 'Pending', 'Yes', '2030-03-01 08:00:00'],
      ['zh-CN', ['任务编号', '状态'], '待运输', '是', '2030-03-01 08:00:00'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `${TASKS}/export?deviceId=${d.id}&format=xlsx`, headers: { access_token: admin, language: lang, timezone: 'Asia/Shanghai' } });
      expect(res.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const ws = book.worksheets[0]!;
      const header = (ws.getRow(1).values as unknown[]).slice(1) as string[];
      expect(header.slice(0, 2)).toEqual(headers);
      expect(ws.rowCount).toBe(2);
      const row = (ws.getRow(2).values as unknown[]).slice(1);
      const at = (name: string) => row[header.indexOf(name)];
      expect(at(headers[0])).toBe(task.code);
      expect(at(headers[1])).toBe(status);
      expect(at(lang === 'en-US' ? 'High value' : '高价值')).toBe(yes);
      expect(at(lang === 'en-US' ? 'Planned start' : '计划出发时间')).toBe(start);
    }
    const csv = await t.app.inject({ method: 'GET', url: `${TASKS}/export?deviceId=${d.id}&format=csv`, headers: { access_token: admin, language: 'en-US', timezone: 'UTC' } });
    expect(csv.body).toContain(task.code);
    expect(csv.body).toContain('2030-03-01 00:00:00');
  });
});

describe('import', () => {
  it('offers a template and creates every row, times in the request time zone, a named template filling the rest', async () => {
    const tplRes = await t.app.inject({ method: 'GET', url: `${TASKS}/import-template`, headers: { access_token: admin, language: 'zh-CN' } });
    expect(tplRes.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(tplRes.rawPayload as unknown as ArrayBuffer);
    const headers = ((book.worksheets[0]!.getRow(1).values as unknown[]).slice(1) as string[]);
    expect(headers.slice(0, 3)).toEqual(['货物名称', '数量', '单位']);
    expect(headers).toContain('模板名称');

    const lane = (await templateOf({ name: 'Import lane', tempMin: 2, tempMax: 8, alarm: { levelId: level, door: true } })).body.data!;
    const d1 = await device();
    const d2 = await device();
    const mark = `IMP${Date.now()}`;
    const byHeader = (row: Record<string, string | number>) => headers.map((h) => row[h] ?? '');
    const file = await sheet(
      [
        byHeader({ 货物名称: `${mark} apples`, 数量: 20, 单位: 'box', 高价值: '是', 客户: 'Fresh Co', 车牌号或集装箱号: vehicle.code, 设备编号: `${d1.deviceId}, ${d2.deviceId}`, 起点名称: 'Farm', 起点纬度: 31.1, 起点经度: 121.3, 终点名称: 'Market', 终点纬度: 31.3, 终点经度: 121.6, '终点半径（米）': 300, 计划出发时间: '2030-04-01 08:00', 计划到达时间: '2030-04-01 12:30:00', 司机: 'Zhang', 温度上限: 10, 告警等级: levelCode }),
        byHeader({ 货物名称: `${mark} vaccines`, 设备编号: d1.deviceId, 模板名称: 'Import lane' }),
      ],
      headers,
    );
    const res = await t.app.inject({ method: 'POST', url: `${TASKS}/import`, headers: { access_token: admin, language: 'zh-CN', timezone: 'Asia/Shanghai', 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }, payload: file });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ created: 2, updated: 0, errors: [] });
    const rows = (await list(`keyword=${mark}&sort=code,asc`)).rows;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      goodsName: `${mark} apples`,
      goodsQuantity: 20,
      highValue: true,
      asset: { id: vehicle.id },
      origin: { name: 'Farm', lat: 31.1, lon: 121.3, radiusM: 500 },
      destination: { name: 'Market', radiusM: 300 },
      plannedStart: '2030-04-01T00:00:00.000Z',
      plannedArrival: '2030-04-01T04:30:00.000Z',
      tempMax: 10,
      alarm: { levelId: level, temperature: true },
      driverName: 'Zhang',
      status: 'pending',
    });
    expect(rows[0]!.devices.map((x) => x.id)).toEqual([d1.id, d2.id]);
    expect(rows[1]).toMatchObject({ templateId: lane.id, origin: lane.origin, destination: lane.destination, tempMin: 2, tempMax: 8, alarm: lane.alarm, highValue: false });
  });

  it('creates nothing when a row is refused, and says why per row in the request language', async () => {
    const d = await device();
    const mark = `BAD${Date.now()}`;
    const headers = ['Goods', 'Device ids', 'Origin', 'Origin latitude', 'Origin longitude', 'Destination', 'Destination latitude', 'Destination longitude', 'High value', 'Planned start', 'Template', 'Temperature max', 'Alarm level'];
    const good = [`${mark} ok`, d.deviceId, 'A', 31, 121, 'B', 31.5, 121.5, 'no', '', '', '', ''];
    const file = await sheet(
      [
        good,
        [`${mark} bad`, 'NOPE-1', 'A', 31, 121, 'B', 95, 121.5, 'maybe', 'tomorrow', '', '', ''],
        [`${mark} tpl`, d.deviceId, '', '', '', '', '', '', '', '', 'No such template', '', ''],
        // A range to watch without a level to alarm at; a level that does not exist.
        [`${mark} warm`, d.deviceId, 'A', 31, 121, 'B', 31.5, 121.5, '', '', '', 8, ''],
        [`${mark} lvl`, d.deviceId, 'A', 31, 121, 'B', 31.5, 121.5, '', '', '', 8, 'No such level'],
      ],
      headers,
    );
    const send = (lang: string) =>
      t.app.inject({ method: 'POST', url: `${TASKS}/import`, headers: { access_token: admin, language: lang, timezone: 'Asia/Shanghai', 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }, payload: file });
    const en = (await send('en-US')).json().data as ImportResult;
    expect(en.created).toBe(0);
    expect(en.errors).toEqual(
      expect.arrayContaining([
        { row: 3, field: 'deviceIds', message: errorText('TASK_DEVICE_UNKNOWN', 'en') },
        { row: 3, field: 'highValue', message: errorText('IMPORT_YES_NO', 'en') },
        { row: 3, field: 'plannedStart', message: errorText('IMPORT_TIME_FORMAT', 'en') },
        { row: 4, field: 'templateName', message: errorText('TASK_TEMPLATE_UNKNOWN', 'en') },
        { row: 5, field: 'alarm.levelId', message: errorText('ALARM_LEVEL_REQUIRED', 'en') },
        { row: 6, field: 'alarmLevel', message: errorText('ALARM_LEVEL_UNKNOWN', 'en') },
      ]),
    );
    expect(en.errors.some((e) => e.row === 2)).toBe(false);
    const zh = (await send('zh-CN')).json().data as ImportResult;
    expect(zh.errors.find((e) => e.field === 'deviceIds')!.message).toBe('任务中的设备在该组织下不存在');
    expect((await list(`keyword=${mark}`)).total).toBe(0);
    // Once the bad rows are fixed, the latitude is checked too.
    const fixed = await sheet([good, [`${mark} bad`, d.deviceId, 'A', 31, 121, 'B', 95, 121.5, 'yes', '', '', 8, levelCode]], headers);
    const again = await t.app.inject({ method: 'POST', url: `${TASKS}/import`, headers: { access_token: admin, language: 'en-US', 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }, payload: fixed });
    expect((again.json().data as ImportResult).errors).toEqual([{ row: 3, field: 'destination.lat', message: errorText('LAT_RANGE', 'en') }]);
    expect((await list(`keyword=${mark}`)).total).toBe(0);
  });
});

describe('monitor', () => {
  it('shows running tasks with their live progress, abnormal first', async () => {
    const d = await device();
    // Straight east 0.2°: the report half way along.
    const task = await made(
      taskBody([d.id], {
        origin: { name: 'West', lat: 30.0, lon: 110.0, radiusM: 500 },
        destination: { name: 'East', lat: 30.0, lon: 110.2, radiusM: 500 },
        plannedStart: new Date(Date.now() - 3_600_000).toISOString(),
        plannedArrival: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    );
    await moved(task.id, 'in_transit');
    await report(d, { lat: 30.0, lon: 110.1, speed: 60, ago: 5_000 });
    const late = await taskIn('in_transit', { plannedArrival: new Date(Date.now() - 60_000).toISOString(), plannedStart: new Date(Date.now() - 7_200_000).toISOString() });
    const pending = await taskIn('pending');
    const res = await api<TaskDetail[]>('GET', `${TASKS}/monitor`, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.data!;
    expect(rows.every((r) => r.status === 'in_transit' || r.status === 'arrived')).toBe(true);
    expect(rows.map((r) => r.id)).not.toContain(pending.id);
    const firstNormal = rows.findIndex((r) => !r.abnormal);
    expect(rows.slice(firstNormal).every((r) => !r.abnormal)).toBe(true);
    expect(rows.findIndex((r) => r.id === late.id)).toBeLessThan(firstNormal);
    const mine = rows.find((r) => r.id === task.id)!;
    expect(mine.live).toMatchObject({ lat: 30.0, lon: 110.1, speed: 60 });
    expect(mine.live.progress!).toBeCloseTo(0.5, 2);
    expect(mine.live.remainingM!).toBeCloseTo(mine.plannedDistanceM / 2, -2);
    // Started just now: the planned average speed (the whole way in two hours) gives about an hour.
    expect(Math.abs(Date.parse(mine.live.eta!) - (Date.now() + 3_600_000))).toBeLessThan(120_000);
    expect((await api<TaskDetail[]>('GET', `${TASKS}/monitor?abnormal=true`, admin)).body.data!.every((r) => r.abnormal)).toBe(true);
    const arrived = await moved(task.id, 'arrived');
    expect(arrived.live).toMatchObject({ progress: 1, remainingM: 0, eta: null });
    await moved(task.id, 'completed');
    await moved(late.id, 'completed');
  });
});

describe('automatic recognition hooks', () => {
  it('recognised() starts and arrives a task once, in the right states only', async () => {
    const d = await device();
    const task = await made(taskBody([d.id], { tempMax: 8, alarm: { levelId: level } }));
    const svc = t.app.transportTasks;
    const at = new Date(Date.now() - 600_000);
    expect(await svc.recognised(task.id, 'arrived', at)).toBe(false);
    expect(await svc.recognised(task.id, 'in_transit', at)).toBe(true);
    expect(await svc.recognised(task.id, 'in_transit', at)).toBe(false);
    let now = await get(task.id);
    expect(now).toMatchObject({ status: 'in_transit', startMode: 'auto', startedAt: at.toISOString() });
    expect((await policyOf(task.id))!.enabled).toBe(true);
    const arrivedAt = new Date(Date.now() - 60_000);
    expect(await svc.recognised(task.id, 'arrived', arrivedAt)).toBe(true);
    expect(await svc.recognised(task.id, 'arrived', arrivedAt)).toBe(false);
    now = await get(task.id);
    expect(now).toMatchObject({ status: 'arrived', arriveMode: 'auto', arrivedAt: arrivedAt.toISOString() });
    const events = await story(task.id);
    expect(events.slice(1).map((e) => [e.kind, e.actor, e.detail])).toEqual([
      ['started', null, { mode: 'auto' }],
      ['arrived', null, { mode: 'auto' }],
    ]);
    expect(events[1]!.at).toBe(at.toISOString());
    await moved(task.id, 'completed');
    expect(await svc.recognised(task.id, 'in_transit', new Date())).toBe(false);
    expect(await svc.recognised('00000000-0000-4000-8000-000000000000', 'in_transit', new Date())).toBe(false);
  });

  it('recognised() leaves tasks alone without automatic recognition or with a busy device', async () => {
    const svc = t.app.transportTasks;
    const manual = await taskIn('pending', { detection: { auto: false } });
    expect(await svc.recognised(manual.id, 'in_transit', new Date())).toBe(false);
    expect((await get(manual.id)).status).toBe('pending');
    const d = await device();
    const running = await made(taskBody([d.id]));
    const waiting = await made(taskBody([d.id]));
    await moved(running.id, 'in_transit');
    expect(await svc.recognised(waiting.id, 'in_transit', new Date())).toBe(false);
    expect((await get(waiting.id)).status).toBe('pending');

  });
});

describe('hand-over', () => {
  const handover = (id: string, body: Record<string, unknown>, token = admin, lang: Lang = 'en-US') => api<TaskDetail>('POST', `${TASKS}/${id}/handover`, token, body, lang);
  const body = { from: 'Wang (carrier)', to: 'Hangzhou Store receiving', place: 'Dock 3', seals: ['S-001', 'S-002'], temperature: 4.5, signed: true, note: 'boxes intact' };

  it('is written into the story of a task in transit with its fields and time', async () => {
    const task = await taskIn('in_transit');
    const at = new Date(Date.now() - 120_000).toISOString();
    const res = await handover(task.id, { ...body, at });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data!.status).toBe('in_transit');
    const last = (await story(task.id)).at(-1)!;
    expect(last).toMatchObject({ kind: 'handover', actor: 'tt-admin', at, detail: { from: body.from, to: body.to, place: 'Dock 3', seals: ['S-001', 'S-002'], temperature: 4.5, signed: true, note: 'boxes intact' } });
    // The least: who gave and who took; the time is now.
    expect((await handover(task.id, { from: 'A', to: 'B' })).status).toBe(200);
    const min = (await story(task.id)).at(-1)!;
    expect(min.detail).toEqual({ from: 'A', to: 'B', place: '', seals: [], temperature: null, signed: false, note: '' });
    expect(Math.abs(Date.parse(min.at) - Date.now())).toBeLessThan(10_000);
    expect((await handover((await taskIn('arrived')).id, body)).status).toBe(200);
  });

  it('is refused on a pending, completed or cancelled task, and nothing is stored', async () => {
    for (const status of ['pending', 'completed', 'cancelled'] as const) {
      const task = await taskIn(status);
      const before = await story(task.id);
      expectError(await handover(task.id, body), 409, 'TASK_HANDOVER_STATUS');
      expectError(await handover(task.id, body, admin, 'zh-CN'), 409, 'TASK_HANDOVER_STATUS', 'zh-CN');
      expect(await story(task.id)).toEqual(before);
    }
  });

  it('refuses a bad body, another organisation and a caller without transport:write', async () => {
    const task = await taskIn('in_transit');
    const before = await story(task.id);
    for (const bad of [
      { ...body, to: ' ' },
      { ...body, to: undefined },
      { ...body, seals: Array.from({ length: 21 }, (_, i) => `S${i}`) },
      { ...body, seals: ['x'.repeat(33)] },
      { ...body, temperature: 200 },
      { ...body, from: 'x'.repeat(65) },
      { ...body, at: new Date(Date.now() + 3_600_000).toISOString() },
      { ...body, at: 'yesterday' },
    ]) {
      expect((await handover(task.id, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expectError(await handover(task.id, { ...body, to: '' }), 400, 'TASK_HANDOVER_PARTY_REQUIRED');
    expectError(await handover(task.id, body, rival), 404, 'NOT_FOUND');
    const reader = await createTenantUser(t.app.database.db, { code: 'tt-reader', account: 'tt-reader', password: DEMO_PASSWORD, permissions: ['transport:read'] });
    expect(reader.org.id).toBeTruthy();
    const readerToken = await login(t.app, 'tt-reader', DEMO_PASSWORD);
    expect((await handover(task.id, body, readerToken)).status).toBe(403);
    expect(await story(task.id)).toEqual(before);
  });
});

describe('OpenAPI', () => {
  it('describes the transport resources', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    for (const p of ['/api/iot/v2/transport-tasks', '/api/iot/v2/transport-tasks/monitor', '/api/iot/v2/transport-tasks/{id}/copy', '/api/iot/v2/transport-templates/{id}']) expect(paths).toContain(p);
  });
});

describe('organisation isolation', () => {
  it('another organisation cannot list, read, change, copy, move or use what is not its own', async () => {
    const d = await device();
    const task = await made(taskBody([d.id], { assetId: vehicle.id }));
    const tpl = (await templateOf({ name: `Demo only ${Date.now()}` })).body.data!;
    expect((await list('size=100', rival)).rows.some((r) => r.orgId !== ids.rivalOrg)).toBe(false);
    expect((await api('GET', `${TASKS}?orgId=${ids.demoOrg}`, rival)).status).toBe(404);
    for (const [method, url, body] of [
      ['GET', `${TASKS}/${task.id}`],
      ['GET', `${TASKS}/${task.id}/events`],
      ['PUT', `${TASKS}/${task.id}`, taskBody([rivalDevice.id])],
      ['POST', `${TASKS}/${task.id}/transition`, { to: 'cancelled', note: 'mine now' }],
      ['POST', `${TASKS}/${task.id}/copy`],
    ] as const) {
      expectError(await api(method, url, rival, body), 404, 'NOT_FOUND');
    }
    expect((await get(task.id)).status).toBe('pending');
    expectError(await create(taskBody([d.id]), rival), 400, 'TASK_DEVICE_UNKNOWN');
    expectError(await create(taskBody([rivalDevice.id], { assetId: vehicle.id }), rival), 400, 'TASK_ASSET_UNKNOWN');
    expectError(await create(taskBody([rivalDevice.id], { templateId: tpl.id }), rival), 400, 'TASK_TEMPLATE_UNKNOWN');
    expectError(await create(taskBody([rivalDevice.id], { tempMax: 8, alarm: { levelId: level } }), rival), 400, 'ALARM_LEVEL_UNKNOWN');
    const monitor = (await api<TaskDetail[]>('GET', `${TASKS}/monitor`, rival)).body.data!;
    expect(monitor.some((r) => r.orgId !== ids.rivalOrg)).toBe(false);
    const counts = (await api<TaskCounts>('GET', `${TASKS}/counts`, rival)).body.data!;
    expect(counts.all).toBe((await list('size=1', rival)).total);
  });

  it("a child organisation's user sees only its own tasks; the parent sees them too", async () => {
    const eastDevice = await device(east);
    const mine = await made(taskBody([eastDevice.id]), east);
    expect(mine.orgId).toBe(ids.eastOrg);
    const demoTask = await taskIn('pending');
    const seen = (await list('size=100', east)).rows;
    expect(seen.map((r) => r.id)).toContain(mine.id);
    expect(seen.every((r) => r.orgId === ids.eastOrg)).toBe(true);
    expect((await api('GET', `${TASKS}/${demoTask.id}`, east)).status).toBe(404);
    expectError(await create(taskBody(demoTask.devices.map((x) => x.id)), east), 400, 'TASK_DEVICE_UNKNOWN');
    expect((await api('GET', `${TASKS}/${mine.id}`, admin)).status).toBe(200);
    expect((await list(`orgId=${ids.eastOrg}&size=100`)).rows.every((r) => r.orgId === ids.eastOrg)).toBe(true);
    // The parent may give a child's task a device of its own tree (the child's devices).
    const forEast = await made(taskBody([eastDevice.id], { orgId: ids.eastOrg }));
    expect(forEast.orgId).toBe(ids.eastOrg);
    // But a child's task cannot carry a device of the parent.
    expectError(await create(taskBody(demoTask.devices.map((x) => x.id), { orgId: ids.eastOrg })), 400, 'TASK_DEVICE_UNKNOWN');
    const row = (await t.app.database.db.select().from(transportTasks).where(eq(transportTasks.id, mine.id)))[0]!;
    expect(row.orgId).toBe(ids.eastOrg);
  });
});

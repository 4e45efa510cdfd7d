// Stops of transport tasks and templates (issue 26 item 2): ordered places of the library between
// the origin and the destination, copied from the library whatever the body says, kept in the
// settings; the planned distance without a route runs through them; a change to the place
// reaches them (and a running task's own policy, which lets the door open there); the place is
// not deleted while a task or a template stops at it, saying which; another organisation's place
// is refused and nothing is stored; too many stops are refused in both languages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LevelRow } from '@iotc/shared/alarm';
import { distanceM } from '@iotc/shared/alarm-rules';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import type { PlaceRow, PlaceUsage } from '@iotc/shared/place';
import type { TaskDetail, TaskRow, TemplateRow } from '@iotc/shared/transport';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmPolicies, orgs } from '../../db/schema.ts';

const PLACES = '/api/iot/v2/places';
const TASKS = '/api/iot/v2/transport-tasks';
const TEMPLATES = '/api/iot/v2/transport-templates';

let t: TestApp;
let admin: string;
let rival: string;
let level: string;
let device: string;

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') => call<T>(t.app, { method, url, token, body, lang });
function expectError(res: { status: number; body: { errorcode: string | null; errormsg: string | null } }, status: number, code: ErrorCode) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.errorcode).toBe(code);
}
async function place(body: Record<string, unknown>, token = admin): Promise<PlaceRow> {
  const res = await api<PlaceRow>('POST', PLACES, token, { shape: 'circle', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
/** A stop as a form sends it: the place's id and a copy (possibly stale; the radius kept to the task's 50 m at least). */
const stopOf = (p: PlaceRow, name = p.name) => ({ placeId: p.id, name, lat: p.lat, lon: p.lon, radiusM: Math.max(50, Math.round(p.radiusM)) });

const origin = { name: 'Songjiang DC', lat: 31.0, lon: 121.2, radiusM: 500 };
const destination = { name: 'Suzhou store', lat: 31.3, lon: 120.6, radiusM: 500 };

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'stops-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'stops-admin', DEMO_PASSWORD);
  await createTenantUser(db, { code: 'stops-rival', account: 'stops-rival', password: DEMO_PASSWORD, permissions: ['place:read', 'place:write', 'transport:read', 'transport:write'] });
  rival = await login(t.app, 'stops-rival', DEMO_PASSWORD);
  level = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', admin)).body.data!.rows[0]!.id;
  device = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId: 'STOPS-T-01', name: 'Stops tracker' })).body.data!.id;
});
afterAll(async () => {
  await t.close();
});

describe('stops of tasks and templates', () => {
  it('keeps the stops in order as the library has them, measures the way through them, and a task from the template takes them', async () => {
    const a = await place({ name: 'Qingpu cross-dock', lat: 31.15, lon: 121.05, radiusM: 300 });
    const b = await place({ name: 'Kunshan hub', lat: 31.38, lon: 120.95, radiusM: 20 });
    // A stale copy of the name: the library's is kept; a place smaller than a task's circle stops as a 50 m one.
    const tpl = await api<TemplateRow>('POST', TEMPLATES, admin, { name: 'With stops', origin, destination, stops: [stopOf(a, 'old name'), stopOf(b)] });
    expect(tpl.status, JSON.stringify(tpl.body)).toBe(200);
    expect(tpl.body.data!.stops.map((s) => [s.placeId, s.name, s.radiusM])).toEqual([
      [a.id, 'Qingpu cross-dock', 300],
      [b.id, 'Kunshan hub', 50],
    ]);
    expect((await api<TemplateRow>('GET', `${TEMPLATES}/${tpl.body.data!.id}`, admin)).body.data!.stops.map((s) => s.name)).toEqual(['Qingpu cross-dock', 'Kunshan hub']);

    // The form makes a task from the template with its settings; the stops come along in order.
    const tplRow = tpl.body.data!;
    const task = await api<TaskDetail>('POST', TASKS, admin, { goodsName: 'Insulin', deviceIds: [device], templateId: tplRow.id, origin: tplRow.origin, destination: tplRow.destination, stops: tplRow.stops });
    expect(task.status, JSON.stringify(task.body)).toBe(200);
    expect(task.body.data!.stops.map((s) => s.placeId)).toEqual([a.id, b.id]);
    const straight = distanceM(origin.lat, origin.lon, a.lat, a.lon) + distanceM(a.lat, a.lon, b.lat, b.lon) + distanceM(b.lat, b.lon, destination.lat, destination.lon);
    expect(task.body.data!.plannedDistanceM).toBeCloseTo(straight, 0);
    expect(task.body.data!.plannedDistanceM).toBeGreaterThan(distanceM(origin.lat, origin.lon, destination.lat, destination.lon) + 1000);

    // Reordered on edit; a copy keeps them.
    const reordered = await api<TaskDetail>('PUT', `${TASKS}/${task.body.data!.id}`, admin, { goodsName: 'Insulin', deviceIds: [device], origin, destination, stops: [stopOf(b), stopOf(a)] });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    expect(reordered.body.data!.stops.map((s) => s.name)).toEqual(['Kunshan hub', 'Qingpu cross-dock']);
    const copy = await api<TaskDetail>('POST', `${TASKS}/${task.body.data!.id}/copy`, admin);
    expect(copy.body.data!.stops.map((s) => s.name)).toEqual(['Kunshan hub', 'Qingpu cross-dock']);

    // Without stops the list is empty, and a stop must name a library place.
    const plain = await api<TaskRow>('POST', TASKS, admin, { goodsName: 'Plain', deviceIds: [device], origin, destination });
    expect(plain.body.data!.stops).toEqual([]);
    const loose = await api('POST', TASKS, admin, { goodsName: 'Loose', deviceIds: [device], origin, destination, stops: [{ name: 'Somewhere', lat: 31, lon: 121 }] }, 'zh-CN');
    expect(loose.status).toBe(400);
    expect(loose.body.errormsg).toContain(errorText('TASK_STOP_PLACE_REQUIRED', 'zh'));
  });

  it('a change to the place reaches the stops of the template, the open task and its own policy; deleting it is refused naming them', async () => {
    const hub = await place({ name: 'Jiaxing hub', lat: 30.75, lon: 120.75, radiusM: 400 });
    const tpl = (await api<TemplateRow>('POST', TEMPLATES, admin, { name: 'Via Jiaxing', origin, destination, stops: [stopOf(hub)] })).body.data!;
    const task = (await api<TaskDetail>('POST', TASKS, admin, { goodsName: 'Blood', deviceIds: [device], origin, destination, stops: [stopOf(hub)], alarm: { levelId: level, door: true } })).body.data!;
    // Running: its own policy lets the door open at the stop too.
    expect((await api('POST', `${TASKS}/${task.id}/transition`, admin, { to: 'in_transit', note: '' })).status).toBe(200);
    const doorPlaces = async () => {
      const [own] = await t.app.database.db.select().from(alarmPolicies).where(eq(alarmPolicies.taskId, task.id));
      return (own!.rules as { type: string; places: { placeId?: string; name: string; lat: number }[] }[]).find((r) => r.type === 'door_abnormal')!.places;
    };
    expect((await doorPlaces()).map((p) => p.name)).toEqual([origin.name, 'Jiaxing hub', destination.name]);

    const moved = await api<PlaceRow>('PUT', `${PLACES}/${hub.id}`, admin, { name: 'Jiaxing south hub', shape: 'circle', lat: 30.7, lon: 120.8, radiusM: 600 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const tplAfter = (await api<TemplateRow>('GET', `${TEMPLATES}/${tpl.id}`, admin)).body.data!;
    expect(tplAfter.stops).toEqual([expect.objectContaining({ placeId: hub.id, name: 'Jiaxing south hub', lat: 30.7, lon: 120.8, radiusM: 600 })]);
    const taskAfter = (await api<TaskDetail>('GET', `${TASKS}/${task.id}`, admin)).body.data!;
    expect(taskAfter.stops).toEqual([expect.objectContaining({ placeId: hub.id, name: 'Jiaxing south hub', lat: 30.7, lon: 120.8, radiusM: 600 })]);
    expect((await doorPlaces()).find((p) => p.placeId === hub.id)).toMatchObject({ name: 'Jiaxing south hub', lat: 30.7 });

    const usage = await api<PlaceUsage>('GET', `${PLACES}/${hub.id}/usage`, admin);
    expect(usage.body.data).toMatchObject({ templates: ['Via Jiaxing'], tasks: [task.code] });
    const en = await api('DELETE', `${PLACES}/${hub.id}`, admin);
    expectError(en, 409, 'PLACE_IN_USE');
    expect(en.body.errormsg).toBe(`${errorText('PLACE_IN_USE', 'en')}: used by transport templates: Via Jiaxing; transport tasks: ${task.code}`);
    const zh = await api('DELETE', `${PLACES}/${hub.id}`, admin, undefined, 'zh-CN');
    expect(zh.body.errormsg).toBe(`${errorText('PLACE_IN_USE', 'zh')}：正在使用它的有 运输模板：Via Jiaxing；运输任务：${task.code}`);
    expect((await api<PlaceRow>('GET', `${PLACES}/${hub.id}`, admin)).status).toBe(200);
  });

  it("refuses another organisation's place as a stop, storing nothing, and more than 10 stops", async () => {
    const theirs = await place({ name: 'Rival yard', lat: 22.5, lon: 114, radiusM: 200 }, rival);
    const count = async (url: string) => (await api<Page<unknown>>('GET', `${url}?size=1`, admin)).body.data!.total;
    const [tasksBefore, templatesBefore] = [await count(TASKS), await count(TEMPLATES)];
    const tpl = await api('POST', TEMPLATES, admin, { name: 'Sneaky stop', origin, destination, stops: [stopOf(theirs)] });
    expectError(tpl, 400, 'PLACE_UNKNOWN');
    expect(tpl.body.errormsg).toContain(errorText('PLACE_UNKNOWN', 'en'));
    expectError(await api('POST', TASKS, admin, { goodsName: 'Sneaky', deviceIds: [device], origin, destination, stops: [stopOf(theirs)] }), 400, 'PLACE_UNKNOWN');
    expect([await count(TASKS), await count(TEMPLATES)]).toEqual([tasksBefore, templatesBefore]);
    // An existing task keeps its stops when an edit names a foreign one.
    const mine = await place({ name: 'Own stop', lat: 31.1, lon: 121.1, radiusM: 200 });
    const task = (await api<TaskDetail>('POST', TASKS, admin, { goodsName: 'Kept', deviceIds: [device], origin, destination, stops: [stopOf(mine)] })).body.data!;
    expectError(await api('PUT', `${TASKS}/${task.id}`, admin, { goodsName: 'Kept', deviceIds: [device], origin, destination, stops: [stopOf(mine), stopOf(theirs)] }), 400, 'PLACE_UNKNOWN');
    expect((await api<TaskDetail>('GET', `${TASKS}/${task.id}`, admin)).body.data!.stops.map((s) => s.placeId)).toEqual([mine.id]);
    // The rival's own place of that name is untouched and not in use.
    expect((await api<PlaceUsage>('GET', `${PLACES}/${theirs.id}/usage`, rival)).body.data).toEqual({ policies: [], templates: [], tasks: [], warehouses: [] });

    const eleven = Array.from({ length: 11 }, () => stopOf(mine));
    const many = await api('POST', TEMPLATES, admin, { name: 'Too many stops', origin, destination, stops: eleven }, 'zh-CN');
    expect(many.status).toBe(400);
    expect(many.body.errormsg).toContain(errorText('TASK_STOPS_TOO_MANY', 'zh'));
  });
});

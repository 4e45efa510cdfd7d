// The planned path of a task runs from the origin through the drawn points to the destination,
// for the off-route rule, the live progress, the remaining way, the arrival estimate and the
// planned length alike (issue 22, item 1). The operator's trip: a template with the origin at
// longitude 121.22 and the destination at 121.30 (latitude 31.03, 500 m each), three points
// clicked at 121.24, 121.26 and 121.28, off route from 500 m; a task made from it; a truck
// reporting over the intake straight along the plan, the first and the last leg included, then a
// real detour 2 km north. Tasks stored before the rule are brought in line by migration 0024.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { AlarmRow, LevelRow } from '@iotc/shared/alarm';
import { distanceM } from '@iotc/shared/alarm-rules';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { ShipmentReport } from '@iotc/shared/report';
import type { TaskDetail, TemplateRow } from '@iotc/shared/transport';
import { routeLengthM } from '@iotc/shared/transport-progress';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { alarmPolicies, orgs, transportTasks } from '../../db/schema.ts';

const TASKS = '/api/iot/v2/transport-tasks';
const TEMPLATES = '/api/iot/v2/transport-templates';
const LAT = 31.03;
const origin = { name: 'Songjiang DC', lat: LAT, lon: 121.22, radiusM: 500 };
const destination = { name: 'Qingpu Store', lat: LAT, lon: 121.3, radiusM: 500 };
const drawn: [number, number][] = [
  [LAT, 121.24],
  [LAT, 121.26],
  [LAT, 121.28],
];
/** The whole planned way: origin -> destination along latitude 31.03 (about 7.6 km). */
const FULL_M = distanceM(LAT, 121.22, LAT, 121.3);

let t: TestApp;
let admin: string;
let level: string;

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => call<T>(t.app, { method, url, token: admin, body, lang: 'en-US' });
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;

/** One position report over the HTTP intake at device time `at`, and the alarm engine done with it. */
async function report(d: DeviceWithSecret, at: number, lat: number, lon: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: d.deviceId, time: new Date(at).toISOString(), lat, lon, speed: 50 }),
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
}
async function yawAlarms(d: DeviceWithSecret): Promise<AlarmRow[]> {
  const res = await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?size=100&deviceId=${d.id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!.rows.filter((a) => a.type === 'yaw');
}
async function detail(id: string): Promise<TaskDetail> {
  const res = await api<TaskDetail>('GET', `${TASKS}/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'pp-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'pp-admin', DEMO_PASSWORD);
  level = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100')).body.data!.rows.find((l) => l.orgId === demoOrg && l.code === 'urgent')!.id;
});

afterAll(async () => {
  await t?.close();
});

describe('the planned path of a task made from a template with a drawn route', () => {
  it('runs from the origin through the drawn points to the destination: no false off-route, the right progress and length, a real detour alarms', async () => {
    const tpl = await api<TemplateRow>('POST', TEMPLATES, { name: 'Songjiang -> Qingpu', origin, destination, routeSource: 'drawn', route: drawn, alarm: { levelId: level, yawM: 500, durationS: 0 } });
    expect(tpl.status, JSON.stringify(tpl.body)).toBe(200);
    const template = tpl.body.data!;
    const dev = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: 'PP00000001', name: 'Reefer truck' });
    expect(dev.status, JSON.stringify(dev.body)).toBe(200);
    const d = dev.body.data!;

    // A task from the template (its settings copied, as the task form does), planned for an hour.
    const { origin: o, destination: dst, routeSource, route, alarm, detection } = template;
    const made = await api<TaskDetail>('POST', TASKS, {
      goodsName: 'Vaccines',
      deviceIds: [d.id],
      templateId: template.id,
      origin: o,
      destination: dst,
      routeSource,
      route,
      alarm,
      detection,
      plannedStart: new Date(Date.now() - 30 * 60_000).toISOString(),
      plannedArrival: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const task = made.body.data!;
    expect(task.route).toEqual(drawn);
    // The planned length is the whole way (about 7.6 km), not the 3.8 km between the drawn points.
    expect(task.plannedDistanceM).toBeGreaterThan(FULL_M - 100);
    expect(task.plannedDistanceM).toBeLessThan(FULL_M + 100);
    expect(task.plannedDistanceM).toBeGreaterThan(7_500);

    const moved = await api<TaskDetail>('POST', `${TASKS}/${task.id}/transition`, { to: 'in_transit', note: '' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // The off-route rule watches the planned path with its ends.
    const [policy] = await t.app.database.db.select().from(alarmPolicies).where(eq(alarmPolicies.taskId, task.id));
    const yaw = (policy!.rules as { type: string; route: [number, number][] }[]).find((r) => r.type === 'yaw')!;
    expect(yaw.route).toEqual([[LAT, 121.22], ...drawn, [LAT, 121.3]]);

    // Straight along the plan: the first leg, the middle, then the last leg 121.28 -> 121.30.
    let at = Date.now() - 150_000;
    const drive = async (lat: number, lon: number) => report(d, (at += 10_000), lat, lon);
    for (const lon of [121.222, 121.226, 121.23, 121.235, 121.25, 121.27, 121.28, 121.284]) await drive(LAT, lon);

    // At 121.284: about 1.5 km to go, not arrived, due in the future.
    const mid = await detail(task.id);
    const toGo = distanceM(LAT, 121.284, LAT, 121.3);
    expect(mid.live.progress!).toBeLessThan(1);
    expect(mid.live.progress!).toBeCloseTo((FULL_M - toGo) / FULL_M, 2);
    expect(mid.live.remainingM!).toBeGreaterThan(toGo - 100);
    expect(mid.live.remainingM!).toBeLessThan(toGo + 100);
    expect(mid.live.remainingM!).toBeGreaterThan(1_400);
    expect(Date.parse(mid.live.eta!)).toBeGreaterThan(Date.now() + 60_000);

    for (const lon of [121.288, 121.292, 121.296, 121.3]) await drive(LAT, lon);
    // On the plan all the way: no off-route alarm, none in the shipment report either.
    expect(await yawAlarms(d)).toEqual([]);
    const shipment = await api<ShipmentReport>('GET', `/api/iot/v2/reports/shipment/${task.id}`);
    expect(shipment.status, JSON.stringify(shipment.body)).toBe(200);
    expect(shipment.body.data!.alarms.filter((a) => a.type === 'yaw')).toEqual([]);

    // A real detour: 2 km north of the last leg is off route.
    await drive(LAT + 0.018, 121.29);
    const [off] = await yawAlarms(d);
    expect(off).toMatchObject({ status: 'active', taskId: task.id, threshold: 500 });
    expect(off!.value!).toBeGreaterThan(1_900);
    expect(off!.value!).toBeLessThan(2_100);
  });
});

describe('tasks stored before the rule', () => {
  it('get the whole planned length and an off-route rule along the whole path from migration 0024', async () => {
    const db = t.app.database.db;
    const dev = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: 'PP00000002', name: 'Old truck' });
    expect(dev.status, JSON.stringify(dev.body)).toBe(200);
    const made = await api<TaskDetail>('POST', TASKS, { goodsName: 'Vaccines', deviceIds: [dev.body.data!.id], origin, destination, routeSource: 'drawn', route: drawn, alarm: { levelId: level, yawM: 500, durationS: 0, temperature: true }, tempMax: 8 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const task = made.body.data!;
    expect((await api<TaskDetail>('POST', `${TASKS}/${task.id}/transition`, { to: 'in_transit', note: '' })).status).toBe(200);
    // As the code before stored them: the drawn points' length and a rule along the drawn points alone.
    const [policy] = await db.select().from(alarmPolicies).where(eq(alarmPolicies.taskId, task.id));
    const rules = policy!.rules as { type: string; route: [number, number][] }[];
    await db.update(transportTasks).set({ plannedDistanceM: routeLengthM(drawn) }).where(eq(transportTasks.id, task.id));
    await db
      .update(alarmPolicies)
      .set({ rules: rules.map((r) => (r.type === 'yaw' ? { ...r, route: drawn } : r)) })
      .where(eq(alarmPolicies.id, policy!.id));

    const file = readFileSync(new URL('../../../drizzle/0024_task_planned_path.sql', import.meta.url), 'utf8');
    for (const statement of file.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

    const [row] = await db.select().from(transportTasks).where(eq(transportTasks.id, task.id));
    expect(row!.plannedDistanceM).toBeCloseTo(task.plannedDistanceM, 1);
    const [after] = await db.select().from(alarmPolicies).where(eq(alarmPolicies.id, policy!.id));
    const fixed = after!.rules as { type: string; route: [number, number][] }[];
    expect(fixed.map((r) => r.type)).toEqual(rules.map((r) => r.type));
    expect(fixed.find((r) => r.type === 'yaw')!.route).toEqual([[LAT, 121.22], ...drawn, [LAT, 121.3]]);
    expect(fixed.find((r) => r.type === 'temp_high')).toEqual(rules.find((r) => r.type === 'temp_high'));
  });
});

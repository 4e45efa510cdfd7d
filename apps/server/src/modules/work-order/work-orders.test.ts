// Work orders through the API: opened by hand and from alarms the engine raised (code of the
// day, numbered per organisation, no two alike when created at once); an alarm goes into one
// order only and the alarms of one order share an organisation; the alarm shows its order, its
// timeline says so and live clients get the changed alarm; every status move allowed or
// refused, a resolution note, closed is final; edits, assignees and comments in the story;
// filters, paging, export in both languages; errors in zh and en; and organisation isolation:
// another organisation reads, changes and links nothing, and the assignee list stays in the tree.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { AlarmEventRow, AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { AssigneeRow, WorkOrderDetail, WorkOrderEventRow, WorkOrderRow, WorkOrderStatus } from '@iotc/shared/work-order';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { orgs, roleMenus, rolePermissions, roles, users, workOrders } from '../../db/schema.ts';

const BASE = '/api/iot/v2/work-orders';
const CODE = /^WO-(\d{8})-(\d{4})$/;

let t: TestApp;
/** Organisation administrator of the demo organisation. */
let admin: string;
/** The seeded demo operator: alarm:read and alarm:handle, no user:read. */
let operator: string;
/** Only alarm:read in the demo organisation. */
let reader: string;
/** A user of a child organisation of demo. */
let east: string;
/** Another organisation altogether. */
let rival: string;
let ids: { demoOrg: string; eastOrg: string; rivalOrg: string; demoUser: string; adminUser: string; eastUser: string; rivalUser: string; disabledUser: string };
/** Free alarms to take: demo organisation (a*), the child organisation (e*), the rival (r*). */
let pool: { demo: AlarmRow[]; east: AlarmRow[]; rival: AlarmRow[] };

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<T>(t.app, { method, url, token, body, lang });
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
const today = () => new Date().toISOString().slice(0, 10).replaceAll('-', '');

/** Reports 10 °C (above every rule's threshold) and waits for the engine. */
async function tooWarm(d: DeviceWithSecret) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: d.deviceId, time: new Date(Date.now() - 60_000).toISOString(), lat: 31.2, lon: 121.5, speed: 0, extraData: JSON.stringify({ 3: { temp: 100 } }) }),
  });
  expect(res.statusCode).toBe(200);
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
}
async function device(token: string, deviceId: string, orgId?: string): Promise<DeviceWithSecret> {
  const res = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', token, { deviceId, name: deviceId, orgId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
/** A policy with one temperature rule (above 1 °C): each warm device opens one alarm. */
async function policyFor(token: string, orgId: string, targets: string[]) {
  const level = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100', token)).body.data!.rows.find((l) => l.orgId === orgId)!;
  const res = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', token, {
    name: 'work order source',
    scope: 'devices',
    targets,
    rules: [{ id: 'warm1', type: 'temp_high', threshold: 1, levelId: level.id }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
async function alarmsOf(token: string, d: DeviceWithSecret): Promise<AlarmRow[]> {
  const res = await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${d.id}&size=100&sort=startedAt,asc`, token);
  expect(res.status).toBe(200);
  return res.body.data!.rows;
}
/** The next free alarm of a pool. */
const take = (from: AlarmRow[]) => from.shift()!;

async function create(token: string, body: Record<string, unknown>, lang: 'zh-CN' | 'en-US' = 'en-US') {
  return api<WorkOrderDetail>('POST', BASE, token, body, lang);
}
async function made(body: Record<string, unknown>, token = admin): Promise<WorkOrderDetail> {
  const res = await create(token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function move(id: string, to: WorkOrderStatus, note = '', token = admin, lang: 'zh-CN' | 'en-US' = 'en-US') {
  // Closing is signed: the password again (signatures.test.ts covers the signature).
  return api<WorkOrderDetail>('POST', `${BASE}/${id}/transition`, token, { to, note, ...(to === 'closed' ? { password: DEMO_PASSWORD } : {}) }, lang);
}
async function story(id: string, token = admin): Promise<WorkOrderEventRow[]> {
  const res = await api<WorkOrderEventRow[]>('GET', `${BASE}/${id}/events`, token);
  expect(res.status).toBe(200);
  return res.body.data!;
}
async function list(query: string, token = admin): Promise<Page<WorkOrderRow>> {
  const res = await api<Page<WorkOrderRow>>('GET', `${BASE}?${query}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function exported(query: string, lang: 'zh-CN' | 'en-US', token = admin) {
  return t.app.inject({ method: 'GET', url: `${BASE}/export?${query}`, headers: { access_token: token, language: lang, timezone: 'Asia/Shanghai' } });
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  const adminUser = await addOrgUser(db, { orgId: demoOrg, account: 'wo-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  const [readRole] = await db.insert(roles).values({ orgId: demoOrg, code: 'wo-reader', nameZh: '只读', nameEn: 'Reader' }).returning();
  await db.insert(rolePermissions).values({ roleId: readRole!.id, permission: 'alarm:read' });
  // Signing in needs at least one screen.
  await db.insert(roleMenus).values({ roleId: readRole!.id, menuId: '102-monitor-live-device' });
  await addOrgUser(db, { orgId: demoOrg, account: 'wo-reader', password: DEMO_PASSWORD, roleCodes: ['wo-reader'] });
  const disabled = await addOrgUser(db, { orgId: demoOrg, account: 'wo-gone', password: DEMO_PASSWORD, roleCodes: [] });
  await db.update(users).set({ status: 'disabled' }).where(eq(users.id, disabled.id));
  // A child organisation of demo: demo's users see its rows, its users do not see demo's.
  const eastTenant = await createTenantUser(db, { code: 'demo-east', account: 'wo-east', password: DEMO_PASSWORD, orgName: 'Demo East Depot', permissions: ['alarm:read', 'alarm:handle'] });
  await db.update(orgs).set({ parentId: demoOrg }).where(eq(orgs.id, eastTenant.org.id));
  const rivalTenant = await createTenantUser(db, {
    code: 'rival-wo',
    account: 'rival-wo',
    password: DEMO_PASSWORD,
    permissions: ['alarm:read', 'alarm:write', 'alarm:handle', 'device:read', 'device:write'],
  });
  const [demoUser] = await db.select().from(users).where(eq(users.account, 'demo'));
  ids = {
    demoOrg,
    eastOrg: eastTenant.org.id,
    rivalOrg: rivalTenant.org.id,
    demoUser: demoUser!.id,
    adminUser: adminUser.id,
    eastUser: eastTenant.user.id,
    rivalUser: rivalTenant.user.id,
    disabledUser: disabled.id,
  };
  admin = await login(t.app, 'wo-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  reader = await login(t.app, 'wo-reader', DEMO_PASSWORD);
  east = await login(t.app, 'wo-east', DEMO_PASSWORD);
  rival = await login(t.app, 'rival-wo', DEMO_PASSWORD);

  // Real alarms, raised by the engine from reports: one per warm device.
  const several = async (token: string, prefix: string, n: number, orgId?: string) => {
    const made: DeviceWithSecret[] = [];
    for (let i = 1; i <= n; i++) made.push(await device(token, `${prefix}-${i}`, orgId));
    return made;
  };
  const demoDevices = await several(admin, 'WO-DEMO', 12);
  const eastDevices = await several(admin, 'WO-EAST', 6, ids.eastOrg);
  const rivalDevices = await several(rival, 'WO-RIVAL', 2);
  await policyFor(admin, ids.demoOrg, [...demoDevices, ...eastDevices].map((d) => d.id));
  await policyFor(rival, ids.rivalOrg, rivalDevices.map((d) => d.id));
  for (const d of [...demoDevices, ...eastDevices, ...rivalDevices]) await tooWarm(d);
  const alarmsOfAll = async (token: string, devices: DeviceWithSecret[]) => (await Promise.all(devices.map((d) => alarmsOf(token, d)))).flat();
  pool = {
    demo: await alarmsOfAll(admin, demoDevices),
    east: await alarmsOfAll(admin, eastDevices),
    rival: await alarmsOfAll(rival, rivalDevices),
  };
  expect([pool.demo.length, pool.east.length, pool.rival.length]).toEqual([12, 6, 2]);
  expect(pool.demo.every((a) => a.orgId === demoOrg && a.workOrder === null)).toBe(true);
  expect(pool.east.every((a) => a.orgId === ids.eastOrg)).toBe(true);
});
afterAll(async () => {
  await t.close();
});

describe('opening work orders', () => {
  it('opens one by hand with the code of the day, numbered in order, with its story', async () => {
    const first = await made({ title: 'Check reefer unit', description: 'Compressor noise', priority: 'high', assigneeId: ids.demoUser, dueAt: '2030-01-01T08:00:00Z' });
    expect(first).toMatchObject({
      orgId: ids.demoOrg,
      orgName: 'Demo Cold Chain Co.',
      title: 'Check reefer unit',
      description: 'Compressor noise',
      priority: 'high',
      status: 'open',
      source: 'manual',
      assignee: { id: ids.demoUser, account: 'demo', name: 'Demo Operator' },
      dueAt: '2030-01-01T08:00:00.000Z',
      overdue: false,
      alarmCount: 0,
      alarms: [],
      createdBy: 'wo-admin',
      resolvedAt: null,
      closedAt: null,
    });
    expect(first.code).toBe(`WO-${today()}-0001`);
    const second = await made({ title: 'Second' });
    expect(second).toMatchObject({ code: `WO-${today()}-0002`, priority: 'medium', assignee: null, dueAt: null, description: '' });
    const events = await story(first.id);
    expect(events.map((e) => [e.kind, e.actor])).toEqual([
      ['created', 'wo-admin'],
      ['assigned', 'wo-admin'],
    ]);
    expect(events[0]!.detail).toEqual({ source: 'manual', alarmIds: [] });
    expect(events[1]!.detail).toEqual({ userId: ids.demoUser, account: 'demo', name: 'Demo Operator' });
  });

  it('numbers each organisation on its own, and for an organisation of the tree only', async () => {
    const forEast = await made({ title: 'East depot check', orgId: ids.eastOrg });
    expect(forEast).toMatchObject({ orgId: ids.eastOrg, orgName: 'Demo East Depot', code: `WO-${today()}-0001` });
    const foreign = await create(admin, { title: 'Not mine', orgId: ids.rivalOrg });
    expect(foreign).toMatchObject({ status: 404, body: { errorcode: 'NOT_FOUND' } });
    // A child cannot open one for its parent.
    expect((await create(east, { title: 'Up the tree', orgId: ids.demoOrg })).status).toBe(404);
  });

  it('never gives two orders created at once the same code', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => create(operator, { title: `Burst ${i}` })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const numbers = answers.map((a) => Number(CODE.exec(a.body.data!.code)![2])).sort((x, y) => x - y);
    expect(new Set(numbers).size).toBe(6);
    expect(numbers[5]! - numbers[0]!).toBe(5);
  });

  it('opens one from alarms of one organisation: the alarms show it, their timeline says so, live clients get them', async () => {
    const spy = vi.spyOn(t.app.push, 'onAlarms');
    try {
      const [a1, a2] = [take(pool.demo), take(pool.demo)];
      const order = await made({ title: 'Too warm in reefer', alarmIds: [a1.id, a2.id, a1.id] }, operator);
      expect(order).toMatchObject({ source: 'alarm', orgId: ids.demoOrg, alarmCount: 2, createdBy: 'demo' });
      expect(order.alarms.map((a) => a.id).sort()).toEqual([a1.id, a2.id].sort());
      const mark = { id: order.id, code: order.code, status: 'open' };
      expect(order.alarms.map((a) => a.workOrder)).toEqual([mark, mark]);

      const one = await api<AlarmRow>('GET', `/api/iot/v2/alarms/${a1.id}`, admin);
      expect(one.body.data!.workOrder).toEqual(mark);
      const listed = (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?size=100`, admin)).body.data!.rows;
      expect(listed.find((a) => a.id === a2.id)!.workOrder).toEqual(mark);
      expect(listed.find((a) => a.id === pool.demo[0]!.id)!.workOrder).toBeNull();
      const timeline = (await api<AlarmEventRow[]>('GET', `/api/iot/v2/alarms/${a1.id}/events`, admin)).body.data!;
      expect(timeline.map((e) => e.kind)).toEqual(['created', 'work_order_opened']);
      expect(timeline[1]).toMatchObject({ actor: 'demo', detail: { workOrderId: order.id, code: order.code } });

      const published = spy.mock.calls.flatMap(([rows]) => rows);
      expect(published.map((a) => a.id).sort()).toEqual([a1.id, a2.id].sort());
      expect(published.every((a) => a.workOrder?.id === order.id)).toBe(true);

      const events = await story(order.id);
      expect(events[0]).toMatchObject({ kind: 'created', detail: { source: 'alarm' } });
      expect((events[0]!.detail.alarmIds as string[]).sort()).toEqual([a1.id, a2.id].sort());

      // The order follows its alarms' organisation, not the caller's.
      const e = take(pool.east);
      const eastOrder = await made({ title: 'East alarm', alarmIds: [e.id] });
      expect(eastOrder).toMatchObject({ orgId: ids.eastOrg, source: 'alarm' });
      expect(eastOrder.code).toBe(`WO-${today()}-0002`);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses an alarm already in an order (409), alarms of two organisations (400), unknown alarms (400), and writes nothing then', async () => {
    const held = take(pool.demo);
    const free = take(pool.demo);
    const holder = await made({ title: 'Holder', alarmIds: [held.id] });
    const before = (await list('size=1')).total;

    const taken = await create(admin, { title: 'Again', alarmIds: [free.id, held.id] }, 'zh-CN');
    expect(taken).toMatchObject({ status: 409, body: { errorcode: 'WORK_ORDER_ALARM_TAKEN', errormsg: '有告警已属于其他工单' } });
    const takenEn = await create(admin, { title: 'Again', alarmIds: [held.id] });
    expect(takenEn.body.errormsg).toBe('An alarm already belongs to another work order');

    const mixed = await create(admin, { title: 'Mixed', alarmIds: [free.id, pool.east[0]!.id] }, 'zh-CN');
    expect(mixed).toMatchObject({ status: 400, body: { errorcode: 'WORK_ORDER_ALARMS_MIXED', errormsg: '所选告警属于不同组织，请按组织分别创建工单' } });
    const wrongOrg = await create(admin, { title: 'Mixed', orgId: ids.eastOrg, alarmIds: [free.id] });
    expect(wrongOrg).toMatchObject({ status: 400, body: { errorcode: 'WORK_ORDER_ALARMS_MIXED' } });

    const foreign = await create(admin, { title: 'Foreign', alarmIds: [free.id, pool.rival[0]!.id] });
    expect(foreign).toMatchObject({ status: 400, body: { errorcode: 'WORK_ORDER_ALARM_UNKNOWN', errormsg: 'An alarm of the work order does not exist in this organisation' } });
    const missing = await create(admin, { title: 'Missing', alarmIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(missing.body.errorcode).toBe('WORK_ORDER_ALARM_UNKNOWN');
    // The child organisation's user cannot reach the parent's alarms.
    expect((await create(east, { title: 'Parent alarm', alarmIds: [free.id] })).body.errorcode).toBe('WORK_ORDER_ALARM_UNKNOWN');

    expect((await list('size=1')).total).toBe(before);
    expect((await api<AlarmRow>('GET', `/api/iot/v2/alarms/${free.id}`, admin)).body.data!.workOrder).toBeNull();
    expect((await api<AlarmRow>('GET', `/api/iot/v2/alarms/${held.id}`, admin)).body.data!.workOrder!.id).toBe(holder.id);
    pool.demo.unshift(free);
  });

  it('checks the input and the assignee, in the request language', async () => {
    const noTitle = await create(admin, { title: '  ' }, 'zh-CN');
    expect(noTitle).toMatchObject({ status: 400, body: { errorcode: 'WORK_ORDER_TITLE_REQUIRED', errormsg: '请输入工单标题' } });
    const longTitle = await create(admin, { title: 'x'.repeat(101) });
    expect(longTitle).toMatchObject({ status: 400, body: { errorcode: 'WORK_ORDER_TITLE_TOO_LONG', errormsg: 'The title is at most 100 characters' } });
    const tooMany = await create(admin, { title: 'Many', alarmIds: Array.from({ length: 101 }, () => pool.demo[0]!.id) });
    expect(tooMany.body.errorcode).toBe('WORK_ORDER_ALARMS_TOO_MANY');
    expect((await create(admin, { title: 'Bad', priority: 'whenever' })).status).toBe(400);

    for (const userId of [ids.rivalUser, ids.disabledUser, '00000000-0000-4000-8000-000000000000']) {
      const res = await create(admin, { title: 'Assignee', assigneeId: userId }, 'zh-CN');
      expect(res).toMatchObject({ status: 400, body: { errorcode: 'ASSIGNEE_UNKNOWN', errormsg: '该组织下不存在此用户' } });
    }
    // A user of a child organisation is in the tree.
    expect((await made({ title: 'For east user', assigneeId: ids.eastUser })).assignee).toMatchObject({ id: ids.eastUser, account: 'wo-east' });
    // The child's user cannot give work to the parent's users.
    expect((await create(east, { title: 'Up', assigneeId: ids.demoUser })).body.errorcode).toBe('ASSIGNEE_UNKNOWN');
  });
});

describe('statuses', () => {
  /** A fresh order brought to `status`. */
  async function at(status: WorkOrderStatus): Promise<WorkOrderDetail> {
    const order = await made({ title: `At ${status}` });
    if (status === 'in_progress') expect((await move(order.id, 'in_progress')).status).toBe(200);
    if (status === 'resolved') expect((await move(order.id, 'resolved', 'Fixed the seal')).status).toBe(200);
    if (status === 'closed') expect((await move(order.id, 'closed', 'Duplicate')).status).toBe(200);
    return order;
  }
  const ALL: WorkOrderStatus[] = ['open', 'in_progress', 'resolved', 'closed'];
  const ALLOWED: Record<WorkOrderStatus, WorkOrderStatus[]> = {
    open: ['in_progress', 'resolved', 'closed'],
    in_progress: ['resolved', 'closed'],
    resolved: ['in_progress', 'closed'],
    closed: [],
  };

  for (const from of ALL) {
    for (const to of ALL) {
      const allowed = ALLOWED[from].includes(to);
      it(`${from} -> ${to}: ${allowed ? 'moves' : 'refused'}`, async () => {
        const order = await at(from);
        const storyBefore = await story(order.id);
        const res = await move(order.id, to, 'Replaced the door seal', operator);
        if (allowed) {
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          const row = res.body.data!;
          expect(row.status).toBe(to);
          expect(row.resolvedAt !== null).toBe(to === 'resolved' || (to === 'closed' && from === 'resolved'));
          expect(row.closedAt !== null).toBe(to === 'closed');
          const last = (await story(order.id)).at(-1)!;
          expect(last).toMatchObject({ kind: 'status_changed', actor: 'demo', detail: { from, to, note: 'Replaced the door seal' } });
        } else {
          expect(res).toMatchObject({ status: 409, body: { errorcode: from === 'closed' ? 'WORK_ORDER_CLOSED' : 'WORK_ORDER_TRANSITION' } });
          const after = await api<WorkOrderDetail>('GET', `${BASE}/${order.id}`, admin);
          expect(after.body.data!.status).toBe(from);
          expect(await story(order.id)).toEqual(storyBefore);
        }
      });
    }
  }

  it('resolving needs a note of what was done; going back to work clears the resolution time', async () => {
    const order = await made({ title: 'Needs note' });
    for (const note of ['', '   ']) {
      const res = await move(order.id, 'resolved', note, admin, 'zh-CN');
      expect(res).toMatchObject({ status: 400, body: { errorcode: 'WORK_ORDER_RESOLUTION_REQUIRED', errormsg: '请填写处理结果后再标记为已解决' } });
    }
    expect((await move(order.id, 'resolved')).body.errormsg).toBe('Please describe what was done before resolving');
    const resolved = (await move(order.id, 'resolved', '  Reset the controller  ')).body.data!;
    expect(resolved).toMatchObject({ status: 'resolved', resolvedAt: expect.any(String) });
    expect((await story(order.id)).at(-1)!.detail).toEqual({ from: 'open', to: 'resolved', note: 'Reset the controller' });
    const reopened = (await move(order.id, 'in_progress', 'Came back')).body.data!;
    expect(reopened).toMatchObject({ status: 'in_progress', resolvedAt: null });
    const refused = await move(order.id, 'open', '', admin, 'zh-CN');
    expect(refused.body).toMatchObject({ errorcode: 'WORK_ORDER_TRANSITION', errormsg: '工单无法从当前状态变更为该状态' });
  });

  it('a closed order is final: no edit, comment, alarm or move, in either language', async () => {
    const order = await made({ title: 'To close' });
    const closed = (await move(order.id, 'closed', 'Not needed')).body.data!;
    expect(closed).toMatchObject({ status: 'closed', closedAt: expect.any(String), resolvedAt: null });
    const zh = { status: 409, body: { errorcode: 'WORK_ORDER_CLOSED', errormsg: '工单已关闭，不能再修改' } };
    expect(await api('PUT', `${BASE}/${order.id}`, admin, { title: 'Changed' }, 'zh-CN')).toMatchObject(zh);
    expect(await api('POST', `${BASE}/${order.id}/comments`, admin, { text: 'late note' }, 'zh-CN')).toMatchObject(zh);
    expect(await api('POST', `${BASE}/${order.id}/alarms`, admin, { alarmIds: [pool.demo[0]!.id] }, 'zh-CN')).toMatchObject(zh);
    expect(await move(order.id, 'in_progress', '', admin, 'zh-CN')).toMatchObject(zh);
    expect((await move(order.id, 'open')).body).toMatchObject({ errorcode: 'WORK_ORDER_CLOSED', errormsg: 'The work order is closed and can no longer be changed' });
    expect((await api<WorkOrderDetail>('GET', `${BASE}/${order.id}`, admin)).body.data).toMatchObject({ title: 'To close', status: 'closed' });
    expect((await api<AlarmRow>('GET', `/api/iot/v2/alarms/${pool.demo[0]!.id}`, admin)).body.data!.workOrder).toBeNull();
    expect((await story(order.id)).map((e) => e.kind)).toEqual(['created', 'status_changed']);
  });
});

describe('editing, comments and more alarms', () => {
  it('changes fields and the assignee, and the story names what changed; an unchanged save adds nothing', async () => {
    const order = await made({ title: 'Edit me', priority: 'low' });
    const changed = await api<WorkOrderDetail>('PUT', `${BASE}/${order.id}`, operator, { title: 'Edited', priority: 'urgent', dueAt: '2030-02-01T00:00:00Z', assigneeId: ids.adminUser });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ title: 'Edited', priority: 'urgent', dueAt: '2030-02-01T00:00:00.000Z', assignee: { id: ids.adminUser, account: 'wo-admin' }, code: order.code, status: 'open' });
    expect(Date.parse(changed.body.data!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(order.updatedAt));
    let events = await story(order.id);
    expect(events.slice(1).map((e) => [e.kind, e.actor, e.detail])).toEqual([
      ['updated', 'demo', { changed: ['title', 'priority', 'dueAt'] }],
      ['assigned', 'demo', { userId: ids.adminUser, account: 'wo-admin', name: 'User wo-admin' }],
    ]);
    const same = await api('PUT', `${BASE}/${order.id}`, operator, { title: 'Edited', priority: 'urgent', dueAt: '2030-02-01T00:00:00.000Z', assigneeId: ids.adminUser });
    expect(same.status).toBe(200);
    expect(await story(order.id)).toHaveLength(events.length);
    // Leaving out the assignee and due time clears them (PUT replaces the fields).
    const cleared = await api<WorkOrderDetail>('PUT', `${BASE}/${order.id}`, operator, { title: 'Edited', priority: 'urgent' });
    expect(cleared.body.data).toMatchObject({ assignee: null, dueAt: null });
    events = await story(order.id);
    expect(events.slice(-2).map((e) => [e.kind, e.detail])).toEqual([
      ['updated', { changed: ['dueAt'] }],
      ['assigned', { userId: null }],
    ]);
    const bad = await api('PUT', `${BASE}/${order.id}`, operator, { title: 'Edited', priority: 'urgent', assigneeId: ids.rivalUser });
    expect(bad).toMatchObject({ status: 400, body: { errorcode: 'ASSIGNEE_UNKNOWN' } });
    expect((await api('PUT', `${BASE}/${order.id}`, operator, { title: '' }, 'zh-CN')).body.errorcode).toBe('WORK_ORDER_TITLE_REQUIRED');
  });

  it('takes comments into the story', async () => {
    const order = await made({ title: 'Comment me' });
    const empty = await api('POST', `${BASE}/${order.id}/comments`, operator, { text: '  ' }, 'zh-CN');
    expect(empty).toMatchObject({ status: 400, body: { errorcode: 'COMMENT_REQUIRED' } });
    const res = await api<WorkOrderEventRow[]>('POST', `${BASE}/${order.id}/comments`, operator, { text: 'On my way' });
    expect(res.status).toBe(200);
    expect(res.body.data!.map((e) => e.kind)).toEqual(['created', 'commented']);
    expect(res.body.data![1]).toMatchObject({ actor: 'demo', detail: { text: 'On my way' } });
    expect(res.body.data![0]!.id).toBeLessThan(res.body.data![1]!.id);
  });

  it('gathers more alarms of its organisation; alarms already in it are ignored, others refused', async () => {
    const order = await made({ title: 'Gather' });
    const [b1, b2] = [take(pool.demo), take(pool.demo)];
    const res = await api<WorkOrderDetail>('POST', `${BASE}/${order.id}/alarms`, operator, { alarmIds: [b1.id, b2.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ alarmCount: 2, source: 'manual' });
    expect(res.body.data!.alarms.every((a) => a.workOrder?.id === order.id)).toBe(true);
    const again = await api<WorkOrderDetail>('POST', `${BASE}/${order.id}/alarms`, operator, { alarmIds: [b1.id] });
    expect(again.body.data!.alarmCount).toBe(2);
    const events = await story(order.id);
    expect(events.map((e) => e.kind)).toEqual(['created', 'alarms_linked']);
    expect((events[1]!.detail.alarmIds as string[]).sort()).toEqual([b1.id, b2.id].sort());
    const timeline = (await api<AlarmEventRow[]>('GET', `/api/iot/v2/alarms/${b2.id}/events`, admin)).body.data!;
    expect(timeline.at(-1)).toMatchObject({ kind: 'work_order_opened', detail: { workOrderId: order.id, code: order.code } });

    const other = await made({ title: 'Other' });
    expect(await api('POST', `${BASE}/${other.id}/alarms`, admin, { alarmIds: [b1.id] })).toMatchObject({ status: 409, body: { errorcode: 'WORK_ORDER_ALARM_TAKEN' } });
    expect(await api('POST', `${BASE}/${order.id}/alarms`, admin, { alarmIds: [pool.east[0]!.id] })).toMatchObject({ status: 400, body: { errorcode: 'WORK_ORDER_ALARMS_MIXED' } });
    expect(await api('POST', `${BASE}/${order.id}/alarms`, admin, { alarmIds: [pool.rival[0]!.id] })).toMatchObject({ status: 400, body: { errorcode: 'WORK_ORDER_ALARM_UNKNOWN' } });
    expect((await api('POST', `${BASE}/${order.id}/alarms`, admin, { alarmIds: [] }, 'zh-CN')).body).toMatchObject({ errorcode: 'WORK_ORDER_ALARMS_REQUIRED', errormsg: '请至少选择一条告警' });
    expect((await story(order.id)).map((e) => e.kind)).toEqual(['created', 'alarms_linked']);
  });
});

describe('the query and the export', () => {
  let rows: Record<string, WorkOrderDetail>;
  beforeAll(async () => {
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const a = take(pool.demo);
    rows = {
      late: await made({ title: 'Zeta late job', priority: 'urgent', dueAt: past, assigneeId: ids.demoUser }),
      lateResolved: await made({ title: 'Zeta late but resolved', priority: 'low', dueAt: past }),
      soon: await made({ title: 'Zeta soon', priority: 'high', dueAt: future, assigneeId: ids.demoUser }),
      noDue: await made({ title: 'Zeta no due', priority: 'medium', alarmIds: [a.id] }),
      working: await made({ title: 'Zeta working', priority: 'low', assigneeId: ids.adminUser }),
    };
    expect((await move(rows.lateResolved!.id, 'resolved', 'done')).status).toBe(200);
    expect((await move(rows.working!.id, 'in_progress')).status).toBe(200);
  });
  const titles = (p: Page<WorkOrderRow>) => p.rows.map((r) => r.title).sort();

  it('filters by status, priority, assignee, mine, overdue, alarm and keyword', async () => {
    expect((await list('keyword=zeta&size=100')).total).toBe(5);
    expect(titles(await list('keyword=zeta&status=open'))).toEqual(['Zeta late job', 'Zeta no due', 'Zeta soon']);
    expect(titles(await list('keyword=zeta&status=resolved,in_progress'))).toEqual(['Zeta late but resolved', 'Zeta working']);
    expect(titles(await list('keyword=zeta&priority=urgent,high'))).toEqual(['Zeta late job', 'Zeta soon']);
    expect(titles(await list(`keyword=zeta&assigneeId=${ids.adminUser}`))).toEqual(['Zeta working']);
    expect(titles(await list('keyword=zeta&mine=true', operator))).toEqual(['Zeta late job', 'Zeta soon']);
    expect(titles(await list('keyword=zeta&mine=true', admin))).toEqual(['Zeta working']);
    const overdue = await list('keyword=zeta&overdue=true');
    expect(titles(overdue)).toEqual(['Zeta late job']);
    expect(overdue.rows[0]!.overdue).toBe(true);
    expect(titles(await list('keyword=zeta&overdue=false'))).toEqual(['Zeta late but resolved', 'Zeta no due', 'Zeta soon', 'Zeta working']);
    expect((await list(`keyword=zeta`)).rows.find((r) => r.title === 'Zeta late but resolved')!.overdue).toBe(false);
    const alarmId = rows.noDue!.alarms[0]!.id;
    expect(titles(await list(`alarmId=${alarmId}`))).toEqual(['Zeta no due']);
    expect(titles(await list(`keyword=${rows.soon!.code}`))).toEqual(['Zeta soon']);
    expect((await list('keyword=%25%25')).total).toBe(0);
    expect((await list('keyword=zeta&from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z')).total).toBe(0);
    expect((await list(`orgId=${ids.eastOrg}&size=100`)).rows.every((r) => r.orgId === ids.eastOrg)).toBe(true);
    expect((await api('GET', `${BASE}?status=waiting`, admin)).status).toBe(400);
    expect((await api('GET', `${BASE}?sort=title,asc`, admin)).body.errorcode).toBe('VALIDATION');
  });

  it('sorts and pages', async () => {
    const byPriority = await list('keyword=zeta&sort=priority,asc&size=100');
    expect(byPriority.rows.map((r) => r.priority)).toEqual(['urgent', 'high', 'medium', 'low', 'low']);
    const newest = await list('keyword=zeta&size=100');
    expect(newest.rows[0]!.title).toBe('Zeta working');
    // Due first; orders without a due time last.
    const byDue = (await list('keyword=zeta&sort=dueAt,asc&size=100')).rows;
    expect(byDue.slice(0, 2).map((r) => r.title).sort()).toEqual(['Zeta late but resolved', 'Zeta late job']);
    expect(byDue[2]!.title).toBe('Zeta soon');
    expect(byDue.slice(3).map((r) => r.dueAt)).toEqual([null, null]);
    const page1 = await list('keyword=zeta&size=2&page=1');
    const page2 = await list('keyword=zeta&size=2&page=2');
    const page3 = await list('keyword=zeta&size=2&page=3');
    expect([page1.total, page2.total, page3.total]).toEqual([5, 5, 5]);
    expect([page1.rows.length, page2.rows.length, page3.rows.length]).toEqual([2, 2, 1]);
    expect(new Set([...page1.rows, ...page2.rows, ...page3.rows].map((r) => r.id)).size).toBe(5);
    expect(page2).toMatchObject({ page: 2, size: 2 });
  });

  it('exports the query in both languages and the request time zone', async () => {
    const en = await exported('format=csv&keyword=zeta&sort=priority,asc', 'en-US');
    expect(en.statusCode).toBe(200);
    expect(en.headers['content-type']).toContain('text/csv');
    expect(String(en.headers['content-disposition'])).toContain('work-orders-');
    const lines = en.body.replace(/^\ufeff/, '').trim().split('\n');
    expect(lines[0]).toBe('Code,Title,Status,Priority,Assignee,Due,Overdue,Source,Alarms,Description,Created by,Created,Updated,Resolved,Closed,Organisation');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toContain(`${rows.late!.code},Zeta late job,Open,Urgent,Demo Operator (demo),`);
    expect(lines[1]).toContain(',Yes,Manual,0,');
    expect(lines.find((l) => l.includes('Zeta no due'))).toContain(',No,Alarm,1,');

    const zh = await exported('format=xlsx&keyword=zeta', 'zh-CN');
    expect(zh.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(zh.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('工单')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      '工单编号', '标题', '状态', '优先级', '处理人', '截止时间', '已逾期', '来源', '告警数', '描述', '创建人', '创建时间', '更新时间', '解决时间', '关闭时间', '组织',
    ]);
    expect(sheet.rowCount).toBe(6);
    const resolvedRow = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(resolvedRow.slice(0, 3)).toEqual([rows.working!.code, 'Zeta working', '处理中']);
    // Shown in Asia/Shanghai, YYYY-MM-DD HH:mm:ss.
    const soonDue = new Date(new Date(rows.soon!.dueAt!).getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const soonRow = [...Array(sheet.rowCount).keys()].map((i) => (sheet.getRow(i + 1).values as unknown[]).slice(1)).find((r) => r[1] === 'Zeta soon')!;
    expect(soonRow[5]).toBe(soonDue);
    expect(soonRow.slice(2, 4)).toEqual(['待处理', '高']);
  });
});

describe('permissions and organisation isolation', () => {
  let demoOrder: WorkOrderDetail;
  let rivalOrder: WorkOrderDetail;
  beforeAll(async () => {
    demoOrder = await made({ title: 'Demo private job' });
    rivalOrder = await made({ title: 'Rival job', alarmIds: [take(pool.rival).id] }, rival);
  });

  it('reading needs alarm:read, changing needs alarm:handle', async () => {
    expect((await api('GET', BASE, reader)).status).toBe(200);
    expect((await api('GET', `${BASE}/${demoOrder.id}`, reader)).status).toBe(200);
    expect((await api('GET', `${BASE}/${demoOrder.id}/events`, reader)).status).toBe(200);
    expect((await exported('format=csv', 'en-US', reader)).statusCode).toBe(200);
    const denied = { status: 403, body: { errormsg: '暂无权限' } };
    expect(await api('POST', BASE, reader, { title: 'x' }, 'zh-CN')).toMatchObject(denied);
    expect(await api('PUT', `${BASE}/${demoOrder.id}`, reader, { title: 'x' }, 'zh-CN')).toMatchObject(denied);
    expect(await move(demoOrder.id, 'in_progress', '', reader, 'zh-CN')).toMatchObject(denied);
    expect(await api('POST', `${BASE}/${demoOrder.id}/comments`, reader, { text: 'x' }, 'zh-CN')).toMatchObject(denied);
    expect(await api('POST', `${BASE}/${demoOrder.id}/alarms`, reader, { alarmIds: [pool.demo[0]!.id] }, 'zh-CN')).toMatchObject(denied);
    expect(await api('GET', '/api/iot/v2/assignees', reader, undefined, 'zh-CN')).toMatchObject(denied);
    expect((await api('GET', BASE, '')).status).toBe(401);
  });

  it('another organisation lists, reads, changes, comments, moves, links and exports none of ours', async () => {
    const theirs = await list('size=100', rival);
    expect(theirs.rows.map((r) => r.id)).toEqual([rivalOrder.id]);
    expect(theirs.total).toBe(1);
    expect((await api('GET', `${BASE}?orgId=${ids.demoOrg}`, rival)).status).toBe(404);
    const id = demoOrder.id;
    expect((await api('GET', `${BASE}/${id}`, rival)).status).toBe(404);
    expect((await api('GET', `${BASE}/${id}/events`, rival)).status).toBe(404);
    expect((await api('PUT', `${BASE}/${id}`, rival, { title: 'Hijacked' })).status).toBe(404);
    expect((await move(id, 'closed', 'x', rival)).status).toBe(404);
    expect((await api('POST', `${BASE}/${id}/comments`, rival, { text: 'hello' })).status).toBe(404);
    expect((await api('POST', `${BASE}/${id}/alarms`, rival, { alarmIds: [pool.rival[0]!.id] })).status).toBe(404);
    const csv = (await exported('format=csv', 'en-US', rival)).body;
    expect(csv).toContain(rivalOrder.code);
    expect(csv).not.toContain('Demo private job');
    expect(csv.trim().split('\n')).toHaveLength(2);
    // Nor can we touch theirs, or their alarms.
    expect((await api('GET', `${BASE}/${rivalOrder.id}`, admin)).status).toBe(404);
    expect((await move(rivalOrder.id, 'closed', 'x', admin)).status).toBe(404);
    expect((await api('POST', `${BASE}/${id}/alarms`, admin, { alarmIds: [pool.rival[0]!.id] })).body.errorcode).toBe('WORK_ORDER_ALARM_UNKNOWN');
    expect((await list('size=100')).rows.some((r) => r.id === rivalOrder.id)).toBe(false);
    // Nothing changed.
    expect((await api<WorkOrderDetail>('GET', `${BASE}/${id}`, admin)).body.data).toMatchObject({ title: 'Demo private job', status: 'open', alarmCount: 0 });
    expect((await story(id)).map((e) => e.kind)).toEqual(['created']);
    const [row] = await t.app.database.db.select().from(workOrders).where(eq(workOrders.id, rivalOrder.id));
    expect(row!.status).toBe('open');
  });

  it('a child organisation sees its own orders only; the parent sees the child’s', async () => {
    const mine = await list('size=100', east);
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.rows.every((r) => r.orgId === ids.eastOrg)).toBe(true);
    expect((await api('GET', `${BASE}/${demoOrder.id}`, east)).status).toBe(404);
    const parentView = await list(`orgId=${ids.eastOrg}&size=100`);
    expect(parentView.rows.map((r) => r.id).sort()).toEqual(mine.rows.map((r) => r.id).sort());
  });

  it('assignees: active users of the caller’s tree by name, for the operator role too', async () => {
    const res = await api<AssigneeRow[]>('GET', '/api/iot/v2/assignees', operator);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const accounts = res.body.data!.map((u) => u.account);
    expect(accounts).toEqual(expect.arrayContaining(['demo', 'wo-admin', 'wo-reader', 'wo-east']));
    expect(accounts).not.toContain('wo-gone');
    expect(accounts).not.toContain('rival-wo');
    expect(res.body.data!.every((u) => [ids.demoOrg, ids.eastOrg].includes(u.orgId))).toBe(true);
    const names = res.body.data!.map((u) => u.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(res.body.data!.find((u) => u.account === 'wo-east')).toEqual({ id: ids.eastUser, account: 'wo-east', name: 'User wo-east', orgId: ids.eastOrg, orgName: 'Demo East Depot' });

    const narrowed = (await api<AssigneeRow[]>('GET', `/api/iot/v2/assignees?orgId=${ids.eastOrg}`, operator)).body.data!;
    expect(narrowed.map((u) => u.account)).toEqual(['wo-east']);
    const byKeyword = (await api<AssigneeRow[]>('GET', '/api/iot/v2/assignees?keyword=OPERATOR', operator)).body.data!;
    expect(byKeyword.map((u) => u.account)).toEqual(['demo']);
    expect((await api('GET', `/api/iot/v2/assignees?orgId=${ids.rivalOrg}`, operator)).status).toBe(404);
    const theirs = (await api<AssigneeRow[]>('GET', '/api/iot/v2/assignees', rival)).body.data!;
    expect(theirs.map((u) => u.account)).toEqual(['rival-wo']);
    const child = (await api<AssigneeRow[]>('GET', '/api/iot/v2/assignees', east)).body.data!;
    expect(child.map((u) => u.account)).toEqual(['wo-east']);
  });
});

describe('OpenAPI', () => {
  it('describes every work-order call with its tag', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = (res.json() as { paths: Record<string, Record<string, { tags?: string[] }>> }).paths;
    const expected: [string, string][] = [
      ['/api/iot/v2/work-orders', 'get'],
      ['/api/iot/v2/work-orders', 'post'],
      ['/api/iot/v2/work-orders/export', 'get'],
      ['/api/iot/v2/work-orders/{id}', 'get'],
      ['/api/iot/v2/work-orders/{id}', 'put'],
      ['/api/iot/v2/work-orders/{id}/transition', 'post'],
      ['/api/iot/v2/work-orders/{id}/comments', 'post'],
      ['/api/iot/v2/work-orders/{id}/alarms', 'post'],
      ['/api/iot/v2/work-orders/{id}/events', 'get'],
    ];
    for (const [path, method] of expected) expect(paths[path]?.[method]?.tags, `${method} ${path}`).toEqual(['work orders']);
    expect(paths['/api/iot/v2/assignees']?.get?.tags).toEqual(['assignees']);
  });
});

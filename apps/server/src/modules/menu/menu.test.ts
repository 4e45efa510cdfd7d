// loadMenu and dictionaries through inject(): the seeded three-level menus per scenario in both
// languages, what each role sees, bad input, and the dictionaries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dict, MenuItem } from '@iotc/shared/auth';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { orgs, roleMenus, roles, userRoles, users } from '../../db/schema.ts';
import { hashPassword } from '../../lib/password.ts';
import { createTenantUser } from '../../test/fixtures.ts';

const MENU = '/iot-cloud-auth/menu/v1/loadMenu';
const DICT = '/iot-cloud-auth/dict/v1/all/config';

let t: TestApp;
let demo: string;
let admin: string;
beforeAll(async () => {
  t = await testApp();
  demo = await login(t.app, 'demo', DEMO_PASSWORD);
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t.close();
});

function leaves(items: MenuItem[]): MenuItem[] {
  return items.flatMap((m) => (m.children.length ? leaves(m.children) : [m]));
}
function depth(items: MenuItem[]): number {
  return items.length ? 1 + Math.max(...items.map((m) => depth(m.children))) : 0;
}

describe('loadMenu', () => {
  it('gives the operator the device scenario (102) by default, three levels, English names', async () => {
    const r = await call<MenuItem[]>(t.app, { method: 'POST', url: MENU, token: demo, body: {} });
    expect(r.status).toBe(200);
    const tree = r.body.data!;
    expect(tree.map((m) => m.name)).toEqual([
      'Monitoring and alarm management',
      'Warehouse operations',
      'Operational data comparison',
      'Equipment asset management',
      'Fault management',
      'Reports',
      'Cockpit',
      'Blockchain traceability',
    ]);
    expect(depth(tree)).toBe(3);
    const urls = leaves(tree).map((m) => m.url);
    expect(urls).toContain('view/deviceManage/realTimeMonitoring');
    expect(urls).toContain('view/alarm/policy');
    expect(urls).toContain('view/asset/remoteControl');
    // Every child names its parent as pid.
    for (const top of tree) for (const c of top.children) expect(c.pid).toBe(top.id);
    expect(tree.map((m) => m.name)).not.toContain('Platform management');
  });

  it('gives names in Chinese for language zh-CN, with no body at all', async () => {
    const res = await t.app.inject({ method: 'POST', url: MENU, headers: { access_token: demo, language: 'zh-CN' } });
    expect(res.statusCode).toBe(200);
    const tree = (res.json() as { data: MenuItem[] }).data;
    expect(tree[0]!.name).toBe('监控告警管理');
    expect(tree[0]!.children[0]!.children[0]!.name).toBe('设备实时监控');
  });

  it.each([
    [101, 'view/scenario_transport/deviceManage/realTimeMonitoring'],
    [102, 'view/deviceManage/realTimeMonitoring'],
    [103, 'view/scenario_container/deviceManage/realTimeMonitoring'],
    [104, 'view/scenario_vehicle/deviceManage/realTimeMonitoring'],
  ])('scenario %i opens real-time monitoring at %s', async (type, url) => {
    const r = await call<MenuItem[]>(t.app, { method: 'POST', url: MENU, token: demo, body: { type } });
    expect(leaves(r.body.data!).map((m) => m.url)).toContain(url);
  });

  it('the transport scenario has the transport task management area', async () => {
    const r = await call<MenuItem[]>(t.app, { method: 'POST', url: MENU, token: demo, body: { type: 101 } });
    const transport = r.body.data!.find((m) => m.name === 'Transport task management')!;
    expect(leaves([transport]).map((m) => m.name)).toEqual(
      expect.arrayContaining(['Task information', 'History track', 'Status monitoring', 'Templates', 'Sensor curve monitoring']),
    );
  });

  it('the platform administrator also sees platform management', async () => {
    const r = await call<MenuItem[]>(t.app, { method: 'POST', url: MENU, token: admin, body: { type: 102 } });
    const platform = r.body.data!.find((m) => m.name === 'Platform management');
    expect(platform?.children.map((c) => c.url)).toEqual(['view/system/orgs', 'view/system/users', 'view/system/roles', 'view/system/auditLogs', 'view/system/outbox', 'view/system/retention', 'view/system/storage', 'view/system/map', 'view/system/notices']);
  });

  it('a role granted one leaf sees that leaf with its parents only', async () => {
    const db = t.app.database.db;
    const [org] = await db.insert(orgs).values({ code: 'narrow', name: 'Narrow' }).returning();
    const [role] = await db.insert(roles).values({ orgId: org!.id, code: 'r', nameZh: '窄', nameEn: 'Narrow' }).returning();
    await db.insert(roleMenus).values({ roleId: role!.id, menuId: '102-monitor-alarm-query' });
    const [u] = await db
      .insert(users)
      .values({ orgId: org!.id, account: 'narrow', name: 'N', passwordHash: await hashPassword('Narrow#123') })
      .returning();
    await db.insert(userRoles).values({ userId: u!.id, roleId: role!.id });
    const token = await login(t.app, 'narrow', 'Narrow#123');
    const r = await call<MenuItem[]>(t.app, { method: 'POST', url: MENU, token, body: { type: 102 } });
    expect(r.body.data).toEqual([
      expect.objectContaining({
        id: '102-monitor',
        children: [expect.objectContaining({ id: '102-monitor-alarm', children: [expect.objectContaining({ url: 'view/alarm/query' })] })],
      }),
    ]);
    // The same role opens nothing in another scenario.
    const other = await call<MenuItem[]>(t.app, { method: 'POST', url: MENU, token, body: { type: 101 } });
    expect(other.body.data).toEqual([]);
  });

  it.each([[{ type: 999 }], [{ type: 'abc' }], [{ type: 101.5 }]])('refuses %j with 400', async (body) => {
    const r = await call(t.app, { method: 'POST', url: MENU, token: demo, body });
    expect(r.status).toBe(400);
    expect(r.body.errorcode).toBe('VALIDATION');
  });

  it('needs a token', async () => {
    expect((await call(t.app, { method: 'POST', url: MENU, body: {} })).status).toBe(401);
  });
});

describe('dictionaries', () => {
  it('lists every dictionary with values in the request language', async () => {
    const en = await call<Dict[]>(t.app, { method: 'GET', url: DICT, token: demo });
    expect(en.status).toBe(200);
    const codes = en.body.data!.map((d) => d.dictCode);
    expect(codes).toEqual(['device_status', 'alarm_type', 'alarm_level', 'door_state', 'network', 'positioning', 'audit_action', 'audit_result']);
    const door = en.body.data!.find((d) => d.dictCode === 'door_state')!;
    expect(door.children).toEqual([
      { dictKey: '0', dictVal: 'Closed' },
      { dictKey: '1', dictVal: 'Open' },
    ]);
    const status = en.body.data!.find((d) => d.dictCode === 'device_status')!;
    expect(status.children.map((c) => c.dictKey)).toEqual(['unused', 'shutdown', 'offline', 'parked', 'driving']);
    const levels = en.body.data!.find((d) => d.dictCode === 'alarm_level')!;
    expect(levels.children.map((c) => c.dictVal)).toEqual(['Urgent', 'Important', 'Minor', 'Reminder']);

    const zh = await call<Dict[]>(t.app, { method: 'GET', url: DICT, token: demo, lang: 'zh-CN' });
    expect(zh.body.data!.find((d) => d.dictCode === 'door_state')!.children.map((c) => c.dictVal)).toEqual(['关闭', '打开']);
  });

  it('needs a token', async () => {
    expect((await call(t.app, { method: 'GET', url: DICT })).status).toBe(401);
  });
});

describe('my services', () => {
  const SERVICES = '/api/iot/v2/my-services';
  type Services = { services: { key: string; type: number; url: string }[]; platformManagement: { type: number; url: string } | null };

  it('lists every scenario the operator may open, with where each opens, and no platform entry', async () => {
    const r = await call<Services>(t.app, { method: 'GET', url: SERVICES, token: demo });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      services: [
        { key: 'warehouse', type: 102, url: 'view/warehouse/manage' },
        { key: 'transport', type: 101, url: 'view/scenario_transport/deviceManage/realTimeMonitoring' },
        { key: 'device', type: 102, url: 'view/deviceManage/realTimeMonitoring' },
        { key: 'container', type: 103, url: 'view/scenario_container/deviceManage/realTimeMonitoring' },
        { key: 'vehicle', type: 104, url: 'view/scenario_vehicle/deviceManage/realTimeMonitoring' },
      ],
      platformManagement: null,
    });
  });

  it('gives the platform administrator the platform-management entry beside the services', async () => {
    const r = await call<Services>(t.app, { method: 'GET', url: SERVICES, token: admin });
    expect(r.body.data!.services).toHaveLength(5);
    expect(r.body.data!.platformManagement).toEqual({ type: 102, url: 'view/system/auditLogs' });
  });

  it('a role that opens one device-scenario screen has the device service only, opening that screen', async () => {
    await createTenantUser(t.app.database.db, { code: 'svc', account: 'svc', password: 'Svc#12345', menuIds: ['102-monitor-alarm-query'] });
    const token = await login(t.app, 'svc', 'Svc#12345');
    const r = await call<Services>(t.app, { method: 'GET', url: SERVICES, token });
    expect(r.body.data).toEqual({ services: [{ key: 'device', type: 102, url: 'view/alarm/query' }], platformManagement: null });
  });

  it('needs a token', async () => {
    expect((await call(t.app, { method: 'GET', url: SERVICES })).status).toBe(401);
  });
});

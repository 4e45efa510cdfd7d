// Platform management through inject(): the organisation tree, users with initial passwords,
// roles granting actions and menu items, 403 'No permission' on every call a role does not grant,
// no reach into another organisation, no granting beyond one's own, and the audit of each change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LoginData, MenuItem, MyServices } from '@iotc/shared/auth';
import type { Page } from '@iotc/shared/envelope';
import type { Grantables, InitialPasswordData, OrgNode, RoleRow, UserRow } from '@iotc/shared/platform';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { auditLogs, orgs } from '../../db/schema.ts';
import { addOrgUser } from '../../test/fixtures.ts';

let t: TestApp;
let admin: string;
let demoAdmin: string;
let operator: string;
let demoOrg: string;
let platformOrg: string;

beforeAll(async () => {
  t = await testApp();
  const all = await t.app.database.db.select().from(orgs);
  demoOrg = all.find((o) => o.code === 'demo')!.id;
  platformOrg = all.find((o) => o.code === 'platform')!.id;
  await addOrgUser(t.app.database.db, { orgId: demoOrg, account: 'demo-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  demoAdmin = await login(t.app, 'demo-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const api = <T>(method: Method, url: string, token: string, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<T>(t.app, { method, url, token, body, lang });

async function newOrg(token: string, parentId: string, code: string, name = `Org ${code}`) {
  const r = await api<OrgNode>('POST', '/api/iot/v2/orgs', token, { parentId, code, name });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data!;
}

async function newRole(token: string, body: Record<string, unknown>) {
  const r = await api<RoleRow>('POST', '/api/iot/v2/roles', token, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data!;
}

const menuIds = (items: MenuItem[]): string[] => items.flatMap((m) => [m.id, ...menuIds(m.children)]);

describe('permissions', () => {
  it("answers 403 'No permission' to every management call the caller's roles do not grant", async () => {
    const calls: [Method, string, unknown?][] = [
      ['GET', '/api/iot/v2/orgs/tree'],
      ['POST', '/api/iot/v2/orgs', { parentId: demoOrg, code: 'x1', name: 'x' }],
      ['GET', '/api/iot/v2/users'],
      ['POST', '/api/iot/v2/users', { orgId: demoOrg, account: 'sneaky', name: 'x' }],
      ['GET', '/api/iot/v2/roles'],
      ['POST', '/api/iot/v2/roles', { orgId: demoOrg, code: 'boss', nameZh: '老板', nameEn: 'Boss', permissions: ['user:write'] }],
      ['GET', '/api/iot/v2/permissions'],
      ['GET', '/api/iot/v2/audit-logs'],
    ];
    for (const [method, url, body] of calls) {
      const r = await api(method, url, operator, body, 'zh-CN');
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body).toMatchObject({ isSuccess: 'N', errorcode: 'NO_PERMISSION', errormsg: '暂无权限' });
    }
    expect((await api('GET', '/api/iot/v2/users', '')).status).toBe(401);
  });

  it('a role granting only reading lets read but not write', async () => {
    const role = await newRole(admin, { orgId: demoOrg, code: 'viewer', nameZh: '只读', nameEn: 'Viewer', permissions: ['user:read'], menuIds: ['102-platform-users'] });
    await addOrgUser(t.app.database.db, { orgId: demoOrg, account: 'viewer1', password: DEMO_PASSWORD, roleCodes: ['viewer'] });
    const viewer = await login(t.app, 'viewer1', DEMO_PASSWORD);
    expect((await api('GET', '/api/iot/v2/users', viewer)).status).toBe(200);
    const write = await api('POST', '/api/iot/v2/users', viewer, { orgId: demoOrg, account: 'nope1', name: 'x' });
    expect(write.status).toBe(403);
    // The menu shows the granted management screen, and My Services offers platform management at it.
    const menu = await call<MenuItem[]>(t.app, { method: 'POST', url: '/iot-cloud-auth/menu/v1/loadMenu', token: viewer, body: { type: 102 } });
    expect(menuIds(menu.body.data!)).toEqual(['102-platform', '102-platform-users']);
    const services = await api<MyServices>('GET', '/api/iot/v2/my-services', viewer);
    expect(services.body.data!.platformManagement).toEqual({ type: 102, url: 'view/system/users' });
    const info = await call<{ permissions: string[] }>(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/info', token: viewer });
    expect(info.body.data!.permissions).toEqual(['user:read']);
    expect(role.userCount).toBe(0);
  });
});

describe('organisations', () => {
  it('shows the caller its own tree only, and manages children within it', async () => {
    const east = await newOrg(demoAdmin, demoOrg, 'demo-east', 'East depot');
    const shanghai = await newOrg(demoAdmin, east.id, 'demo-sh', 'Shanghai cold store');
    const tree = await api<OrgNode[]>('GET', '/api/iot/v2/orgs/tree', demoAdmin);
    expect(tree.body.data!.map((o) => o.code)).toEqual(['demo']);
    const demo = tree.body.data![0]!;
    const eastNode = demo.children.find((c) => c.code === 'demo-east')!;
    expect(eastNode.children.map((c) => c.name)).toEqual(['Shanghai cold store']);
    // The platform administrator sees the platform at the root, the demo organisation beneath.
    const all = await api<OrgNode[]>('GET', '/api/iot/v2/orgs/tree', admin);
    expect(all.body.data!.map((o) => o.code)).toEqual(['platform']);
    expect(all.body.data![0]!.children.map((c) => c.code)).toContain('demo');

    expect((await api('PUT', `/api/iot/v2/orgs/${shanghai.id}`, demoAdmin, { name: 'Shanghai Pudong' })).status).toBe(200);
    const dup = await api('POST', '/api/iot/v2/orgs', demoAdmin, { parentId: demoOrg, code: 'DEMO-EAST', name: 'x' }, 'zh-CN');
    expect(dup.body).toMatchObject({ errorcode: 'ORG_CODE_TAKEN', errormsg: '该组织编码已存在' });
    const badCode = await api('POST', '/api/iot/v2/orgs', demoAdmin, { parentId: demoOrg, code: 'a b', name: 'x' });
    expect(badCode.body.errorcode).toBe('CODE_FORMAT_KEY');

    // Not empty: it has a child; then the child goes, then it can go.
    const busy = await api('DELETE', `/api/iot/v2/orgs/${east.id}`, demoAdmin);
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ errorcode: 'ORG_NOT_EMPTY', errormsg: 'The organisation still has users, sub-organisations, devices or assets and cannot be deleted' });
    // A device keeps its organisation too, until it is deleted.
    const tracker = await api<{ id: string }>('POST', '/api/iot/v2/devices', demoAdmin, { deviceId: 'SH-TRACKER-01', name: 'Shanghai tracker', orgId: shanghai.id });
    expect(tracker.status).toBe(200);
    const withDevice = await api('DELETE', `/api/iot/v2/orgs/${shanghai.id}`, demoAdmin, undefined, 'zh-CN');
    expect(withDevice.body).toMatchObject({ errorcode: 'ORG_NOT_EMPTY', errormsg: '该组织下仍有用户、下级组织、设备或资产，无法删除' });
    expect((await api('DELETE', `/api/iot/v2/devices/${tracker.body.data!.id}`, demoAdmin)).status).toBe(200);
    expect((await api('DELETE', `/api/iot/v2/orgs/${shanghai.id}`, demoAdmin)).status).toBe(200);
    expect((await api('DELETE', `/api/iot/v2/orgs/${east.id}`, demoAdmin)).status).toBe(200);
    expect((await api('DELETE', `/api/iot/v2/orgs/${demoOrg}`, demoAdmin)).body.errorcode).toBe('NOT_YOUR_ORG');
    expect((await api('POST', `/api/iot/v2/orgs/${demoOrg}/deactivate`, demoAdmin)).body.errorcode).toBe('NOT_YOUR_ORG');

    const actions = (await t.app.database.db.select().from(auditLogs).where(eq(auditLogs.account, 'demo-admin'))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['org_create', 'org_update', 'org_delete']));
  });

  it('deactivating an organisation stops its users (and its sub-organisations’) at once', async () => {
    const branch = await newOrg(demoAdmin, demoOrg, 'demo-branch');
    const sub = await newOrg(demoAdmin, branch.id, 'demo-branch-sub');
    await addOrgUser(t.app.database.db, { orgId: sub.id, account: 'branch-user', password: DEMO_PASSWORD, roleCodes: [] });
    const branchUserRole = await newRole(demoAdmin, { orgId: branch.id, code: 'monitor', nameZh: '监控', nameEn: 'Monitor', menuIds: ['102-monitor-live-device'] });
    const made = await api<Page<UserRow>>('GET', `/api/iot/v2/users?keyword=branch-user`, demoAdmin);
    const userId = made.body.data!.rows[0]!.id;
    expect((await api('PUT', `/api/iot/v2/users/${userId}/roles`, demoAdmin, { roleIds: [branchUserRole.id] })).status).toBe(200);
    const token = await login(t.app, 'branch-user', DEMO_PASSWORD);
    expect((await api('POST', `/api/iot/v2/orgs/${branch.id}/deactivate`, demoAdmin)).status).toBe(200);
    expect((await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/info', token })).status).toBe(401);
    const again = await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'branch-user', password: DEMO_PASSWORD } });
    expect(again.body.errorcode).toBe('ACCOUNT_DEACTIVATED');
    expect((await api('POST', `/api/iot/v2/orgs/${branch.id}/activate`, demoAdmin)).status).toBe(200);
    expect(await login(t.app, 'branch-user', DEMO_PASSWORD)).toBeTruthy();
  });
});

describe('users', () => {
  it('creates a user with a generated initial password that must be changed, and lists it with its roles', async () => {
    const roles = await api<Page<RoleRow>>('GET', `/api/iot/v2/roles?orgId=${demoOrg}&size=100`, demoAdmin, undefined, 'zh-CN');
    const operatorRole = roles.body.data!.rows.find((r) => r.code === 'operator')!;
    expect(operatorRole.name).toBe('运营人员');
    const made = await api<InitialPasswordData>('POST', '/api/iot/v2/users', demoAdmin, {
      orgId: demoOrg,
      account: 'zhang.wei',
      name: '张伟',
      email: 'zhang.wei@example.com',
      phone: '13700001111',
      roleIds: [operatorRole.id],
    });
    expect(made.status).toBe(200);
    const { initialPassword } = made.body.data!;
    expect(initialPassword).toMatch(/^(?=.*\d)(?=.*[A-Za-z])(?=.*[#@$%&*!]).{11}$/);
    const first = await call<LoginData>(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'zhang.wei', password: initialPassword } });
    expect(first.body.data).toMatchObject({ mustChangePassword: true });
    expect(first.body.data!.user.roles).toEqual(['operator']);

    const list = await api<Page<UserRow>>('GET', '/api/iot/v2/users?keyword=zhang&sort=account,asc', demoAdmin, undefined, 'zh-CN');
    expect(list.body.data!.rows).toEqual([
      expect.objectContaining({ account: 'zhang.wei', name: '张伟', orgName: 'Demo Cold Chain Co.', status: 'active', mustChangePassword: true, roles: [{ id: operatorRole.id, name: '运营人员' }] }),
    ]);
    const dup = await api('POST', '/api/iot/v2/users', demoAdmin, { orgId: demoOrg, account: 'Zhang.Wei', name: 'x' });
    expect(dup.status).toBe(409);
    expect(dup.body.errorcode).toBe('ACCOUNT_TAKEN');
    const weak = await api('POST', '/api/iot/v2/users', demoAdmin, { orgId: demoOrg, account: 'weak.one', name: 'x', password: 'abc' }, 'zh-CN');
    expect(weak.body).toMatchObject({ errorcode: 'PASSWORD_FORMAT', errormsg: '您输入的密码格式有误，请重新输入' });
    const [created] = (await t.app.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'user_create'))).filter((a) => a.detail?.startsWith('zhang.wei'));
    expect(created).toMatchObject({ account: 'demo-admin', orgId: demoOrg, detail: 'zhang.wei roles=operator' });
    expect(JSON.stringify(await t.app.database.db.select().from(auditLogs))).not.toContain(initialPassword);
  });

  it('deactivates (ending sessions), reactivates, resets the password and reassigns roles; never one’s own account', async () => {
    const roles = await api<Page<RoleRow>>('GET', '/api/iot/v2/roles?keyword=operator', demoAdmin);
    const made = await api<InitialPasswordData>('POST', '/api/iot/v2/users', demoAdmin, {
      orgId: demoOrg,
      account: 'li.na',
      name: 'Li Na',
      password: 'Lina#2026',
      roleIds: [roles.body.data!.rows[0]!.id],
    });
    const id = made.body.data!.id;
    const token = await login(t.app, 'li.na', 'Lina#2026');
    expect((await api('POST', `/api/iot/v2/users/${id}/deactivate`, demoAdmin)).status).toBe(200);
    expect((await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/info', token })).status).toBe(401);
    const refused = await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'li.na', password: 'Lina#2026' }, lang: 'zh-CN' });
    expect(refused.body).toMatchObject({ errorcode: 'ACCOUNT_DEACTIVATED', errormsg: '账号不存在或已停用，请重新输入' });
    expect((await api('POST', `/api/iot/v2/users/${id}/activate`, demoAdmin)).status).toBe(200);

    const reset = await api<InitialPasswordData>('POST', `/api/iot/v2/users/${id}/reset-password`, demoAdmin);
    expect(reset.body.data!.initialPassword).not.toBe('Lina#2026');
    const again = await call<LoginData>(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'li.na', password: reset.body.data!.initialPassword } });
    expect(again.body.data!.mustChangePassword).toBe(true);

    const orgAdminRole = (await api<Page<RoleRow>>('GET', `/api/iot/v2/roles?keyword=org_admin`, demoAdmin)).body.data!.rows[0]!;
    expect((await api('PUT', `/api/iot/v2/users/${id}/roles`, demoAdmin, { roleIds: [orgAdminRole.id] })).status).toBe(200);
    const me = (await api<Page<UserRow>>('GET', '/api/iot/v2/users?keyword=demo-admin', demoAdmin)).body.data!.rows[0]!;
    for (const [method, url, body] of [
      ['POST', `/api/iot/v2/users/${me.id}/deactivate`],
      ['POST', `/api/iot/v2/users/${me.id}/reset-password`],
      ['PUT', `/api/iot/v2/users/${me.id}/roles`, { roleIds: [] }],
    ] as [Method, string, unknown?][]) {
      const r = await api(method, url, demoAdmin, body);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ errorcode: 'NOT_YOURSELF' });
    }
    const actions = (await t.app.database.db.select().from(auditLogs).where(eq(auditLogs.orgId, demoOrg))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['user_deactivate', 'user_activate', 'user_reset_password', 'user_roles']));
  });

  it("cannot read or change another organisation's users, roles or organisations", async () => {
    const other = await newOrg(admin, platformOrg, 'rival', 'Rival Logistics');
    await addOrgUser(t.app.database.db, { orgId: other.id, account: 'rival.user', password: DEMO_PASSWORD, roleCodes: [] });
    const rivalRole = await newRole(admin, { orgId: other.id, code: 'rival-op', nameZh: '对手', nameEn: 'Rival', menuIds: [] });
    const rivalUser = (await api<Page<UserRow>>('GET', '/api/iot/v2/users?keyword=rival.user', admin)).body.data!.rows[0]!;

    expect((await api<Page<UserRow>>('GET', '/api/iot/v2/users?keyword=rival&size=100', demoAdmin)).body.data!.total).toBe(0);
    expect((await api('GET', `/api/iot/v2/users?orgId=${other.id}`, demoAdmin)).status).toBe(404);
    expect((await api<Page<RoleRow>>('GET', '/api/iot/v2/roles?keyword=rival', demoAdmin)).body.data!.total).toBe(0);
    const attempts: [Method, string, unknown?][] = [
      ['PUT', `/api/iot/v2/users/${rivalUser.id}`, { name: 'hacked' }],
      ['POST', `/api/iot/v2/users/${rivalUser.id}/deactivate`],
      ['POST', `/api/iot/v2/users/${rivalUser.id}/reset-password`],
      ['PUT', `/api/iot/v2/users/${rivalUser.id}/roles`, { roleIds: [] }],
      ['POST', '/api/iot/v2/users', { orgId: other.id, account: 'planted', name: 'x' }],
      ['GET', `/api/iot/v2/roles/${rivalRole.id}`],
      ['PUT', `/api/iot/v2/roles/${rivalRole.id}`, { nameZh: 'x', nameEn: 'x', permissions: [], menuIds: [] }],
      ['DELETE', `/api/iot/v2/roles/${rivalRole.id}`],
      ['PUT', `/api/iot/v2/orgs/${other.id}`, { name: 'hacked' }],
      ['POST', `/api/iot/v2/orgs/${other.id}/deactivate`],
      ['DELETE', `/api/iot/v2/orgs/${other.id}`],
      ['POST', '/api/iot/v2/orgs', { parentId: other.id, code: 'planted', name: 'x' }],
    ];
    for (const [method, url, body] of attempts) {
      expect((await api(method, url, demoAdmin, body)).status, `${method} ${url}`).toBe(404);
    }
    // A role of another organisation cannot be given to one's own users either.
    const mine = await api<InitialPasswordData>('POST', '/api/iot/v2/users', demoAdmin, { orgId: demoOrg, account: 'own.user', name: 'x' });
    expect((await api('PUT', `/api/iot/v2/users/${mine.body.data!.id}/roles`, demoAdmin, { roleIds: [rivalRole.id] })).status).toBe(404);
    const [row] = (await api<Page<UserRow>>('GET', '/api/iot/v2/users?keyword=rival.user', admin)).body.data!.rows;
    expect(row).toMatchObject({ name: 'User rival.user', status: 'active' });
  });
});

describe('roles', () => {
  it('grants actions and menu items; changes apply to the holders at once; in-use roles stay', async () => {
    const grantables = await api<Grantables>('GET', '/api/iot/v2/permissions', demoAdmin, undefined, 'zh-CN');
    expect(grantables.body.data!.actions.map((a) => a.code)).toContain('role:write');
    expect(grantables.body.data!.actions.find((a) => a.code === 'user:read')!.name).toBe('查看用户');
    expect(grantables.body.data!.menus.map((m) => m.type)).toEqual([101, 102, 103, 104]);

    const role = await newRole(demoAdmin, {
      orgId: demoOrg,
      code: 'dispatcher',
      nameZh: '调度员',
      nameEn: 'Dispatcher',
      permissions: ['user:read'],
      // A checked folder adds nothing: only screens are kept.
      menuIds: ['102-monitor', '102-monitor-live-device', '102-platform-users'],
    });
    expect(role.menuIds.sort()).toEqual(['102-monitor-live-device', '102-platform-users']);
    await addOrgUser(t.app.database.db, { orgId: demoOrg, account: 'disp1', password: DEMO_PASSWORD, roleCodes: ['dispatcher'] });
    const holder = await login(t.app, 'disp1', DEMO_PASSWORD);
    expect((await api('GET', '/api/iot/v2/roles', holder)).status).toBe(403);

    const changed = await api<RoleRow>('PUT', `/api/iot/v2/roles/${role.id}`, demoAdmin, {
      nameZh: '调度员',
      nameEn: 'Dispatcher',
      permissions: ['user:read', 'role:read'],
      menuIds: ['102-monitor-live-device'],
    });
    expect(changed.body.data).toMatchObject({ permissions: ['user:read', 'role:read'], menuIds: ['102-monitor-live-device'], userCount: 1 });
    expect((await api('GET', '/api/iot/v2/roles', holder)).status).toBe(200);
    const menu = await call<MenuItem[]>(t.app, { method: 'POST', url: '/iot-cloud-auth/menu/v1/loadMenu', token: holder, body: { type: 102 } });
    expect(menuIds(menu.body.data!)).not.toContain('102-platform-users');

    const inUse = await api('DELETE', `/api/iot/v2/roles/${role.id}`, demoAdmin, undefined, 'zh-CN');
    expect(inUse.status).toBe(409);
    expect(inUse.body).toMatchObject({ errorcode: 'ROLE_IN_USE', errormsg: '该角色仍分配给用户，无法删除' });
    const dup = await api('POST', '/api/iot/v2/roles', demoAdmin, { orgId: demoOrg, code: 'DISPATCHER', nameZh: 'x', nameEn: 'x' });
    expect(dup.body.errorcode).toBe('ROLE_CODE_TAKEN');
    const unknownMenu = await api('POST', '/api/iot/v2/roles', demoAdmin, { orgId: demoOrg, code: 'ghost', nameZh: 'x', nameEn: 'x', menuIds: ['no-such-menu'] });
    expect(unknownMenu.status).toBe(400);

    const [audit] = (await t.app.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'role_update'))).filter((a) => a.detail?.startsWith('dispatcher'));
    expect(audit!.detail).toBe('dispatcher permissions +role:read menus -102-platform-users');
  });

  it('nobody grants what they do not hold', async () => {
    // A user manager who may write roles but holds no audit access and no cockpit screen.
    await newRole(admin, {
      orgId: demoOrg,
      code: 'role-manager',
      nameZh: '角色管理员',
      nameEn: 'Role manager',
      permissions: ['role:read', 'role:write', 'user:read', 'user:write'],
      menuIds: ['102-platform-roles'],
    });
    await addOrgUser(t.app.database.db, { orgId: demoOrg, account: 'rm1', password: DEMO_PASSWORD, roleCodes: ['role-manager'] });
    const rm = await login(t.app, 'rm1', DEMO_PASSWORD);
    const grantables = await api<Grantables>('GET', '/api/iot/v2/permissions', rm);
    expect(grantables.body.data!.actions.map((a) => a.code)).toEqual(['user:read', 'user:write', 'role:read', 'role:write']);
    expect(grantables.body.data!.menus.flatMap((m) => menuIds(m.items))).toEqual(['102-platform', '102-platform-roles']);
    const tooMuch = await api('POST', '/api/iot/v2/roles', rm, { orgId: demoOrg, code: 'auditor', nameZh: 'x', nameEn: 'x', permissions: ['audit:export'] });
    expect(tooMuch.status).toBe(403);
    const tooWide = await api('POST', '/api/iot/v2/roles', rm, { orgId: demoOrg, code: 'auditor', nameZh: 'x', nameEn: 'x', menuIds: ['102-platform-audit'] });
    expect(tooWide.status).toBe(403);
    // Nor hand out a role that holds more than they do.
    const orgAdminRole = (await api<Page<RoleRow>>('GET', '/api/iot/v2/roles?keyword=org_admin', rm)).body.data!.rows[0]!;
    const made = await api<InitialPasswordData>('POST', '/api/iot/v2/users', rm, { orgId: demoOrg, account: 'promoted', name: 'x', roleIds: [orgAdminRole.id] });
    expect(made.status).toBe(403);
    expect((await api('POST', '/api/iot/v2/roles', rm, { orgId: demoOrg, code: 'small', nameZh: 'x', nameEn: 'x', permissions: ['user:read'] })).status).toBe(200);
  });
});

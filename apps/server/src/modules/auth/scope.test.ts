// A caller's scope (organisation tree and permissions) is resolved once per session and kept
// until the tree, a user's roles or organisation, or a role's permissions change (the database's
// scope version moves by trigger, whatever writes the rows). On PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';
import { orgs, rolePermissions, scopeVersion, userRoles, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.app.database.db;
const version = async () => (await db().select().from(scopeVersion))[0]!.n;

describe('scope version', () => {
  it('moves when the tree, a user’s organisation or roles, or a role’s permissions change, and not on other writes', async () => {
    const { org, role, user } = await createTenantUser(db(), { code: 'scope-v', account: 'scope-v', password: 'Scope#2026', permissions: ['device:read'] });
    const moves = async (change: () => Promise<unknown>) => {
      const before = await version();
      await change();
      return (await version()) > before;
    };
    // A sign-in changes nobody's scope.
    expect(await moves(() => login(t.app, 'scope-v', 'Scope#2026'))).toBe(false);
    expect(await moves(() => db().insert(orgs).values({ code: 'scope-v-child', name: 'Child', parentId: org.id }))).toBe(true);
    expect(await moves(() => db().update(orgs).set({ parentId: null }).where(eq(orgs.code, 'scope-v-child')))).toBe(true);
    expect(await moves(() => db().insert(rolePermissions).values({ roleId: role.id, permission: 'alarm:read' }))).toBe(true);
    expect(await moves(() => db().delete(userRoles).where(eq(userRoles.userId, user.id)))).toBe(true);
    expect(await moves(() => db().update(users).set({ isPlatformAdmin: false }).where(eq(users.id, user.id)))).toBe(true);
    // A renamed organisation or a changed phone number changes nobody's scope.
    expect(await moves(() => db().update(orgs).set({ name: 'Renamed' }).where(eq(orgs.id, org.id)))).toBe(false);
    expect(await moves(() => db().update(users).set({ phone: '13800000000' }).where(eq(users.id, user.id)))).toBe(false);
  });
});

describe('a session’s scope', () => {
  it('is resolved once and reused while nothing changes', async () => {
    await createTenantUser(db(), { code: 'scope-a', account: 'scope-a', password: 'Scope#2026', permissions: ['device:read'] });
    const token = await login(t.app, 'scope-a', 'Scope#2026');
    const first = await t.app.authService.authenticate(token);
    const again = await t.app.authService.authenticate(token);
    expect(first!.scope.orgs).toHaveLength(1);
    expect(first!.permissions).toEqual(['device:read']);
    // The same resolved scope, not a second lookup of the tree.
    expect(again!.scope).toBe(first!.scope);
    expect(again!.permissions).toBe(first!.permissions);
  });

  it('sees a new sub-organisation and a changed grant at the next request', async () => {
    const { org, role } = await createTenantUser(db(), { code: 'scope-b', account: 'scope-b', password: 'Scope#2026', permissions: ['device:read'] });
    const token = await login(t.app, 'scope-b', 'Scope#2026');
    const before = await t.app.authService.authenticate(token);
    const [child] = await db().insert(orgs).values({ code: 'scope-b-child', name: 'Child', parentId: org.id }).returning();
    const [grandchild] = await db().insert(orgs).values({ code: 'scope-b-grand', name: 'Grandchild', parentId: child!.id }).returning();
    await db().insert(rolePermissions).values({ roleId: role.id, permission: 'alarm:read' });
    const after = await t.app.authService.authenticate(token);
    expect(before!.scope.has(child!.id)).toBe(false);
    expect(after!.scope.orgs).toEqual([org.id, child!.id, grandchild!.id]);
    expect([...after!.permissions].sort()).toEqual(['alarm:read', 'device:read']);
    // Narrowing a list to one of its organisations reads that subtree; any other is not found.
    expect(after!.scope.within(child!.id)).toEqual([child!.id, grandchild!.id]);
    expect(after!.scope.within()).toEqual(after!.scope.orgs);
    const other = await createTenantUser(db(), { code: 'scope-c', account: 'scope-c', password: 'Scope#2026' });
    expect(() => after!.scope.within(other.org.id)).toThrow(AppError);
  });

  it('loses a revoked permission at once through the API', async () => {
    const { role } = await createTenantUser(db(), { code: 'scope-d', account: 'scope-d', password: 'Scope#2026', permissions: ['device:read'] });
    const token = await login(t.app, 'scope-d', 'Scope#2026');
    const list = () => t.app.inject({ method: 'GET', url: '/api/iot/v2/devices?page=1&size=10', headers: { access_token: token } });
    expect((await list()).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(200);
    await db().delete(rolePermissions).where(eq(rolePermissions.roleId, role.id));
    expect((await list()).statusCode).toBe(403);
  });
});

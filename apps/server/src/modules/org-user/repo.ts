// SQL of platform management: the organisation tree, users and roles with their grants.
import { and, asc, count, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { RoleQuery, UserQuery } from '@iotc/shared/platform';
import { rowsOf, type Db } from '../../db/client.ts';
import { accountTaken } from '../../db/users.ts';
import { addOrgDefaults } from '../../db/org-defaults.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, orgTree, type Sortable } from '../../db/list.ts';
import { assets, devices, orgTombstones, menus, orgs, roleMenus, rolePermissions, roles, sessions, userRoles, users } from '../../db/schema.ts';

export type OrgRow = typeof orgs.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const USER_SORTABLE: Sortable = { account: users.account, name: users.name, createdAt: users.createdAt, status: users.status };
const ROLE_SORTABLE: Sortable = { code: roles.code, createdAt: roles.createdAt };

const userFields = {
  id: users.id,
  account: users.account,
  name: users.name,
  orgId: users.orgId,
  orgName: orgs.name,
  email: users.email,
  phone: users.phone,
  status: users.status,
  mustChangePassword: users.mustChangePassword,
  isPlatformAdmin: users.isPlatformAdmin,
  createdAt: users.createdAt,
};

const roleFields = {
  id: roles.id,
  orgId: roles.orgId,
  orgName: orgs.name,
  code: roles.code,
  nameZh: roles.nameZh,
  nameEn: roles.nameEn,
  createdAt: roles.createdAt,
};

export function orgUserRepo(db: Db) {
  async function revokeSessions(tx: Tx | Db, userId: string) {
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  }

  async function replaceGrants(tx: Tx, roleId: string, permissions: string[], menuIds: string[]) {
    await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
    await tx.delete(roleMenus).where(eq(roleMenus.roleId, roleId));
    if (permissions.length) await tx.insert(rolePermissions).values(permissions.map((permission) => ({ roleId, permission })));
    if (menuIds.length) await tx.insert(roleMenus).values(menuIds.map((menuId) => ({ roleId, menuId })));
  }

  return {
    subtree: (rootOrgId: string) => orgTree(db, rootOrgId),

    /** The organisations with the number of users directly in each. */
    async orgsWithCounts(ids: string[]): Promise<(OrgRow & { userCount: number })[]> {
      if (ids.length === 0) return [];
      const counts = db
        .select({ orgId: users.orgId, n: count().as('n') })
        .from(users)
        .groupBy(users.orgId)
        .as('counts');
      const rows = await db
        .select({ org: orgs, n: counts.n })
        .from(orgs)
        .leftJoin(counts, eq(counts.orgId, orgs.id))
        .where(inOrgs(orgs.id, ids))
        .orderBy(asc(orgs.name), asc(orgs.code));
      return rows.map((r) => ({ ...r.org, userCount: Number(r.n ?? 0) }));
    },

    async orgById(id: string): Promise<OrgRow | undefined> {
      const [row] = await db.select().from(orgs).where(eq(orgs.id, id));
      return row;
    },

    async orgCodeTaken(code: string): Promise<boolean> {
      const [row] = await db.select({ id: orgs.id }).from(orgs).where(sql`lower(${orgs.code}) = ${code.toLowerCase()}`);
      return Boolean(row);
    },

    async insertOrg(o: { parentId: string; code: string; name: string }): Promise<OrgRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(orgs).values({ ...o, kind: 'tenant' }).returning();
        await addOrgDefaults(tx, [row!.id]);
        return row!;
      });
    },

    async updateOrg(id: string, set: Pick<OrgRow, 'name'>) {
      await db.update(orgs).set(set).where(eq(orgs.id, id));
    },

    async setOrgStatus(ids: string[], status: 'active' | 'disabled') {
      await db.update(orgs).set({ status }).where(inOrgs(orgs.id, ids));
    },

    async orgIsEmpty(id: string): Promise<boolean> {
      const [u] = await db.select({ n: count() }).from(users).where(eq(users.orgId, id));
      const [c] = await db.select({ n: count() }).from(orgs).where(eq(orgs.parentId, id));
      const [d] = await db.select({ n: count() }).from(devices).where(eq(devices.orgId, id));
      const [a] = await db.select({ n: count() }).from(assets).where(eq(assets.orgId, id));
      return [u, c, d, a].every((r) => Number(r?.n ?? 0) === 0);
    },

    /**
     * An empty organisation, with its roles (none assigned: it has no users). Its audit history
     * is kept as written (the log is append-only): a tombstone keeps the organisation's name and
     * parent, so the organisations above it still read that history.
     */
    async deleteOrg(id: string, parentId: string) {
      await db.transaction(async (tx) => {
        const [org] = await tx.select({ code: orgs.code, name: orgs.name }).from(orgs).where(eq(orgs.id, id));
        if (org) await tx.insert(orgTombstones).values({ id, parentId, code: org.code, name: org.name });
        await tx.delete(roles).where(eq(roles.orgId, id));
        await tx.delete(orgs).where(eq(orgs.id, id));
      });
    },

    /** The organisation and its ancestors, nearest first. */
    async ancestry(orgId: string): Promise<string[]> {
      const rows = await db.execute<{ id: string }>(
        sql`with recursive up(id, parent_id, depth) as (select id, parent_id, 0 from orgs where id = ${orgId}::uuid union all select o.id, o.parent_id, up.depth + 1 from orgs o join up on o.id = up.parent_id) select id from up order by depth`,
      );
      return rowsOf<{ id: string }>(rows).map((r) => r.id);
    },

    // ---- users

    async userPage(scope: string[], q: UserQuery) {
      const w = and(
        inOrgs(users.orgId, scope),
        q.keyword ? or(ilike(users.account, containsPattern(q.keyword)), ilike(users.name, containsPattern(q.keyword))) : undefined,
        q.status ? eq(users.status, q.status) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(users).where(w);
      const rows = await db
        .select(userFields)
        .from(users)
        .innerJoin(orgs, eq(orgs.id, users.orgId))
        .where(w)
        .orderBy(...orderBy(q.sort, USER_SORTABLE, 'createdAt,desc', users.id))
        .limit(limitOffset(q).limit)
        .offset(limitOffset(q).offset);
      return { rows, total: Number(total?.n ?? 0) };
    },

    async userById(id: string) {
      const [row] = await db.select(userFields).from(users).innerJoin(orgs, eq(orgs.id, users.orgId)).where(eq(users.id, id));
      return row;
    },

    accountTaken: (account: string) => accountTaken(db, account),

    /** Roles of the given users, as (userId, role) pairs. */
    async rolesOfUsers(userIds: string[]) {
      if (userIds.length === 0) return [];
      return db
        .select({ userId: userRoles.userId, id: roles.id, nameZh: roles.nameZh, nameEn: roles.nameEn })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(inArray(userRoles.userId, userIds))
        .orderBy(asc(roles.code));
    },

    async insertUser(u: typeof users.$inferInsert, roleIds: string[]): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(users).values(u).returning({ id: users.id });
        if (roleIds.length) await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId: row!.id, roleId })));
        return row!.id;
      });
    },

    async updateUser(id: string, set: { name: string; email: string | null; phone: string | null }) {
      await db.update(users).set(set).where(eq(users.id, id));
    },

    /** Deactivation also ends every session of the user at once. */
    async setUserStatus(id: string, status: 'active' | 'disabled') {
      await db.transaction(async (tx) => {
        await tx.update(users).set({ status }).where(eq(users.id, id));
        if (status === 'disabled') await revokeSessions(tx, id);
      });
    },

    /** A new initial password: to be changed at the next sign-in; every session ends. */
    async resetPassword(id: string, passwordHash: string) {
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, mustChangePassword: true, passwordChangedAt: new Date() }).where(eq(users.id, id));
        await revokeSessions(tx, id);
      });
    },

    async setUserRoles(userId: string, roleIds: string[]) {
      await db.transaction(async (tx) => {
        await tx.delete(userRoles).where(eq(userRoles.userId, userId));
        if (roleIds.length) await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
      });
    },

    // ---- roles

    async rolePage(scope: string[], q: RoleQuery) {
      const w = and(
        inOrgs(roles.orgId, scope),
        q.keyword
          ? or(ilike(roles.code, containsPattern(q.keyword)), ilike(roles.nameZh, containsPattern(q.keyword)), ilike(roles.nameEn, containsPattern(q.keyword)))
          : undefined,
      );
      const [total] = await db.select({ n: count() }).from(roles).where(w);
      const rows = await db
        .select(roleFields)
        .from(roles)
        .innerJoin(orgs, eq(orgs.id, roles.orgId))
        .where(w)
        .orderBy(...orderBy(q.sort, ROLE_SORTABLE, 'createdAt,asc', roles.id))
        .limit(limitOffset(q).limit)
        .offset(limitOffset(q).offset);
      return { rows, total: Number(total?.n ?? 0) };
    },

    async rolesByIds(ids: string[]) {
      if (ids.length === 0) return [];
      return db.select(roleFields).from(roles).innerJoin(orgs, eq(orgs.id, roles.orgId)).where(inArray(roles.id, ids));
    },

    async roleCodeTaken(orgId: string, code: string): Promise<boolean> {
      const [row] = await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.orgId, orgId), sql`lower(${roles.code}) = ${code.toLowerCase()}`));
      return Boolean(row);
    },

    /** Permissions, menu items and user counts of the given roles. */
    async grantsOf(roleIds: string[]) {
      if (roleIds.length === 0) return { permissions: [], menus: [], users: [] };
      const [permissions, menuRows, userRows] = await Promise.all([
        db.select().from(rolePermissions).where(inArray(rolePermissions.roleId, roleIds)),
        db.select().from(roleMenus).where(inArray(roleMenus.roleId, roleIds)),
        db
          .select({ roleId: userRoles.roleId, n: count() })
          .from(userRoles)
          .where(inArray(userRoles.roleId, roleIds))
          .groupBy(userRoles.roleId),
      ]);
      return { permissions, menus: menuRows, users: userRows.map((r) => ({ roleId: r.roleId, n: Number(r.n) })) };
    },

    async insertRole(r: { orgId: string; code: string; nameZh: string; nameEn: string }, permissions: string[], menuIds: string[]): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(roles).values(r).returning({ id: roles.id });
        await replaceGrants(tx, row!.id, permissions, menuIds);
        return row!.id;
      });
    },

    async updateRole(id: string, names: { nameZh: string; nameEn: string }, permissions: string[], menuIds: string[]) {
      await db.transaction(async (tx) => {
        await tx.update(roles).set(names).where(eq(roles.id, id));
        await replaceGrants(tx, id, permissions, menuIds);
      });
    },

    async deleteRole(id: string) {
      await db.delete(roles).where(eq(roles.id, id));
    },

    // ---- menus

    async allMenus() {
      return db.select().from(menus).where(eq(menus.active, true)).orderBy(asc(menus.type), asc(menus.sort), asc(menus.id));
    },

    /** The given menu ids that exist, each with whether it opens a screen (a leaf) or is a folder. */
    async menuKinds(ids: string[]): Promise<Map<string, 'leaf' | 'folder'>> {
      if (ids.length === 0) return new Map();
      const rows = await db.select({ id: menus.id, url: menus.url }).from(menus).where(inArray(menus.id, ids));
      return new Map(rows.map((r) => [r.id, r.url ? 'leaf' : 'folder']));
    },

    /** Menu items the user's roles grant. */
    async grantedMenuIds(userId: string): Promise<Set<string>> {
      const rows = await db
        .selectDistinct({ id: roleMenus.menuId })
        .from(userRoles)
        .innerJoin(roleMenus, eq(roleMenus.roleId, userRoles.roleId))
        .where(eq(userRoles.userId, userId));
      return new Set(rows.map((r) => r.id));
    },
  };
}
export type OrgUserRepo = ReturnType<typeof orgUserRepo>;

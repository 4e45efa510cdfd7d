// Platform management rules. A caller manages only their own organisation and its descendants
// (anything else is 'not found'), grants only what their own roles grant (a platform
// administrator grants everything), and cannot deactivate, reset or re-role their own account.
// Every change is written to the audit log of the organisation it changed.
import { randomInt } from 'node:crypto';
import type { Lang } from '@iotc/shared/i18n';
import type { Page } from '@iotc/shared/envelope';
import { isValidPassword } from '@iotc/shared/validation';
import {
  PERMISSIONS,
  PERMISSION_CODES,
  type Grantables,
  type InitialPasswordData,
  type OrgCreateBody,
  type OrgNode,
  type OrgUpdateBody,
  type RoleCreateBody,
  type RoleQuery,
  type RoleRow,
  type RoleUpdateBody,
  type UserCreateBody,
  type UserQuery,
  type UserRolesBody,
  type UserRow,
  type UserUpdateBody,
} from '@iotc/shared/platform';
import type { Tx } from '../../db/client.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuditWriter } from '../audit/repo.ts';
import type { Caller } from '../../lib/caller.ts';
import { hashPassword } from '../../lib/password.ts';
import { buildTree } from '../menu/service.ts';
import type { OrgRow, OrgUserRepo } from './repo.ts';

interface Deps {
  audit: AuditWriter;
  /** Runs work in one transaction, with the repository on it: a change and its audit row commit together. */
  atomically: <T>(work: (repo: OrgUserRepo, tx: Tx) => Promise<T>) => Promise<T>;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
const SYMBOLS = '#@$%&*!';

/** A random initial password that satisfies the password rule: 10 letters/digits and a symbol. */
export function generatePassword(): string {
  for (;;) {
    let p = '';
    for (let i = 0; i < 10; i++) p += ALPHABET[randomInt(ALPHABET.length)];
    const at = randomInt(p.length + 1);
    p = p.slice(0, at) + SYMBOLS[randomInt(SYMBOLS.length)] + p.slice(at);
    if (isValidPassword(p) && /\d/.test(p)) return p;
  }
}

export function orgUserService(repo: OrgUserRepo, deps: Deps) {
  /** The caller's organisation tree; anything outside it does not exist for them. */
  async function scopeOf(caller: Caller): Promise<Set<string>> {
    return new Set(caller.scope.orgs);
  }

  function mustSee(scope: Set<string>, orgId: string | undefined | null): asserts orgId is string {
    if (!orgId || !scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
  }

  const record = (q: Tx, caller: Caller, orgId: string, action: string, detail: string, meta: ClientMeta) =>
    deps.audit(q, { orgId, userId: caller.userId, account: caller.account, action, result: 'success', detail: detail.slice(0, 1000), ...meta });

  /** What the caller's own roles grant; null for a platform administrator (everything). */
  async function callerGrants(caller: Caller): Promise<{ permissions: Set<string>; menus: Set<string> } | null> {
    if (caller.isPlatformAdmin) return null;
    return { permissions: new Set(caller.permissions), menus: await repo.grantedMenuIds(caller.userId) };
  }

  /** Nobody hands out more than they hold. */
  async function mayGrant(caller: Caller, permissions: string[], menuIds: string[]) {
    const own = await callerGrants(caller);
    if (!own) return;
    // Folders follow their screens: only screens count.
    const kinds = await repo.menuKinds(menuIds);
    const screens = menuIds.filter((m) => kinds.get(m) !== 'folder');
    if (permissions.some((p) => !own.permissions.has(p)) || screens.some((m) => !own.menus.has(m))) {
      throw new AppError(403, 'NO_PERMISSION');
    }
  }

  /**
   * Known menu items, screens only: a folder shows whenever one of its screens is granted, so
   * a checked folder in the request adds nothing and is not kept.
   */
  async function validMenus(menuIds: string[]): Promise<string[]> {
    const unique = [...new Set(menuIds)];
    const kinds = await repo.menuKinds(unique);
    const unknown = unique.filter((m) => !kinds.has(m));
    if (unknown.length) {
      const ids = unknown.slice(0, 5).join(', ');
      throw new AppError(400, 'VALIDATION', { en: `Menus: unknown menu items ${ids}`, zh: `菜单：不存在的菜单项 ${ids}` });
    }
    return unique.filter((m) => kinds.get(m) === 'leaf');
  }

  /**
   * Roles that may be given to a user of `orgId`: roles of that organisation or its ancestors,
   * visible to the caller, granting nothing the caller lacks.
   */
  async function assignable(caller: Caller, scope: Set<string>, orgId: string, roleIds: string[]): Promise<{ id: string; code: string }[]> {
    const unique = [...new Set(roleIds)];
    const found = await repo.rolesByIds(unique);
    if (found.length !== unique.length || found.some((r) => !scope.has(r.orgId))) throw new AppError(404, 'NOT_FOUND');
    const lineage = new Set(await repo.ancestry(orgId));
    const foreign = found.filter((r) => !lineage.has(r.orgId));
    if (foreign.length) {
      const codes = foreign.map((r) => r.code).join(', ');
      throw new AppError(400, 'VALIDATION', { en: `Roles: not of this organisation or its parents: ${codes}`, zh: `角色：不属于该组织或其上级组织：${codes}` });
    }
    const grants = await repo.grantsOf(unique);
    await mayGrant(
      caller,
      grants.permissions.map((p) => p.permission),
      grants.menus.map((m) => m.menuId),
    );
    return found.map((r) => ({ id: r.id, code: r.code }));
  }

  async function visibleUser(caller: Caller, id: string) {
    const scope = await scopeOf(caller);
    const user = await repo.userById(id);
    mustSee(scope, user?.orgId);
    return { scope, user: user! };
  }

  function notSelf(caller: Caller, userId: string) {
    if (caller.userId === userId) throw new AppError(409, 'NOT_YOURSELF');
  }

  async function visibleOrg(caller: Caller, id: string): Promise<{ scope: Set<string>; org: OrgRow }> {
    const scope = await scopeOf(caller);
    mustSee(scope, id);
    const org = await repo.orgById(id);
    if (!org) throw new AppError(404, 'NOT_FOUND');
    return { scope, org };
  }

  async function roleRows(rows: Awaited<ReturnType<OrgUserRepo['rolesByIds']>>, lang: Lang): Promise<RoleRow[]> {
    const grants = await repo.grantsOf(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      orgId: r.orgId,
      orgName: r.orgName,
      code: r.code,
      name: lang === 'zh' ? r.nameZh : r.nameEn,
      nameZh: r.nameZh,
      nameEn: r.nameEn,
      userCount: grants.users.find((u) => u.roleId === r.id)?.n ?? 0,
      permissions: PERMISSION_CODES.filter((p) => grants.permissions.some((g) => g.roleId === r.id && g.permission === p)),
      menuIds: grants.menus.filter((m) => m.roleId === r.id).map((m) => m.menuId),
      createdAt: r.createdAt.toISOString(),
    }));
  }

  const toNode = (o: OrgRow & { userCount: number }): OrgNode => ({
    id: o.id,
    parentId: o.parentId,
    code: o.code,
    name: o.name,
    kind: o.kind,
    status: o.status,
    userCount: o.userCount,
    createdAt: o.createdAt.toISOString(),
    children: [],
  });

  return {
    // ---- organisations

    async orgTree(caller: Caller): Promise<OrgNode[]> {
      const scope = await scopeOf(caller);
      const nodes = new Map((await repo.orgsWithCounts([...scope])).map((o) => [o.id, toNode(o)]));
      const roots: OrgNode[] = [];
      for (const node of nodes.values()) {
        const parent = node.id === caller.orgId || !node.parentId ? undefined : nodes.get(node.parentId);
        if (parent) parent.children.push(node);
        else roots.push(node);
      }
      return roots;
    },

    async createOrg(caller: Caller, body: OrgCreateBody, meta: ClientMeta): Promise<OrgNode> {
      const { org: parent } = await visibleOrg(caller, body.parentId);
      if (await repo.orgCodeTaken(body.code)) throw new AppError(409, 'ORG_CODE_TAKEN');
      const org = await deps.atomically(async (r, tx) => {
        const made = await r.insertOrg({ parentId: parent.id, code: body.code, name: body.name });
        await record(tx, caller, made.id, 'org_create', `${made.code} ${made.name} (parent ${parent.code})`, meta);
        return made;
      });
      return toNode({ ...org, userCount: 0 });
    },

    async updateOrg(caller: Caller, id: string, body: OrgUpdateBody, meta: ClientMeta) {
      const { org } = await visibleOrg(caller, id);
      await deps.atomically(async (r, tx) => {
        await r.updateOrg(id, { name: body.name });
        await record(tx, caller, id, 'org_update', `${org.code}: ${org.name} -> ${body.name}`, meta);
      });
    },

    /** Deactivating an organisation deactivates its whole subtree (its users cannot sign in); activating likewise. */
    async setOrgStatus(caller: Caller, id: string, status: 'active' | 'disabled', meta: ClientMeta) {
      const { org } = await visibleOrg(caller, id);
      if (id === caller.orgId) throw new AppError(409, 'NOT_YOUR_ORG');
      const subtree = await repo.subtree(id);
      await deps.atomically(async (r, tx) => {
        await r.setOrgStatus(subtree, status);
        await record(tx, caller, id, status === 'disabled' ? 'org_deactivate' : 'org_activate', org.code, meta);
      });
    },

    async deleteOrg(caller: Caller, id: string, meta: ClientMeta) {
      const { org } = await visibleOrg(caller, id);
      if (id === caller.orgId || org.kind === 'platform') throw new AppError(409, 'NOT_YOUR_ORG');
      if (!(await repo.orgIsEmpty(id))) throw new AppError(409, 'ORG_NOT_EMPTY');
      // The record goes to the parent: the organisation itself is gone.
      await deps.atomically(async (r, tx) => {
        await r.deleteOrg(id, org.parentId!);
        await record(tx, caller, org.parentId!, 'org_delete', `${org.code} ${org.name}`, meta);
      });
    },

    // ---- users

    async users(caller: Caller, q: UserQuery, lang: Lang): Promise<Page<UserRow>> {
      let scope = await scopeOf(caller);
      if (q.orgId) {
        mustSee(scope, q.orgId);
        scope = new Set(caller.scope.within(q.orgId));
      }
      const { rows, total } = await repo.userPage([...scope], q);
      const roles = await repo.rolesOfUsers(rows.map((r) => r.id));
      return {
        rows: rows.map((u) => ({
          id: u.id,
          account: u.account,
          name: u.name,
          orgId: u.orgId,
          orgName: u.orgName,
          email: u.email,
          phone: u.phone,
          status: u.status,
          mustChangePassword: u.mustChangePassword,
          roles: roles.filter((r) => r.userId === u.id).map((r) => ({ id: r.id, name: lang === 'zh' ? r.nameZh : r.nameEn })),
          createdAt: u.createdAt.toISOString(),
        })),
        total,
        page: q.page,
        size: q.size,
      };
    },

    async createUser(caller: Caller, body: UserCreateBody, meta: ClientMeta): Promise<InitialPasswordData> {
      const scope = await scopeOf(caller);
      mustSee(scope, body.orgId);
      if (await repo.accountTaken(body.account)) throw new AppError(409, 'ACCOUNT_TAKEN');
      const roles = await assignable(caller, scope, body.orgId, body.roleIds);
      const initialPassword = body.password ?? generatePassword();
      const passwordHash = await hashPassword(initialPassword);
      const id = await deps.atomically(async (r, tx) => {
        const made = await r.insertUser(
          {
            orgId: body.orgId,
            account: body.account,
            name: body.name,
            email: body.email ?? null,
            phone: body.phone ?? null,
            passwordHash,
            mustChangePassword: true,
          },
          roles.map((role) => role.id),
        );
        await record(tx, caller, body.orgId, 'user_create', `${body.account} roles=${roles.map((role) => role.code).join(',') || '-'}`, meta);
        return made;
      });
      return { id, account: body.account, initialPassword };
    },

    async updateUser(caller: Caller, id: string, body: UserUpdateBody, meta: ClientMeta) {
      const { user } = await visibleUser(caller, id);
      await deps.atomically(async (r, tx) => {
        await r.updateUser(id, { name: body.name, email: body.email ?? null, phone: body.phone ?? null });
        await record(tx, caller, user.orgId, 'user_update', user.account, meta);
      });
    },

    async setUserStatus(caller: Caller, id: string, status: 'active' | 'disabled', meta: ClientMeta) {
      const { user } = await visibleUser(caller, id);
      notSelf(caller, id);
      await deps.atomically(async (r, tx) => {
        await r.setUserStatus(id, status);
        await record(tx, caller, user.orgId, status === 'disabled' ? 'user_deactivate' : 'user_activate', user.account, meta);
      });
    },

    async resetPassword(caller: Caller, id: string, meta: ClientMeta): Promise<InitialPasswordData> {
      const { user } = await visibleUser(caller, id);
      notSelf(caller, id);
      const initialPassword = generatePassword();
      const passwordHash = await hashPassword(initialPassword);
      await deps.atomically(async (r, tx) => {
        await r.resetPassword(id, passwordHash);
        await record(tx, caller, user.orgId, 'user_reset_password', user.account, meta);
      });
      return { id, account: user.account, initialPassword };
    },

    async setUserRoles(caller: Caller, id: string, body: UserRolesBody, meta: ClientMeta) {
      const { scope, user } = await visibleUser(caller, id);
      notSelf(caller, id);
      const roles = await assignable(caller, scope, user.orgId, body.roleIds);
      await deps.atomically(async (r, tx) => {
        await r.setUserRoles(id, roles.map((role) => role.id));
        await record(tx, caller, user.orgId, 'user_roles', `${user.account} roles=${roles.map((role) => role.code).join(',') || '-'}`, meta);
      });
    },

    // ---- roles

    /** With `orgId`: the roles a user of that organisation may be given (its own and its ancestors'). */
    async roles(caller: Caller, q: RoleQuery, lang: Lang): Promise<Page<RoleRow>> {
      let scope = await scopeOf(caller);
      if (q.orgId) {
        mustSee(scope, q.orgId);
        const lineage = await repo.ancestry(q.orgId);
        scope = new Set(lineage.filter((o) => scope.has(o)));
      }
      const { rows, total } = await repo.rolePage([...scope], q);
      return { rows: await roleRows(rows, lang), total, page: q.page, size: q.size };
    },

    async role(caller: Caller, id: string, lang: Lang): Promise<RoleRow> {
      const scope = await scopeOf(caller);
      const [row] = await repo.rolesByIds([id]);
      mustSee(scope, row?.orgId);
      return (await roleRows([row!], lang))[0]!;
    },

    async createRole(caller: Caller, body: RoleCreateBody, lang: Lang, meta: ClientMeta): Promise<RoleRow> {
      const scope = await scopeOf(caller);
      mustSee(scope, body.orgId);
      const menuIds = await validMenus(body.menuIds);
      const permissions = [...new Set(body.permissions)];
      await mayGrant(caller, permissions, menuIds);
      if (await repo.roleCodeTaken(body.orgId, body.code)) throw new AppError(409, 'ROLE_CODE_TAKEN');
      const id = await deps.atomically(async (r, tx) => {
        const made = await r.insertRole({ orgId: body.orgId, code: body.code, nameZh: body.nameZh, nameEn: body.nameEn }, permissions, menuIds);
        await record(tx, caller, body.orgId, 'role_create', `${body.code} permissions=${permissions.join(',') || '-'} menus=${menuIds.length}`, meta);
        return made;
      });
      return this.role(caller, id, lang);
    },

    async updateRole(caller: Caller, id: string, body: RoleUpdateBody, lang: Lang, meta: ClientMeta): Promise<RoleRow> {
      const before = await this.role(caller, id, lang);
      const menuIds = await validMenus(body.menuIds);
      const permissions = [...new Set(body.permissions)];
      // Only what changes must be the caller's to give or take: a role may hold more than its editor.
      const diff = <T>(a: T[], b: T[]) => a.filter((x) => !b.includes(x));
      const changedPerms = [...diff(permissions, before.permissions), ...diff(before.permissions, permissions)];
      const changedMenus = [...diff(menuIds, before.menuIds), ...diff(before.menuIds, menuIds)];
      await mayGrant(caller, changedPerms, changedMenus);
      const sign = (added: string[], removed: string[]) => [...added.map((x) => `+${x}`), ...removed.map((x) => `-${x}`)].join(',');
      await deps.atomically(async (r, tx) => {
        await r.updateRole(id, { nameZh: body.nameZh, nameEn: body.nameEn }, permissions, menuIds);
        await record(
          tx,
          caller,
          before.orgId,
          'role_update',
          `${before.code} permissions ${sign(diff(permissions, before.permissions), diff(before.permissions, permissions)) || '='} menus ${
            sign(diff(menuIds, before.menuIds), diff(before.menuIds, menuIds)) || '='
          }`,
          meta,
        );
      });
      return this.role(caller, id, lang);
    },

    async deleteRole(caller: Caller, id: string, lang: Lang, meta: ClientMeta) {
      const role = await this.role(caller, id, lang);
      if (role.userCount > 0) throw new AppError(409, 'ROLE_IN_USE');
      await deps.atomically(async (r, tx) => {
        await r.deleteRole(id);
        await record(tx, caller, role.orgId, 'role_delete', role.code, meta);
      });
    },

    /** The actions and menu items the caller may put into a role. */
    async grantables(caller: Caller, lang: Lang): Promise<Grantables> {
      const own = await callerGrants(caller);
      const actions = PERMISSION_CODES.filter((p) => !own || own.permissions.has(p)).map((code) => ({ code, name: PERMISSIONS[code][lang] }));
      const rows = await repo.allMenus();
      const types = [...new Set(rows.map((r) => r.type))];
      return {
        actions,
        menus: types.map((type) => ({
          type,
          items: buildTree(
            rows.filter((r) => r.type === type),
            (r) => !own || own.menus.has(r.id),
            lang,
          ),
        })),
      };
    },
  };
}
export type OrgUserService = ReturnType<typeof orgUserService>;

// Idempotent seed, run at every start: the platform organisation and its administrator, the
// demo organisation with an operator, the menus of every scenario and the dictionaries.
// Menus and dictionaries are upserted so corrected texts reach existing databases.
import { and, eq, sql } from 'drizzle-orm';
import { SCENARIO_TYPES } from '@iotc/shared/constants';
import { LOCKS, rowsOf, xactLock, type Db, type Tx } from './client.ts';
import { PERMISSION_CODES, PLATFORM_ADMIN_SCREENS } from '@iotc/shared/platform';
import { dictItems, dictTypes, menus, orgs, roleMenus, rolePermissions, roles, userRoles, users } from './schema.ts';
import { DICTS, menuTree, type MenuNode } from './seed-data.ts';
import { backfillOrgDefaults } from './org-defaults.ts';
import { generatePassword, hashPassword, verifyPassword } from '../lib/password.ts';

export interface SeedOptions {
  adminPassword?: string;
  seedDemo: boolean;
  demoPassword: string;
}

export interface SeedResult {
  /** Set only when the administrator was created now with a generated password. */
  generatedAdminPassword?: string;
  adminCreated: boolean;
  /** The demo sign-in, when the demo organisation is seeded; `passwordValid` false once changed. */
  demo?: { account: string; password: string; passwordValid: boolean };
}

export const PLATFORM_ORG = 'platform';
export const DEMO_ORG = 'demo';

type MenuRow = typeof menus.$inferInsert;

/** Menu entries granted with a sibling when new to a database (MenuNode.grantWith): id -> the sibling's id. */
const GRANT_WITH = new Map<string, string>();

function flattenMenus(): MenuRow[] {
  const rows: MenuRow[] = [];
  for (const type of SCENARIO_TYPES) {
    const walk = (nodes: MenuNode[], pid: string | null) =>
      nodes.forEach((n, i) => {
        const id = `${type}-${n.code}`;
        rows.push({
          id,
          pid,
          type,
          nameZh: n.zh,
          nameEn: n.en,
          url: n.url ?? null,
          icon: n.icon ?? null,
          sort: i,
          active: true,
          platformOnly: n.platformOnly ?? false,
        });
        if (n.grantWith) GRANT_WITH.set(id, `${type}-${n.grantWith}`);
        if (n.children) walk(n.children, id);
      });
    walk(menuTree(type), null);
  }
  return rows;
}

export async function seed(db: Db, opts: SeedOptions): Promise<SeedResult> {
  const menuRows = flattenMenus();
  const adminPassword = opts.adminPassword ?? generatePassword();
  // Hash outside the transaction: argon2 is deliberately slow.
  const [adminHash, demoHash] = await Promise.all([hashPassword(adminPassword), hashPassword(opts.demoPassword)]);

  return db.transaction(async (tx) => {
    // Nodes starting together on one database seed one after the other: the second finds
    // everything in place (no duplicate organisation, no second administrator password).
    await xactLock(tx, LOCKS.seed);
    const result: SeedResult = { adminCreated: false };

    for (const d of DICTS) {
      await tx
        .insert(dictTypes)
        .values({ code: d.code, nameZh: d.zh, nameEn: d.en, sort: DICTS.indexOf(d) })
        .onConflictDoUpdate({ target: dictTypes.code, set: { nameZh: d.zh, nameEn: d.en } });
      await tx
        .insert(dictItems)
        .values(d.items.map(([k, zh, en], i) => ({ dictCode: d.code, dictKey: k, valZh: zh, valEn: en, sort: i })))
        .onConflictDoUpdate({
          target: [dictItems.dictCode, dictItems.dictKey],
          set: { valZh: sql`excluded.val_zh`, valEn: sql`excluded.val_en`, sort: sql`excluded.sort` },
        });
    }

    const known = new Set((await tx.select({ id: menus.id }).from(menus)).map((m) => m.id));
    // Parents come before children in menuRows, so the pid reference always resolves.
    for (const m of menuRows) {
      await tx
        .insert(menus)
        .values(m)
        .onConflictDoUpdate({
          target: menus.id,
          set: { pid: m.pid, nameZh: m.nameZh, nameEn: m.nameEn, url: m.url, icon: m.icon, sort: m.sort, platformOnly: m.platformOnly },
        });
    }
    // An entry new to an existing database goes to the roles holding its sibling, once (a later revoke stays).
    for (const [id, sibling] of GRANT_WITH) {
      if (known.size > 0 && !known.has(id)) {
        await tx.execute(sql`insert into role_menus (role_id, menu_id) select role_id, ${id} from role_menus where menu_id = ${sibling} on conflict do nothing`);
      }
    }
    // The place library's actions, new to an existing database: the roles that read or manage alarm
    // policies get them once, as they got its screen (a later revoke stays).
    if (known.size > 0 && known.has('101-monitor-alarm-policy') && !known.has('101-monitor-alarm-places')) {
      await tx.execute(sql`insert into role_permissions (role_id, permission) select role_id, 'place:read' from role_permissions where permission = 'alarm:read' on conflict do nothing`);
      await tx.execute(sql`insert into role_permissions (role_id, permission) select role_id, 'place:write' from role_permissions where permission = 'alarm:write' on conflict do nothing`);
    }

    // The product actions, new to an existing database (the product routes needed transport:read
    // and transport:write before): the roles holding those get them once. Any role holding a
    // product action means this ran (the platform administrator's role holds every action), so a
    // later revoke stays.
    const [productGranted] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from role_permissions where permission like 'product:%'`));
    if (Number(productGranted?.n ?? 0) === 0) {
      await tx.execute(sql`insert into role_permissions (role_id, permission) select role_id, 'product:read' from role_permissions where permission = 'transport:read' on conflict do nothing`);
      await tx.execute(sql`insert into role_permissions (role_id, permission) select role_id, 'product:write' from role_permissions where permission = 'transport:write' on conflict do nothing`);
    }

    const platformOrg = await upsertOrg(tx, { code: PLATFORM_ORG, name: 'IoT Cloud Platform', kind: 'platform', parentId: null });
    const adminRole = await upsertRole(tx, platformOrg, 'platform_admin', '平台管理员', 'Platform administrator');
    await grant(tx, adminRole, menuRows.map((m) => m.id!));
    await grantActions(tx, adminRole, PERMISSION_CODES);

    const [admin] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.account}) = 'admin'`);
    if (!admin) {
      const [created] = await tx
        .insert(users)
        .values({ orgId: platformOrg, account: 'admin', name: 'Administrator', passwordHash: adminHash, isPlatformAdmin: true })
        .returning({ id: users.id });
      await tx.insert(userRoles).values({ userId: created!.id, roleId: adminRole });
      result.adminCreated = true;
      if (!opts.adminPassword) result.generatedAdminPassword = adminPassword;
    }

    if (opts.seedDemo) {
      const demoOrg = await upsertOrg(tx, { code: DEMO_ORG, name: 'Demo Cold Chain Co.', kind: 'tenant', parentId: platformOrg });
      const operatorRole = await upsertRole(tx, demoOrg, 'operator', '运营人员', 'Operator');
      await grant(tx, operatorRole, menuRows.filter((m) => !m.platformOnly).map((m) => m.id!));
      await grantActions(tx, operatorRole, ['device:read', 'alarm:read', 'alarm:handle', 'place:read', 'place:write', 'fault:handle', 'transport:read', 'transport:write', 'warehouse:read', 'warehouse:write', 'product:read', 'product:write', 'command:request', 'report:schedule']);
      // The organisation's own administrator role: every screen and action within the organisation.
      const orgAdminRole = await upsertRole(tx, demoOrg, ORG_ADMIN_ROLE.code, ORG_ADMIN_ROLE.zh, ORG_ADMIN_ROLE.en);
      // Every screen but the platform administrator's own.
      await grant(tx, orgAdminRole, menuRows.filter((m) => !PLATFORM_ADMIN_SCREENS.has(m.url ?? '')).map((m) => m.id!));
      await grantActions(tx, orgAdminRole, PERMISSION_CODES);
      const [demo] = await tx
        .select({ id: users.id, passwordHash: users.passwordHash })
        .from(users)
        .where(sql`lower(${users.account}) = 'demo'`);
      let valid = true;
      if (!demo) {
        const [created] = await tx
          .insert(users)
          .values({ orgId: demoOrg, account: 'demo', name: 'Demo Operator', passwordHash: demoHash, email: 'demo@example.com' })
          .returning({ id: users.id });
        await tx.insert(userRoles).values({ userId: created!.id, roleId: operatorRole });
      } else {
        valid = await verifyPassword(demo.passwordHash, opts.demoPassword);
      }
      result.demo = { account: 'demo', password: opts.demoPassword, passwordValid: valid };
    }
    await backfillOrgDefaults(tx);
    return result;
  });
}


async function upsertOrg(
  tx: Tx,
  o: { code: string; name: string; kind: 'platform' | 'tenant'; parentId: string | null },
): Promise<string> {
  const [existing] = await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.code, o.code));
  if (existing) return existing.id;
  const [row] = await tx.insert(orgs).values(o).returning({ id: orgs.id });
  return row!.id;
}

async function upsertRole(tx: Tx, orgId: string, code: string, nameZh: string, nameEn: string): Promise<string> {
  const [existing] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.orgId, orgId), eq(roles.code, code)));
  if (existing) return existing.id;
  const [row] = await tx.insert(roles).values({ orgId, code, nameZh, nameEn }).returning({ id: roles.id });
  return row!.id;
}

/** The role a registered organisation's first account receives (and the demo organisation offers). */
export const ORG_ADMIN_ROLE = { code: 'org_admin', zh: '组织管理员', en: 'Organisation administrator' } as const;

export async function grantActions(tx: Tx | Db, roleId: string, permissions: readonly string[]): Promise<void> {
  if (permissions.length === 0) return;
  await tx
    .insert(rolePermissions)
    .values(permissions.map((permission) => ({ roleId, permission })))
    .onConflictDoNothing();
}

export async function grant(tx: Tx | Db, roleId: string, menuIds: string[]): Promise<void> {
  if (menuIds.length === 0) return;
  await tx
    .insert(roleMenus)
    .values(menuIds.map((menuId) => ({ roleId, menuId })))
    .onConflictDoNothing();
}

// Test data shared by API and browser tests: a tenant organisation with one operator whose role
// opens the given menu items.
import { hashPassword } from '../lib/password.ts';
import type { Db } from '../db/client.ts';
import { eq } from 'drizzle-orm';
import { addOrgDefaults } from '../db/org-defaults.ts';
import { orgs, roleMenus, rolePermissions, roles, userRoles, users } from '../db/schema.ts';

export async function createTenantUser(
  db: Db,
  opts: { code: string; account: string; password: string; menuIds?: string[]; permissions?: string[]; mustChangePassword?: boolean; orgName?: string },
) {
  const [org] = await db
    .insert(orgs)
    .values({ code: opts.code, name: opts.orgName ?? `Org ${opts.code}` })
    .returning();
  await addOrgDefaults(db, [org!.id]);
  const [role] = await db.insert(roles).values({ orgId: org!.id, code: 'op', nameZh: '操作员', nameEn: 'Operator' }).returning();
  const menuIds = opts.menuIds ?? ['102-monitor-live-device'];
  if (menuIds.length) await db.insert(roleMenus).values(menuIds.map((menuId) => ({ roleId: role!.id, menuId })));
  if (opts.permissions?.length) await db.insert(rolePermissions).values(opts.permissions.map((permission) => ({ roleId: role!.id, permission })));
  const [user] = await db
    .insert(users)
    .values({
      orgId: org!.id,
      account: opts.account,
      name: `User ${opts.account}`,
      passwordHash: await hashPassword(opts.password),
      mustChangePassword: opts.mustChangePassword ?? false,
    })
    .returning();
  await db.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
  return { org: org!, role: role!, user: user! };
}

/** One more user in an existing organisation, holding that organisation's roles of the given codes. */
export async function addOrgUser(
  db: Db,
  opts: { orgId: string; account: string; password: string; roleCodes: string[]; email?: string; phone?: string; mustChangePassword?: boolean },
) {
  const [user] = await db
    .insert(users)
    .values({
      orgId: opts.orgId,
      account: opts.account,
      name: `User ${opts.account}`,
      email: opts.email ?? null,
      phone: opts.phone ?? null,
      passwordHash: await hashPassword(opts.password),
      mustChangePassword: opts.mustChangePassword ?? false,
    })
    .returning();
  const held = (await db.select().from(roles).where(eq(roles.orgId, opts.orgId))).filter((r) => opts.roleCodes.includes(r.code));
  if (held.length !== opts.roleCodes.length) throw new Error(`roles ${opts.roleCodes.join(',')} not all found in the organisation`);
  if (held.length) await db.insert(userRoles).values(held.map((r) => ({ userId: user!.id, roleId: r.id })));
  return user!;
}

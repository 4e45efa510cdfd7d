// Test data shared by API and browser tests: a tenant organisation with one operator whose role
// opens the given menu items.
import { hashPassword } from '../modules/auth/password.ts';
import type { Db } from '../db/client.ts';
import { orgs, roleMenus, roles, userRoles, users } from '../db/schema.ts';

export async function createTenantUser(
  db: Db,
  opts: { code: string; account: string; password: string; menuIds?: string[]; mustChangePassword?: boolean; orgName?: string },
) {
  const [org] = await db
    .insert(orgs)
    .values({ code: opts.code, name: opts.orgName ?? `Org ${opts.code}` })
    .returning();
  const [role] = await db.insert(roles).values({ orgId: org!.id, code: 'op', nameZh: '操作员', nameEn: 'Operator' }).returning();
  const menuIds = opts.menuIds ?? ['102-monitor-live-device'];
  if (menuIds.length) await db.insert(roleMenus).values(menuIds.map((menuId) => ({ roleId: role!.id, menuId })));
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

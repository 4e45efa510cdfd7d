// SQL of the menu area: the menu rows one user may see in one scenario.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { menus, roleMenus, userRoles } from '../../db/schema.ts';

export type MenuRow = typeof menus.$inferSelect;

export function menuRepo(db: Db) {
  return {
    async ofType(type: number): Promise<MenuRow[]> {
      return db
        .select()
        .from(menus)
        .where(and(eq(menus.type, type), eq(menus.active, true)))
        .orderBy(asc(menus.sort), asc(menus.id));
    },
    async grantedIds(userId: string): Promise<Set<string>> {
      const rows = await db
        .selectDistinct({ id: roleMenus.menuId })
        .from(roleMenus)
        .where(inArray(roleMenus.roleId, db.select({ id: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId))));
      return new Set(rows.map((r) => r.id));
    },
  };
}
export type MenuRepo = ReturnType<typeof menuRepo>;

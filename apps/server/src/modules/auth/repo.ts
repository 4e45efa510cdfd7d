// SQL of the auth area: users by account, sessions by token hash, failed-login counts.
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userByAccount, userById } from '../../db/users.ts';
import { scopeOf } from '../../db/list.ts';
import { loginFailures, orgs, roleMenus, rolePermissions, roles, scopeVersion, sessions, userRoles, users } from '../../db/schema.ts';

export function authRepo(db: Db) {
  let platformOrg: string | undefined;
  return {
    /** The root organisation; it owns records that belong to no known account. */
    async platformOrgId(): Promise<string> {
      if (platformOrg) return platformOrg;
      const [row] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.kind, 'platform')).limit(1);
      if (!row) throw new Error('the platform organisation is missing: the seed did not run');
      return (platformOrg = row.id);
    },

    userById: (id: string) => userById(db, id),

    userByAccount: (account: string) => userByAccount(db, account),

    async recentFailures(account: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(loginFailures)
        .where(and(eq(loginFailures.account, account.toLowerCase()), gt(loginFailures.at, since)));
      return row?.n ?? 0;
    },

    async recordFailure(account: string, ip: string | null) {
      await db.insert(loginFailures).values({ account: account.toLowerCase(), ip });
    },

    async clearFailures(account: string) {
      await db.delete(loginFailures).where(eq(loginFailures.account, account.toLowerCase()));
    },

    async hasAnyMenu(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(userRoles)
        .innerJoin(roleMenus, eq(roleMenus.roleId, userRoles.roleId))
        .where(eq(userRoles.userId, userId));
      return (row?.n ?? 0) > 0;
    },

    /** The actions the user's roles grant. */
    async permissionsOf(userId: string): Promise<string[]> {
      const rows = await db
        .selectDistinct({ p: rolePermissions.permission })
        .from(userRoles)
        .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
        .where(eq(userRoles.userId, userId));
      return rows.map((r) => r.p).sort();
    },

    /** The organisation and its descendants, as a caller's scope (db/list.ts). */
    scopeOf: (orgId: string) => scopeOf(db, orgId),

    async createSession(s: typeof sessions.$inferInsert) {
      await db.insert(sessions).values(s);
    },

    async sessionByHash(tokenHash: string) {
      const [row] = await db
        .select({
          id: sessions.id,
          userId: sessions.userId,
          orgId: sessions.orgId,
          period: sessions.period,
          expiresAt: sessions.expiresAt,
          lastSeenAt: sessions.lastSeenAt,
          account: users.account,
          isPlatformAdmin: users.isPlatformAdmin,
          /** Moves when any caller's scope may have changed (db/schema/org.ts scopeVersion). */
          scopeVersion: sql<number>`(select ${scopeVersion.n} from ${scopeVersion})`.mapWith(Number),
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .innerJoin(orgs, eq(orgs.id, users.orgId))
        .where(
          and(
            eq(sessions.tokenHash, tokenHash),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, sql`now()`),
            eq(users.status, 'active'),
            eq(orgs.status, 'active'),
          ),
        );
      return row;
    },

    /** New password, initial-password flag cleared, and every other session of the user ended: together or not at all. */
    async changePassword(userId: string, passwordHash: string, keepSessionId: string | null) {
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, mustChangePassword: false, passwordChangedAt: new Date() })
          .where(eq(users.id, userId));
        await tx
          .update(sessions)
          .set({ revokedAt: new Date() })
          .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keepSessionId ? ne(sessions.id, keepSessionId) : undefined));
      });
    },

    async slideSession(id: string, expiresAt: Date) {
      await db.update(sessions).set({ expiresAt, lastSeenAt: new Date() }).where(eq(sessions.id, id));
    },

    async revokeSession(tokenHash: string) {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
    },

    async userInfo(userId: string) {
      // One round trip: the user, the organisation's name and the role codes together.
      const [u] = await db
        .select({
          id: users.id,
          account: users.account,
          name: users.name,
          orgId: users.orgId,
          orgName: orgs.name,
          email: users.email,
          phone: users.phone,
          isPlatformAdmin: users.isPlatformAdmin,
          mustChangePassword: users.mustChangePassword,
          roles: sql<string[]>`coalesce(array_agg(${roles.code} order by ${roles.code}) filter (where ${roles.code} is not null), '{}')`,
        })
        .from(users)
        .innerJoin(orgs, eq(orgs.id, users.orgId))
        .leftJoin(userRoles, eq(userRoles.userId, users.id))
        .leftJoin(roles, eq(roles.id, userRoles.roleId))
        .where(eq(users.id, userId))
        .groupBy(users.id, orgs.name);
      return u;
    },

    /** Housekeeping: expired or revoked sessions and old failure records. */
    async purge(before: Date) {
      await db.delete(sessions).where(sql`${sessions.expiresAt} < ${before} OR ${sessions.revokedAt} < ${before}`);
      await db.delete(loginFailures).where(sql`${loginFailures.at} < ${before}`);
    },
  };
}

export type AuthRepo = ReturnType<typeof authRepo>;

// SQL of the account lifecycle: registration (organisation, administrator role, first user in
// one transaction) and the retrieval codes with their reset tickets.
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { PERMISSION_CODES } from '@iotc/shared/platform';
import type { Db } from '../../db/client.ts';
import { accountTaken, userByAccount } from '../../db/users.ts';
import { loginFailures, menus, orgs, roles, sessions, userRoles, users, verificationCodes } from '../../db/schema.ts';
import { addOrgDefaults } from '../../db/org-defaults.ts';
import { grant, grantActions, ORG_ADMIN_ROLE } from '../../db/seed.ts';

export type CodeRow = typeof verificationCodes.$inferSelect;

/** A reset ticket of this user, not used and not expired. */
const liveTicket = (userId: string, ticketHash: string) =>
  and(
    eq(verificationCodes.ticketHash, ticketHash),
    eq(verificationCodes.userId, userId),
    isNull(verificationCodes.ticketUsedAt),
    gt(verificationCodes.ticketExpiresAt, sql`now()`),
  );

export function accountRepo(db: Db) {
  return {
    userByAccount: (account: string) => userByAccount(db, account),
    accountTaken: (account: string) => accountTaken(db, account),

    /** A new tenant organisation under the platform, its administrator role (every screen and action) and its first user. */
    async register(u: { account: string; name: string; email: string; phone: string | null; passwordHash: string }, orgName: string) {
      return db.transaction(async (tx) => {
        const [platform] = await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.kind, 'platform')).limit(1);
        const [org] = await tx
          .insert(orgs)
          .values({ parentId: platform!.id, code: `reg-${randomBytes(5).toString('hex')}`, name: orgName, kind: 'tenant' })
          .returning({ id: orgs.id });
        await addOrgDefaults(tx, [org!.id]);
        const [role] = await tx
          .insert(roles)
          .values({ orgId: org!.id, code: ORG_ADMIN_ROLE.code, nameZh: ORG_ADMIN_ROLE.zh, nameEn: ORG_ADMIN_ROLE.en })
          .returning({ id: roles.id });
        const menuIds = (await tx.select({ id: menus.id }).from(menus)).map((m) => m.id);
        await grant(tx, role!.id, menuIds);
        await grantActions(tx, role!.id, PERMISSION_CODES);
        const [user] = await tx
          .insert(users)
          .values({ ...u, orgId: org!.id })
          .returning({ id: users.id });
        await tx.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
        return { orgId: org!.id, userId: user!.id };
      });
    },

    async codesSentSince(userId: string, since: Date): Promise<{ n: number; last: Date | null }> {
      const [row] = await db
        .select({ n: count(), last: sql<string | null>`max(${verificationCodes.createdAt})` })
        .from(verificationCodes)
        .where(and(eq(verificationCodes.userId, userId), gt(verificationCodes.createdAt, since)));
      return { n: Number(row?.n ?? 0), last: row?.last ? new Date(row.last) : null };
    },

    /** A new code; the user's earlier unused codes stop counting (only the latest one is valid). */
    async insertCode(c: { userId: string; channel: 'email' | 'sms'; codeHash: string; expiresAt: Date }): Promise<string> {
      return db.transaction(async (tx) => {
        await tx
          .update(verificationCodes)
          .set({ usedAt: new Date() })
          .where(and(eq(verificationCodes.userId, c.userId), isNull(verificationCodes.usedAt)));
        const [row] = await tx.insert(verificationCodes).values(c).returning({ id: verificationCodes.id });
        return row!.id;
      });
    },

    async dropCode(id: string) {
      await db.delete(verificationCodes).where(eq(verificationCodes.id, id));
    },

    /** The newest code of the user on that channel. */
    async latestCode(userId: string, channel: 'email' | 'sms'): Promise<CodeRow | undefined> {
      const [row] = await db
        .select()
        .from(verificationCodes)
        .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.channel, channel)))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      return row;
    },

    /** Counts one wrong try; answers the new count, or null when the code had no tries left. */
    async countAttempt(id: string, max: number): Promise<number | null> {
      const [row] = await db
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(and(eq(verificationCodes.id, id), sql`${verificationCodes.attempts} < ${max}`))
        .returning({ attempts: verificationCodes.attempts });
      return row ? row.attempts : null;
    },

    /** Uses the code up and attaches a reset ticket; false when another request used it first. */
    async useCode(id: string, ticketHash: string, ticketExpiresAt: Date): Promise<boolean> {
      const rows = await db
        .update(verificationCodes)
        .set({ usedAt: new Date(), ticketHash, ticketExpiresAt })
        .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt)))
        .returning({ id: verificationCodes.id });
      return rows.length === 1;
    },

    /**
     * The password change of a retrieval: the ticket is used up, the password set, the
     * initial-password flag cleared, every session ended, failed sign-ins forgotten; together or
     * not at all. False when the ticket is unknown, expired or already used.
     */
    async resetWithTicket(userId: string, ticketHash: string, passwordHash: string, account: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const used = await tx
          .update(verificationCodes)
          .set({ ticketUsedAt: new Date() })
          .where(liveTicket(userId, ticketHash))
          .returning({ id: verificationCodes.id });
        if (used.length !== 1) return false;
        await tx.update(users).set({ passwordHash, mustChangePassword: false, passwordChangedAt: new Date() }).where(eq(users.id, userId));
        await tx
          .update(sessions)
          .set({ revokedAt: new Date() })
          .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
        await tx.delete(loginFailures).where(eq(loginFailures.account, account.toLowerCase()));
        return true;
      });
    },

    /** Whether a ticket is still good (checked before the password rules, so a stale form says so first). */
    async ticketValid(userId: string, ticketHash: string): Promise<boolean> {
      const [row] = await db.select({ id: verificationCodes.id }).from(verificationCodes).where(liveTicket(userId, ticketHash));
      return Boolean(row);
    },

    async purge(before: Date) {
      await db.delete(verificationCodes).where(sql`${verificationCodes.expiresAt} < ${before} and (${verificationCodes.ticketExpiresAt} is null or ${verificationCodes.ticketExpiresAt} < ${before})`);
    },
  };
}
export type AccountRepo = ReturnType<typeof accountRepo>;

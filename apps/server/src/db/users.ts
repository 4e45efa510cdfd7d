// Users by account, the one lookup that sign-in, retrieval and management share: accounts are
// unique regardless of letter case.
import { eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { orgs, users } from './schema.ts';

const accountFields = {
  id: users.id,
  orgId: users.orgId,
  account: users.account,
  email: users.email,
  phone: users.phone,
  passwordHash: users.passwordHash,
  status: users.status,
  orgStatus: orgs.status,
  isPlatformAdmin: users.isPlatformAdmin,
  mustChangePassword: users.mustChangePassword,
};

const sameAccount = (account: string) => sql`lower(${users.account}) = ${account.toLowerCase()}`;

/** The user of an account (any letter case), with what sign-in needs to decide. */
export async function userByAccount(db: Db, account: string) {
  const [row] = await db.select(accountFields).from(users).innerJoin(orgs, eq(orgs.id, users.orgId)).where(sameAccount(account));
  return row;
}

export async function userById(db: Db, id: string) {
  const [row] = await db.select(accountFields).from(users).innerJoin(orgs, eq(orgs.id, users.orgId)).where(eq(users.id, id));
  return row;
}

export async function accountTaken(db: Db, account: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(sameAccount(account));
  return Boolean(row);
}

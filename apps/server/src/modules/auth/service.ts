// Sign-in rules: password check with a per-account lock-out, random tokens kept only as
// hashes, week-long or sliding sessions, revocation on logout.
import { createHash, randomBytes } from 'node:crypto';
import { LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES, LOGIN_PERIOD_DAYS } from '@iotc/shared/constants';
import type { ChangePasswordBody, LoginBody, LoginData, UserInfo } from '@iotc/shared/auth';
import type { ErrorCode } from '@iotc/shared/errors';
import { PERMISSION_CODES, type Permission } from '@iotc/shared/platform';
import type { Caller, ClientMeta, OrgScope } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuthRepo } from './repo.ts';
import type { AuditWriter } from '../audit/repo.ts';
import type { Tx } from '../../db/client.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';

const DAY = 86_400_000;
/** A sliding session is extended at most once a minute, so reads do not all become writes. */
const SLIDE_EVERY_MS = 60_000;
/** Sessions whose resolved scope a node keeps (the oldest is dropped beyond this). */
const SCOPES_KEPT = 10_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface AuthOptions {
  sessionHours: number;
  now?: () => Date;
  /** Where sign-ins, sign-outs and password changes are recorded (the audit log). */
  audit: AuditWriter;
  /** Runs work in one transaction with the repository on it: a change and its audit row commit together. */
  atomically: <T>(work: (repo: AuthRepo, tx: Tx) => Promise<T>) => Promise<T>;
  /** Checks (and uses up) an image captcha. */
  captchas?: { consume(id: string, answer: string): Promise<boolean> };
}

export function authService(repo: AuthRepo, opts: AuthOptions) {
  const now = opts.now ?? (() => new Date());
  const sessionMs = opts.sessionHours * 3_600_000;
  const { audit, atomically } = opts;
  /**
   * Each session's scope (organisation tree, permissions), resolved on its first request and kept
   * while the scope version stands still: a change of the tree, of a user's roles or organisation,
   * or of a role's permissions moves the version (database triggers) and the next request of every
   * session on every node resolves it again.
   */
  const scopes = new Map<string, { version: number; scope: OrgScope; permissions: readonly Permission[] }>();
  async function scopeOfSession(s: { id: string; orgId: string; userId: string; isPlatformAdmin: boolean; scopeVersion: number }) {
    const kept = scopes.get(s.id);
    if (kept && kept.version === s.scopeVersion) return kept;
    const [scope, permissions] = await Promise.all([repo.scopeOf(s.orgId), permissionsOf(s)]);
    const resolved = { version: s.scopeVersion, scope, permissions };
    scopes.delete(s.id);
    if (scopes.size >= SCOPES_KEPT) scopes.delete(scopes.keys().next().value!);
    scopes.set(s.id, resolved);
    return resolved;
  }

  /** A refusal: recorded in the audit log (attempts on unknown accounts in the platform's), then thrown. */
  function refuser(account: string, user: { id: string; orgId: string } | undefined, action: string, meta: ClientMeta) {
    return async (status: number, code: ErrorCode): Promise<never> => {
      const orgId = user?.orgId ?? (await repo.platformOrgId());
      // A refusal changes nothing to pair with: its row is written on its own.
      await atomically((_r, tx) => audit(tx, { orgId, userId: user?.id ?? null, account, action, result: 'failure', detail: code, ...meta }));
      throw new AppError(status, code);
    };
  }

  /** The stored password check, costing one argon2 verification even for an unknown account. */
  async function passwordMatches(user: { passwordHash: string } | undefined, password: string): Promise<boolean> {
    if (user) return verifyPassword(user.passwordHash, password);
    await verifyPassword(await dummyHash, password);
    return false;
  }
  // Unknown accounts still cost one verification, so timing does not tell which accounts exist
  // (made at once, so the first unknown account does not pay for the hashing either).
  const dummyHash: Promise<string> = hashPassword(randomBytes(16).toString('hex'));

  async function permissionsOf(user: { userId: string; isPlatformAdmin: boolean }): Promise<Permission[]> {
    if (user.isPlatformAdmin) return [...PERMISSION_CODES];
    const granted = new Set(await repo.permissionsOf(user.userId));
    return PERMISSION_CODES.filter((p) => granted.has(p));
  }

  async function userInfo(userId: string): Promise<UserInfo> {
    const u = await repo.userInfo(userId);
    if (!u) throw new AppError(401, 'TOKEN_INVALID');
    return { ...u, permissions: await permissionsOf({ userId, isPlatformAdmin: u.isPlatformAdmin }) };
  }

  /** A proven user may enter when active, in an active organisation, with at least one screen (or as platform administrator). */
  async function admit(
    user: { id: string; status: string; orgStatus: string; isPlatformAdmin: boolean },
    refuse: (status: number, code: ErrorCode) => Promise<never>,
  ): Promise<void> {
    if (user.status !== 'active' || user.orgStatus !== 'active') await refuse(403, 'ACCOUNT_DEACTIVATED');
    if (!user.isPlatformAdmin && !(await repo.hasAnyMenu(user.id))) await refuse(403, 'NO_PERMISSION');
  }

  async function issue(
    user: { id: string; orgId: string; account: string; mustChangePassword: boolean },
    period: number | null,
    meta: ClientMeta,
    action: string,
  ): Promise<LoginData> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now().getTime() + (period ? LOGIN_PERIOD_DAYS * DAY : sessionMs));
    await atomically(async (r, tx) => {
      await r.createSession({ tokenHash: hashToken(token), userId: user.id, orgId: user.orgId, period, expiresAt, ...meta });
      await audit(tx, { orgId: user.orgId, userId: user.id, account: user.account, action, result: 'success', detail: period ? 'period=7' : null, ...meta });
    });
    const info = await userInfo(user.id);
    return { token, period, expiresAt: expiresAt.toISOString(), mustChangePassword: user.mustChangePassword, user: info };
  }

  return {
    async login(body: LoginBody, meta: ClientMeta): Promise<LoginData> {
      const account = body.account.trim();
      const user = await repo.userByAccount(account);
      const refuse = refuser(account, user, 'login', meta);

      const since = new Date(now().getTime() - LOGIN_FAILURE_WINDOW_MS);
      const failures = await repo.recentFailures(account, since);
      if (failures >= LOGIN_MAX_FAILURES) return refuse(429, 'TOO_MANY_ATTEMPTS');
      // Verified before asking whether the account exists: an unknown account costs the same.
      const matches = await passwordMatches(user, body.password);
      if (!user || !matches) {
        await repo.recordFailure(account, meta.ip);
        return refuse(401, 'ACCOUNT_PASSWORD_ERROR');
      }
      await admit(user, refuse);
      // Only recent failures are counted, so older rows may stay for the hourly purge.
      if (failures > 0) await repo.clearFailures(account);
      return issue({ ...user, account }, body.period ?? null, meta, 'login');
    },

    /**
     * A session for an account proven another way (an external identity): the same checks as
     * a sign-in after the password, the same kind of session, recorded under `action`.
     */
    async signInUser(userId: string, meta: ClientMeta, action: string): Promise<LoginData> {
      const user = await repo.userById(userId);
      if (!user) throw new AppError(403, 'ACCOUNT_DEACTIVATED');
      await admit(user, refuser(user.account, user, action, meta));
      return issue(user, null, meta, action);
    },

    /**
     * The spec's 'update password'. Open without a token (an initial password may have to be
     * changed first); with one, only for the caller's own account. Wrong original passwords
     * count towards the same lock-out as sign-ins. Every other session of the user ends.
     */
    async changePassword(body: ChangePasswordBody, caller: Caller | null, meta: ClientMeta): Promise<void> {
      const account = body.account.trim();
      if (caller && caller.account.toLowerCase() !== account.toLowerCase()) throw new AppError(403, 'NO_PERMISSION');
      if (!(await opts.captchas?.consume(body.captchaId, body.captcha))) throw new AppError(400, 'CAPTCHA_ERROR');
      const user = await repo.userByAccount(account);
      const refuse = refuser(account, user, 'password_change', meta);
      const failures = await repo.recentFailures(account, new Date(now().getTime() - LOGIN_FAILURE_WINDOW_MS));
      if (failures >= LOGIN_MAX_FAILURES) return refuse(429, 'TOO_MANY_ATTEMPTS');
      const matches = await passwordMatches(user, body.oldPassword);
      if (!user || !matches) {
        await repo.recordFailure(account, meta.ip);
        return refuse(400, 'OLD_PASSWORD_ERROR');
      }
      if (user.status !== 'active' || user.orgStatus !== 'active') return refuse(403, 'ACCOUNT_DEACTIVATED');
      const passwordHash = await hashPassword(body.newPassword);
      await atomically(async (r, tx) => {
        await r.changePassword(user.id, passwordHash, caller?.sessionId ?? null);
        await audit(tx, { orgId: user.orgId, userId: user.id, account, action: 'password_change', result: 'success', ...meta });
      });
      if (failures > 0) await repo.clearFailures(account);
    },

    async authenticate(token: string): Promise<Caller | null> {
      if (token.length > 200) return null;
      const s = await repo.sessionByHash(hashToken(token));
      if (!s) return null;
      const t = now();
      if (s.period === null && t.getTime() - s.lastSeenAt.getTime() > SLIDE_EVERY_MS) {
        await repo.slideSession(s.id, new Date(t.getTime() + sessionMs));
      }
      const { scope, permissions } = await scopeOfSession(s);
      return { userId: s.userId, orgId: s.orgId, sessionId: s.id, account: s.account, isPlatformAdmin: s.isPlatformAdmin, scope, permissions };
    },

    async logout(caller: Caller, token: string, meta: ClientMeta): Promise<void> {
      await atomically(async (r, tx) => {
        await r.revokeSession(hashToken(token));
        await audit(tx, { orgId: caller.orgId, userId: caller.userId, account: caller.account, action: 'logout', result: 'success', ...meta });
      });
      scopes.delete(caller.sessionId);
    },

    userInfo,
    permissionsOf,
    /** Ends one session without a record (a sign-in undone by the caller). */
    logoutToken: (token: string) => repo.revokeSession(hashToken(token)),

    purge: () => repo.purge(new Date(now().getTime() - DAY)),
  };
}

export type AuthService = ReturnType<typeof authService>;

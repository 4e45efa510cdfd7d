// External sign-in with a standard OpenID Connect provider (authorization code flow with PKCE,
// state and nonce, by openid-client). A known identity signs straight in; an unknown one is held
// as a pending sign-in for ten minutes while the user binds it to an account with its password.
// A signed-in user with a bound identity can also prove who they are again at the provider
// (prompt=login, max_age=0) to sign a record: the callback checks the identity is theirs and
// the provider's sign-in is new, and hands the console window a single-use proof that the
// signature service takes (`takeReauthProof`) in place of the password.
import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { SSO_PENDING_TTL_MS, SSO_REAUTH_PROOF_TTL_MS, SSO_REAUTH_SKEW_S } from '@iotc/shared/constants';
import type { BindUserQuery, SsoConfig } from '@iotc/shared/account';
import type { LoginData } from '@iotc/shared/auth';
import { ACCOUNT_API } from '@iotc/shared/account';
import type { Db, Tx } from '../../db/client.ts';
import { ssoFlows, userIdentities } from '../../db/schema.ts';
import { userByAccount } from '../../db/users.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuthService } from '../auth/service.ts';
import type { AuditWriter } from '../audit/repo.ts';

export interface SsoOptions {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  name: string;
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** The console always lands on real-time monitoring after an external sign-in (the spec's token-in-address rule). */
export type CallbackOutcome =
  | { kind: 'signedIn'; data: LoginData }
  | { kind: 'bind'; openid: string }
  | { kind: 'reauth'; proof: string }
  | { kind: 'reauthFailed'; code: 'SSO_FAILED' | 'SSO_REAUTH_MISMATCH' | 'SSO_REAUTH_STALE' };

/**
 * Takes a re-authentication proof (single use, within its five minutes): true when it proves
 * the identity bound to `userId`. Anything else (unknown, used, expired, someone else's) is false.
 */
export async function takeReauthProof(db: Db | Tx, userId: string, proof: string): Promise<boolean> {
  const [taken] = await db
    .delete(ssoFlows)
    .where(and(eq(ssoFlows.idHash, sha256(proof)), eq(ssoFlows.kind, 'proof'), gt(ssoFlows.expiresAt, sql`now()`)))
    .returning();
  if (!taken?.subject) return false;
  const [bound] = await db
    .select({ userId: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.issuer, taken.issuer), eq(userIdentities.subject, taken.subject)));
  return bound?.userId === userId;
}

export function ssoService(db: Db, auth: AuthService, audit: AuditWriter, opts?: SsoOptions) {
  let discovered: Promise<oidc.Configuration> | undefined;

  /** The provider's metadata, fetched on first use and kept; a failed fetch is tried again next time. */
  function provider(): Promise<oidc.Configuration> {
    if (!opts) throw new AppError(404, 'SSO_DISABLED');
    discovered ??= oidc
      .discovery(new URL(opts.issuer), opts.clientId, opts.clientSecret, undefined, {
        // A plain-http issuer is only accepted when configured so (a provider on the local network, tests).
        execute: new URL(opts.issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  }

  /**
   * A flow's start: its state, nonce and PKCE verifier are kept (the state hashed) for the
   * provider's answer, and the provider's sign-in address is answered.
   */
  async function authorizationUrl(
    config: oidc.Configuration,
    callbackUrl: string,
    flow: { kind: 'state' | 'reauth'; scope: string; subject?: string; params?: Record<string, string> },
  ): Promise<string> {
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await db.insert(ssoFlows).values({
      idHash: sha256(state),
      kind: flow.kind,
      issuer: config.serverMetadata().issuer,
      nonce,
      codeVerifier,
      subject: flow.subject ?? null,
      expiresAt: new Date(Date.now() + SSO_PENDING_TTL_MS),
    });
    return oidc
      .buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl,
        scope: flow.scope,
        state,
        nonce,
        ...flow.params,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      })
      .toString();
  }

  return {
    config(): SsoConfig {
      return { enabled: Boolean(opts), name: opts?.name ?? null, startUrl: ACCOUNT_API.oauth };
    },

    /** Where to send the browser to sign in at the provider. */
    async start(callbackUrl: string): Promise<string> {
      return authorizationUrl(await provider(), callbackUrl, { kind: 'state', scope: 'openid profile email' });
    },

    /**
     * Where to send a signed-in user to prove who they are again before signing: the provider's
     * sign-in, forced (prompt=login, max_age=0), for the identity bound to their account.
     */
    async reauthStart(caller: Caller, callbackUrl: string): Promise<string> {
      // An unreachable provider is said as such (the signer can still use the password).
      const config = await provider().catch((error: unknown) => {
        if (error instanceof AppError) throw error;
        throw new AppError(502, 'SSO_FAILED');
      });
      const [identity] = await db
        .select({ subject: userIdentities.subject })
        .from(userIdentities)
        .where(and(eq(userIdentities.userId, caller.userId), eq(userIdentities.issuer, config.serverMetadata().issuer)));
      if (!identity) throw new AppError(409, 'SSO_NOT_BOUND');
      return authorizationUrl(config, callbackUrl, { kind: 'reauth', scope: 'openid', subject: identity.subject, params: { prompt: 'login', max_age: '0' } });
    },

    /** The provider's answer: signs a bound identity in, or holds an unbound one for binding. */
    async callback(currentUrl: URL, meta: ClientMeta): Promise<CallbackOutcome> {
      const config = await provider();
      const state = currentUrl.searchParams.get('state');
      if (!state) throw new AppError(400, 'SSO_FAILED');
      // The state is single use: taken out of the table before anything else.
      const [flow] = await db
        .delete(ssoFlows)
        .where(and(eq(ssoFlows.idHash, sha256(state)), inArray(ssoFlows.kind, ['state', 'reauth']), gt(ssoFlows.expiresAt, sql`now()`)))
        .returning();
      if (!flow) throw new AppError(400, 'BIND_EXPIRED');
      const reauth = flow.kind === 'reauth';
      let subject: string;
      let authTime: number | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: flow.codeVerifier!,
          expectedState: state,
          expectedNonce: flow.nonce!,
          idTokenExpected: true,
        });
        const claims = tokens.claims()!;
        subject = claims.sub;
        authTime = typeof claims.auth_time === 'number' ? claims.auth_time : undefined;
      } catch {
        if (reauth) return { kind: 'reauthFailed', code: 'SSO_FAILED' };
        throw new AppError(400, 'SSO_FAILED');
      }
      if (reauth) {
        if (subject !== flow.subject) return { kind: 'reauthFailed', code: 'SSO_REAUTH_MISMATCH' };
        // The provider must have asked for the sign-in again, not answered from its own session.
        if (authTime === undefined || authTime < Math.floor(flow.createdAt.getTime() / 1000) - SSO_REAUTH_SKEW_S) return { kind: 'reauthFailed', code: 'SSO_REAUTH_STALE' };
        const proof = randomBytes(32).toString('base64url');
        await db.insert(ssoFlows).values({ idHash: sha256(proof), kind: 'proof', issuer: flow.issuer, subject, expiresAt: new Date(Date.now() + SSO_REAUTH_PROOF_TTL_MS) });
        return { kind: 'reauth', proof };
      }
      const [bound] = await db
        .select({ userId: userIdentities.userId })
        .from(userIdentities)
        .where(and(eq(userIdentities.issuer, flow.issuer), eq(userIdentities.subject, subject)));
      if (bound) return { kind: 'signedIn', data: await auth.signInUser(bound.userId, meta, 'sso_login') };
      const openid = randomBytes(32).toString('base64url');
      await db.insert(ssoFlows).values({
        idHash: sha256(openid),
        kind: 'pending',
        issuer: flow.issuer,
        subject,
        expiresAt: new Date(Date.now() + SSO_PENDING_TTL_MS),
      });
      return { kind: 'bind', openid };
    },

    /** Binds the pending identity to the account whose password is given, and signs in. */
    async bind(q: BindUserQuery, meta: ClientMeta): Promise<LoginData> {
      const [pending] = await db
        .select()
        .from(ssoFlows)
        .where(and(eq(ssoFlows.idHash, sha256(q.openid)), eq(ssoFlows.kind, 'pending'), gt(ssoFlows.expiresAt, sql`now()`)));
      if (!pending) throw new AppError(400, 'BIND_EXPIRED');
      const target = await userByAccount(db, q.userCode.trim());
      if (target) {
        const [already] = await db
          .select()
          .from(userIdentities)
          .where(and(eq(userIdentities.userId, target.id), eq(userIdentities.issuer, pending.issuer)));
        if (already) throw new AppError(409, 'ALREADY_BOUND');
      }
      // The password check of a sign-in: the same lock-out and audit; a wrong pair is worded as
      // the spec's binding text ('Username or password error'), the login form's being its own.
      const data = await auth.login({ account: q.userCode, password: q.password }, meta).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'ACCOUNT_PASSWORD_ERROR') throw new AppError(error.statusCode, 'USERNAME_PASSWORD_ERROR');
        throw error;
      });
      // The binding, the flow's end and the audit row commit together.
      const inserted = await db.transaction(async (tx) => {
        const rows = await tx
          .insert(userIdentities)
          .values({ issuer: pending.issuer, subject: pending.subject!, userId: data.user.id })
          .onConflictDoNothing()
          .returning();
        await tx.delete(ssoFlows).where(eq(ssoFlows.idHash, pending.idHash));
        if (rows.length === 1) {
          await audit(tx, { orgId: data.user.orgId, userId: data.user.id, account: data.user.account, action: 'sso_bind', result: 'success', detail: pending.issuer, ...meta });
        }
        return rows;
      });
      if (inserted.length !== 1) {
        await auth.logoutToken(data.token);
        throw new AppError(409, 'ALREADY_BOUND');
      }
      return data;
    },

    async purge() {
      await db.delete(ssoFlows).where(lt(ssoFlows.expiresAt, new Date()));
    },
  };
}
export type SsoService = ReturnType<typeof ssoService>;

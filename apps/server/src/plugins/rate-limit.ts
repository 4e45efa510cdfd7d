// Request rate limits of the open doors (@fastify/rate-limit): signing in (login, SSO binding,
// password change) per client address and per account, and everything that creates or checks
// a captcha or a verification code (registration, password retrieval) per client address and per
// target account or address. Fixed one-minute windows, counted in Redis when REDIS_URL is set
// (several nodes count together), else in this process. An exceeded limit answers 429 in the
// envelope, in the request's language, with Retry-After. The 5-failure lock-out of an account
// (modules/auth) is separate and unchanged. The device intake has its own limits (ingest/).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { API } from '@iotc/shared/auth';
import { ACCOUNT_API } from '@iotc/shared/account';
import type { ErrorCode } from '@iotc/shared/errors';
import type { RateLimits } from '../config.ts';
import { AppError } from '../lib/errors.ts';

export const RATE_WINDOW_MS = 60_000;

/** Checks one key against one limit; throws the 429 (with Retry-After) when it is exceeded. */
export type RateCheck = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A limit of `max` requests per minute named `name`; each route gives it its key (null: not
     * counted). Routes using one limit share its counters, so a key's requests add up across them.
     */
    rateLimitOf(name: string, max: number, code?: ErrorCode): (keyOf: (req: FastifyRequest) => string | null) => RateCheck;
  }
}

const field = (source: unknown, name: string): string | null => {
  const v = (source as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' && v.trim() ? v.trim().toLowerCase() : null;
};
const body = (name: string) => (req: FastifyRequest) => field(req.body, name);
const clientIp = (req: FastifyRequest) => req.ip;

export const rateLimitPlugin = fp(async (app: FastifyInstance, opts: { limits: RateLimits; redisUrl?: string }) => {
  // A Redis that does not answer within half a second lets the request through (logged): a
  // limit must not take the sign-in down with it.
  const redis = opts.redisUrl ? new Redis(opts.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 500, connectionName: 'iotc-rate-limit' }) : undefined;
  redis?.on('error', (err: Error) => app.log.warn({ err: err.message }, 'rate-limit Redis error'));
  // disconnect, not quit: a quit waits for a Redis that may be away.
  if (redis) app.addHook('onClose', async () => redis.disconnect());
  await app.register(rateLimit, { global: false, redis, nameSpace: 'iotc:rate:', skipOnError: true });

  // The key of the check under way: createRateLimit takes its key from the request.
  const keys = new WeakMap<FastifyRequest, string>();
  app.decorate('rateLimitOf', (name: string, max: number, code: ErrorCode = 'RATE_LIMITED') => {
    // One store per limit (in memory: up to 100,000 keys, least recently used dropped first).
    const limit = app.createRateLimit({ max, timeWindow: RATE_WINDOW_MS, cache: 100_000, keyGenerator: (req) => `${name}:${keys.get(req)}` } as Parameters<typeof app.createRateLimit>[0]);
    return (keyOf: (req: FastifyRequest) => string | null): RateCheck =>
      async (req, reply) => {
        const key = keyOf(req);
        if (key === null) return;
        keys.set(req, key);
        const r = await limit(req);
        if (r.isAllowed || !r.isExceeded) return;
        reply.header('retry-after', String(Math.max(1, r.ttlInSeconds)));
        throw new AppError(429, code);
      };
  });

  const l = opts.limits;
  const signIn = app.rateLimitOf('signin-ip', l.loginPerIp);
  const signInIp = signIn(clientIp);
  const signInAccount = app.rateLimitOf('signin-account', l.loginPerAccount);
  const codeIp = app.rateLimitOf('code-ip', l.codePerIp)(clientIp);
  const codeTarget = app.rateLimitOf('code-target', l.codePerTarget);
  /** A retrieval code's target: the account's address on the chosen channel. */
  const accountChannel = (req: FastifyRequest) => {
    const account = field(req.body, 'account');
    return account ? `${account}/${field(req.body, 'channel') ?? 'email'}` : null;
  };

  // Per address before the body is read; per account or target once it has been checked.
  const routes: Record<string, { ip: RateCheck; target?: RateCheck }> = {
    [`POST ${API.login}`]: { ip: signInIp, target: signInAccount(body('account')) },
    [`POST ${API.resetPassword}`]: { ip: signInIp, target: signInAccount(body('account')) },
    [`GET ${ACCOUNT_API.bindUser}`]: { ip: signInIp, target: signInAccount((req) => field(req.query, 'userCode')) },
    [`POST ${API.captchas}`]: { ip: codeIp },
    [`POST ${ACCOUNT_API.register}`]: { ip: codeIp, target: codeTarget(body('email')) },
    [`POST ${ACCOUNT_API.sysUserModel}`]: { ip: codeIp },
    [`POST ${ACCOUNT_API.sendMail}`]: { ip: codeIp, target: codeTarget(accountChannel) },
    [`POST ${ACCOUNT_API.mailVerify}`]: { ip: codeIp, target: codeTarget(accountChannel) },
    [`POST ${ACCOUNT_API.forgot}`]: { ip: codeIp, target: codeTarget(body('account')) },
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const limits = methods.map((m) => routes[`${m} ${route.url}`]).find(Boolean);
    if (!limits) return;
    route.onRequest = [limits.ip as onRequestHookHandler, ...[route.onRequest ?? []].flat()];
    if (limits.target) route.preHandler = [limits.target as preHandlerHookHandler, ...[route.preHandler ?? []].flat()];
  });
});

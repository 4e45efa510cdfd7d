// Authentication by the `access_token` header: resolves the session, slides it, and puts the
// caller (user and organisation) on the request. Routes opt in with `preHandler: app.authenticate`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Permission } from '@iotc/shared/platform';
import { AppError } from '../lib/errors.ts';
import type { Caller, ClientMeta, Sessions } from '../lib/caller.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    /** The raw token of this request, when one was sent. */
    accessToken: string | null;
  }
  interface FastifyInstance {
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Like authenticate when a token is sent; without one the caller stays null. */
    authenticateIfToken: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Authenticates, then answers 403 'No permission' unless the caller's roles grant the action. */
    requirePermission: (permission: Permission) => (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/**
 * What a preHandler asks of the caller, for the OpenAPI document (plugins/openapi.ts): a session
 * (required, or only checked when a token is sent) and whether it may refuse with 403.
 */
export interface Guard {
  session: 'required' | 'optional';
  permission?: boolean;
}
const guards = new WeakMap<object, Guard>();
/** The guard a preHandler stands for, when it is one of these (or marked with sessionGuard). */
export const guardOf = (fn: unknown): Guard | undefined => (typeof fn === 'function' ? guards.get(fn) : undefined);
/** Marks a route's own preHandler that authenticates and may answer 403, so the document says so. */
export function sessionGuard<T extends object>(fn: T): T {
  guards.set(fn, { session: 'required', permission: true });
  return fn;
}

export const authPlugin = fp(async (app: FastifyInstance, opts: { auth: Sessions }) => {
  app.decorateRequest('caller', null);
  app.decorateRequest('accessToken', null);
  const tokenOf = (req: FastifyRequest) => {
    const raw = req.headers['access_token'];
    return (Array.isArray(raw) ? raw[0] : raw)?.trim();
  };
  const authenticate = async (req: FastifyRequest) => {
    const token = tokenOf(req);
    if (!token) throw new AppError(401, 'TOKEN_INVALID');
    const caller = await opts.auth.authenticate(token);
    if (!caller) throw new AppError(401, 'TOKEN_INVALID');
    req.caller = caller;
    req.accessToken = token;
  };
  guards.set(authenticate, { session: 'required' });
  app.decorate('authenticate', authenticate);
  app.decorate('requirePermission', (permission: Permission) =>
    sessionGuard(async (req: FastifyRequest) => {
      await authenticate(req);
      if (!req.caller!.permissions.includes(permission)) throw new AppError(403, 'NO_PERMISSION');
    }),
  );
  const ifToken = async (req: FastifyRequest) => {
    if (tokenOf(req)) await authenticate(req);
  };
  guards.set(ifToken, { session: 'optional' });
  app.decorate('authenticateIfToken', ifToken);
});

/** The caller of an authenticated route. */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw new AppError(401, 'TOKEN_INVALID');
  return req.caller;
}

export function clientOf(req: FastifyRequest): ClientMeta {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 300) : null };
}

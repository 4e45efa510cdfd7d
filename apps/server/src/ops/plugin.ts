// Operations endpoints and the per-request hook: GET /healthz (liveness), GET /readyz
// (readiness: the database and the registered checks; 503 while draining), GET /metrics
// (Prometheus text; a bearer token when METRICS_TOKEN is set, else to this machine only), and the
// HTTP duration histogram.
// None needs a user's token; all are left out of the OpenAPI document (they are not the product's
// API). Registered right after the error handler, so its hook sees every route.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { AppError } from '../lib/errors.ts';
import { healthChecks, OPS_PATHS, type Health } from './health.ts';
import type { AppMetrics } from './metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Readiness checks and draining: `addCheck(name, check)`, `setDraining()`, `draining`. */
    health: Health;
  }
}

/** Headers a proxy adds: a request with one came from elsewhere, whatever its connection's address. */
const FORWARDED = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;
const isLoopback = (address: string | undefined) => !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));

const digest = (s: string) => createHash('sha256').update(s).digest();

export const opsPlugin = fp(async (app: FastifyInstance, opts: { database: Database; metrics: AppMetrics; metricsToken?: string }) => {
  const health = healthChecks();
  app.decorate('health', health);
  health.addCheck('database', async () => {
    await opts.database.db.execute(sql`select 1`);
  });

  app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    opts.metrics.request(req.method, req.routeOptions.url ?? 'none', reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get(OPS_PATHS.health, { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get(OPS_PATHS.ready, { schema: { hide: true } }, async (req, reply) => {
    const r = await health.run();
    for (const [name, c] of Object.entries(r.checks)) if (!c.ok) req.log.warn({ check: name, error: c.error }, 'readiness check failed');
    return reply.status(r.status === 'ready' ? 200 : 503).send(r);
  });

  const expected = opts.metricsToken ? digest(opts.metricsToken) : undefined;
  app.get(OPS_PATHS.metrics, { schema: { hide: true } }, async (req, reply) => {
    // Without a token, this machine only: the connection's own address (not X-Forwarded-For)
    // is a loopback one, and it came through no proxy.
    if (!expected && !(isLoopback(req.socket.remoteAddress) && !FORWARDED.some((h) => req.headers[h] !== undefined))) {
      throw new AppError(403, 'METRICS_LOCAL_ONLY');
    }
    if (expected) {
      const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
      if (!m || !timingSafeEqual(digest(m[1]!), expected)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError(401, 'METRICS_TOKEN_REQUIRED');
      }
    }
    return reply.header('content-type', opts.metrics.contentType).header('cache-control', 'no-store').send(await opts.metrics.render());
  });
});

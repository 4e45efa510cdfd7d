// Retention: the organisations' rules and legal holds (routes.ts), and the job that removes what
// the rules no longer keep unless a hold covers it (job.ts); at start and every RETENTION_SECONDS
// (0: not on this node).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { retentionTick } from './job.ts';
import { retentionRepo } from './repo.ts';
import { retentionRoutes } from './routes.ts';
import { retentionService } from './service.ts';

export const retentionPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  app.job('retention', { everyMs: ctx.config.retentionMs, atStart: true }, async () => {
    const r = await retentionTick(db, { audit: ctx.audit });
    if (r.rowsRemoved || r.packReadingsRemoved) app.log.info(r, 'retention removed readings');
  });
  await app.register(retentionRoutes, { service: retentionService(db, retentionRepo(db), ctx.audit) });
});

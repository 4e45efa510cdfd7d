// Scheduled reports: each due run is claimed by one node's tick and mailed with its file, made by
// the report services (the report module's, given as `reports`).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { reportMakers } from './makers.ts';
import { reportScheduleRoutes } from './routes.ts';
import { reportScheduler, type ReportScheduler } from './runner.ts';
import { scheduleService } from './schedules.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Scheduled reports: the tick sends the due ones (one node per run). */
    reportScheduler: ReportScheduler;
  }
}

export const reportSchedulePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext & { reports: Parameters<typeof reportMakers>[0] }) => {
  const db = ctx.database.db;
  const scheduler = reportScheduler(db, { log: app.log, messenger: ctx.messenger, permissionsOf: ctx.permissionsOf, makers: reportMakers(ctx.reports) });
  app.decorate('reportScheduler', scheduler);
  await app.register(reportScheduleRoutes, { schedules: scheduleService(db, { audit: ctx.audit, scheduler, permissionsOf: ctx.permissionsOf }) });
  const tick = app.job('scheduled reports', { everyMs: 60_000 }, () => scheduler.tick());
  app.addHook('onClose', async () => {
    await tick.stop();
    await scheduler.settled();
  });
});

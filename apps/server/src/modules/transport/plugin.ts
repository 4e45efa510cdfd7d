// Transport's module: the task service and templates with their routes, and the recogniser that
// starts and ends tasks from the stored readings (it moves them through the task service). A task's
// own policy and push rule change like any: the engine and the push reload, ended alarms go out.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { alarmsByIds } from '../alarm/records.ts';
import { publishingTaskChanges } from './live.ts';
import { taskRecognizer, type TaskRecognizer } from './recognizer.ts';
import { transportRoutes } from './routes.ts';
import { routingService } from './routing.ts';
import { transportTaskService, type TransportTaskService } from './service.ts';
import { templateService, type TemplateService } from './templates.ts';
import { trackingRoutes } from './tracking-routes.ts';
import { trackingService } from './tracking.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Transport tasks; the recogniser moves them through `recognised`. */
    transportTasks: TransportTaskService;
    /** Automatic start and arrival of transport tasks from the stored readings. */
    taskRecognizer: TaskRecognizer;
    transportTemplates: TemplateService;
  }
}

export const transportPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  // Every write that changes a task also goes to the browsers' live channel (topic `tasks`).
  const service = transportTaskService(db, {
    audit: ctx.audit,
    onTaskChange: () => ctx.invalidate('transport-tasks'),
    onPolicyChange: (ended) => {
      ctx.invalidate('alarm-policies');
      void alarmsByIds(db, ended).then(ctx.publishAlarms, (err: unknown) => app.log.warn({ err }, 'alarm push failed'));
    },
    onPushRuleChange: () => ctx.invalidate('push-rules'),
  });
  const tasks = publishingTaskChanges(service, db, (changes) => ctx.bus.publish({ type: 'task-changes', changes }), app.log);
  app.decorate('transportTasks', tasks);
  const templates = templateService(db, { audit: ctx.audit });
  app.decorate('transportTemplates', templates);
  await app.register(transportRoutes, { tasks, templates, routing: routingService({ url: ctx.config.routingUrl, log: app.log }) });
  // Consignee tracking links: public, read-only, expiring and revocable.
  await app.register(trackingRoutes, { tracking: trackingService(db, { audit: ctx.audit, publicUrl: ctx.config.publicUrl, map: () => app.mapTiles.current() }) });

  // Tasks start and arrive from what the intake stores.
  const recognizer = taskRecognizer(db, { log: app.log, move: (id, to, at) => tasks.recognised(id, to, at) });
  app.decorate('taskRecognizer', recognizer);
  ctx.storedReadings.stored.subscribe(({ readings }) => recognizer.stored(readings));
  ctx.onInvalidate('transport-tasks', () => recognizer.invalidate());
  app.addHook('onClose', async () => recognizer.settled());
});

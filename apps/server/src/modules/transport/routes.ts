// The transport-tasks and transport-templates resources of DESIGN.md: tasks (query, status
// counts, monitor, export, import template and import, create, one, change, move, copy, hand
// over, the story) and templates (query, create, one, change, delete). Reading needs transport:read;
// every change transport:write. Also the road route between points from the routing service
// (ROUTING_URL), asked while a task or a template is edited.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { importResultSchema } from '@iotc/shared/asset';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema, pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import {
  roadRouteBodySchema,
  roadRouteSchema,
  routingConfigSchema,
  taskBodySchema,
  taskCountsSchema,
  taskDetailSchema,
  taskEventRowSchema,
  taskHandoverSchema,
  taskMonitorQuerySchema,
  taskQuerySchema,
  taskRowSchema,
  taskTransitionSchema,
  templateBodySchema,
  templateQuerySchema,
  templateRowSchema,
  TRANSPORT_API,
} from '@iotc/shared/transport';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import type { TransportTaskService } from './service.ts';
import type { TemplateService } from './templates.ts';
import { routingService, type RoutingService } from './routing.ts';

export interface TransportRoutesOptions {
  tasks: TransportTaskService;
  templates: TemplateService;
  /** The road-route service (routingService({ url: config.routingUrl })); none configured when absent. */
  routing?: RoutingService;
}

export const transportRoutes: FastifyPluginAsyncZod<TransportRoutesOptions> = async (app, { tasks, templates, routing = routingService({ log: app.log }) }) => {
  const read = { preHandler: app.requirePermission('transport:read') };
  const write = { preHandler: app.requirePermission('transport:write') };

  {
    const base = TRANSPORT_API.tasks;
    const one = `${base}/:id`;
    const tags = ['transport tasks'];
    const detail = { 200: envelopeSchema(taskDetailSchema) };
    const filters = taskQuerySchema.omit({ page: true, size: true, sort: true, status: true });

    app.get(base, { schema: { tags, summary: 'Task query (status tabs include abnormal)', querystring: taskQuerySchema, response: { 200: envelopeSchema(pageSchema(taskRowSchema)) } }, ...read }, async (req) =>
      ok(await tasks.list(callerOf(req), req.query)),
    );
    app.get(`${base}/counts`, { schema: { tags, summary: 'Tasks per status tab for the same filters', querystring: filters, response: { 200: envelopeSchema(taskCountsSchema) } }, ...read }, async (req) =>
      ok(await tasks.counts(callerOf(req), req.query)),
    );
    app.get(
      TRANSPORT_API.monitor,
      { schema: { tags, summary: 'Tasks in transit or arrived with where they are now, abnormal first', querystring: taskMonitorQuerySchema, response: { 200: envelopeSchema(z.array(taskDetailSchema)) } }, ...read },
      async (req) => ok(await tasks.monitor(callerOf(req), req.query)),
    );
    app.get(`${base}/export`, { schema: { tags, summary: 'The query as CSV or Excel, in the request language and time zone', querystring: taskQuerySchema.extend({ format: exportFormatSchema.default('xlsx') }) }, ...read }, async (req, reply) => {
      const file = await tasks.export(callerOf(req), req.query, req.query.format, req.lang, requestTimezone(req));
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    });
    app.get(`${base}/import-template`, { schema: { tags, summary: 'An empty import sheet with the header row in the request language' }, ...read }, async (req, reply) => {
      const file = await tasks.importTemplate(req.lang);
      return reply.header('content-type', XLSX_TYPE).header('content-disposition', contentDisposition('transport-tasks-template.xlsx')).send(file);
    });
    app.post(
      `${base}/import`,
      { schema: { tags, summary: 'Import an .xlsx sheet (times in the request time zone): all rows or, with any error, none', response: { 200: envelopeSchema(importResultSchema) } }, ...write },
      async (req) => ok(await tasks.import(callerOf(req), req.body as Buffer, req.lang, requestTimezone(req), clientOf(req))),
    );
    app.post(base, { schema: { tags, summary: 'Create a pending task', body: taskBodySchema, response: detail }, ...write }, async (req) =>
      ok(await tasks.create(callerOf(req), req.body, clientOf(req))),
    );
    app.get(one, { schema: { tags, summary: 'One task with where it is now', params: idParamsSchema, response: detail }, ...read }, async (req) => ok(await tasks.get(callerOf(req), req.params.id)));
    app.put(one, { schema: { tags, summary: 'Change a task that is not completed or cancelled', params: idParamsSchema, body: taskBodySchema, response: detail }, ...write }, async (req) =>
      ok(await tasks.update(callerOf(req), req.params.id, req.body, clientOf(req))),
    );
    app.post(`${one}/transition`, { schema: { tags, summary: 'Move to another status by hand (cancelling needs a reason)', params: idParamsSchema, body: taskTransitionSchema, response: detail }, ...write }, async (req) =>
      ok(await tasks.transition(callerOf(req), req.params.id, req.body, clientOf(req))),
    );
    app.post(
      `${one}/handover`,
      { schema: { tags, summary: 'Record that the goods changed hands (in transit or arrived only)', params: idParamsSchema, body: taskHandoverSchema, response: detail }, ...write },
      async (req) => ok(await tasks.handover(callerOf(req), req.params.id, req.body, clientOf(req))),
    );
    app.post(`${one}/copy`, { schema: { tags, summary: 'A new pending task with the same settings and devices', params: idParamsSchema, response: detail }, ...write }, async (req) =>
      ok(await tasks.copy(callerOf(req), req.params.id, clientOf(req))),
    );
    app.get(`${one}/events`, { schema: { tags, summary: 'Its story, oldest first', params: idParamsSchema, response: { 200: envelopeSchema(z.array(taskEventRowSchema)) } }, ...read }, async (req) =>
      ok(await tasks.events(callerOf(req), req.params.id)),
    );
  }

  {
    const base = TRANSPORT_API.templates;
    const one = `${base}/:id`;
    const tags = ['transport templates'];
    const row = { 200: envelopeSchema(templateRowSchema) };
    app.get(base, { schema: { tags, summary: 'Template query', querystring: templateQuerySchema, response: { 200: envelopeSchema(pageSchema(templateRowSchema)) } }, ...read }, async (req) =>
      ok(await templates.list(callerOf(req), req.query)),
    );
    app.post(base, { schema: { tags, summary: 'Create a template', body: templateBodySchema, response: row }, ...write }, async (req) => ok(await templates.create(callerOf(req), req.body, clientOf(req))));
    app.get(one, { schema: { tags, summary: 'One template', params: idParamsSchema, response: row }, ...read }, async (req) => ok(await templates.get(callerOf(req), req.params.id)));
    app.put(one, { schema: { tags, summary: 'Change a template (tasks made from it keep their settings)', params: idParamsSchema, body: templateBodySchema, response: row }, ...write }, async (req) =>
      ok(await templates.update(callerOf(req), req.params.id, req.body, clientOf(req))),
    );
    app.delete(one, { schema: { tags, summary: 'Delete a template (tasks made from it keep their settings)', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, ...write }, async (req) => {
      await templates.remove(callerOf(req), req.params.id, clientOf(req));
      return ok(null);
    });
  }

  {
    const tags = ['transport routes'];
    app.get(TRANSPORT_API.routingConfig, { schema: { tags, summary: 'Whether a routing service is configured', response: { 200: envelopeSchema(routingConfigSchema) } }, ...read }, async () =>
      ok({ enabled: routing.enabled }),
    );
    app.post(
      TRANSPORT_API.roadRoute,
      { schema: { tags, summary: 'The road route through origin, via points and destination ([lat, lon]) from the routing service', body: roadRouteBodySchema, response: { 200: envelopeSchema(roadRouteSchema) } }, ...write },
      async (req) => ok(await routing.route(req.body.points)),
    );
  }
};

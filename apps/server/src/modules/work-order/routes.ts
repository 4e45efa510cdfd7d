// The work-orders resource of DESIGN.md (query, export, create, one with its alarms, change,
// move through the statuses, comment, gather alarms, the story) and the assignees a handler may
// pick. Reading needs alarm:read; every change, and the assignees, alarm:handle.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commentBodySchema } from '@iotc/shared/alarm';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema, pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import {
  assigneeQuerySchema,
  assigneeRowSchema,
  linkAlarmsSchema,
  WORK_ORDER_API,
  workOrderCreateSchema,
  workOrderDetailSchema,
  workOrderEventRowSchema,
  workOrderQuerySchema,
  workOrderRowSchema,
  workOrderTransitionSchema,
  workOrderUpdateSchema,
} from '@iotc/shared/work-order';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import type { WorkOrderService } from './service.ts';

export const workOrderRoutes: FastifyPluginAsyncZod<{ workOrders: WorkOrderService }> = async (app, { workOrders }) => {
  const read = { preHandler: app.requirePermission('alarm:read') };
  const handle = { preHandler: app.requirePermission('alarm:handle') };
  const base = WORK_ORDER_API.workOrders;
  const one = `${base}/:id`;
  const tags = ['work orders'];
  const detail = { 200: envelopeSchema(workOrderDetailSchema) };
  const story = { 200: envelopeSchema(z.array(workOrderEventRowSchema)) };

  app.get(base, { schema: { tags, summary: 'Work order query', querystring: workOrderQuerySchema, response: { 200: envelopeSchema(pageSchema(workOrderRowSchema)) } }, ...read }, async (req) =>
    ok(await workOrders.list(callerOf(req), req.query)),
  );
  app.get(`${base}/export`, { schema: { tags, summary: 'The query as CSV or Excel, in the request language and time zone', querystring: workOrderQuerySchema.extend({ format: exportFormatSchema.default('xlsx') }) }, ...read }, async (req, reply) => {
    const file = await workOrders.export(callerOf(req), req.query, req.query.format, req.lang, requestTimezone(req));
    return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
  });
  app.post(base, { schema: { tags, summary: 'Open a work order by hand or from alarms of one organisation', body: workOrderCreateSchema, response: detail }, ...handle }, async (req) =>
    ok(await workOrders.create(callerOf(req), req.body, clientOf(req))),
  );
  app.get(one, { schema: { tags, summary: 'One work order with its alarms', params: idParamsSchema, response: detail }, ...read }, async (req) => ok(await workOrders.get(callerOf(req), req.params.id)));
  app.put(one, { schema: { tags, summary: 'Change title, description, priority, assignee and due time', params: idParamsSchema, body: workOrderUpdateSchema, response: detail }, ...handle }, async (req) =>
    ok(await workOrders.update(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.post(`${one}/transition`, { schema: { tags, summary: 'Move to another status (resolving needs a note; closing is signed with the password again and is final)', params: idParamsSchema, body: workOrderTransitionSchema, response: detail }, ...handle }, async (req) =>
    ok(await workOrders.transition(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.post(`${one}/comments`, { schema: { tags, summary: 'Add a comment to the story; answers the story', params: idParamsSchema, body: commentBodySchema, response: story }, ...handle }, async (req) =>
    ok(await workOrders.comment(callerOf(req), req.params.id, req.body.text, clientOf(req))),
  );
  app.post(`${one}/alarms`, { schema: { tags, summary: "Add alarms of the order's organisation", params: idParamsSchema, body: linkAlarmsSchema, response: detail }, ...handle }, async (req) =>
    ok(await workOrders.link(callerOf(req), req.params.id, req.body.alarmIds, clientOf(req))),
  );
  app.get(`${one}/events`, { schema: { tags, summary: 'Its story, oldest first', params: idParamsSchema, response: story }, ...read }, async (req) => ok(await workOrders.events(callerOf(req), req.params.id)));

  app.get(
    WORK_ORDER_API.assignees,
    { schema: { tags: ['assignees'], summary: 'Active users of the organisation tree an alarm or a work order may be given to', querystring: assigneeQuerySchema, response: { 200: envelopeSchema(z.array(assigneeRowSchema)) } }, ...handle },
    async (req) => ok(await workOrders.assignees(callerOf(req), req.query)),
  );
};

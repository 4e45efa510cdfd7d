// The report-schedules resource: list, create, one, change, delete, enable, disable, "send now"
// (`POST /:id/run`) and the run history (`GET /:id/runs`). Everything needs report:schedule,
// reading too: a schedule lists its recipients' addresses.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { listQuerySchema, pageSchema } from '@iotc/shared/list';
import { OPS_REPORT_API, scheduleBodySchema, scheduleRowSchema, scheduleRunSchema } from '@iotc/shared/ops-report';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { scheduleQuerySchema, type ScheduleService } from './schedules.ts';

export const reportScheduleRoutes: FastifyPluginAsyncZod<{ schedules: ScheduleService }> = async (app, { schedules }) => {
  const allowed = { preHandler: app.requirePermission('report:schedule') };
  const base = OPS_REPORT_API.schedules;
  const one = `${base}/:id`;
  const tags = ['report schedules'];
  const row = { 200: envelopeSchema(scheduleRowSchema) };

  app.get(base, { schema: { tags, summary: 'Scheduled reports', querystring: scheduleQuerySchema, response: { 200: envelopeSchema(pageSchema(scheduleRowSchema)) } }, ...allowed }, async (req) =>
    ok(await schedules.list(callerOf(req), req.query)),
  );
  app.post(base, { schema: { tags, summary: 'Create a scheduled report', body: scheduleBodySchema, response: row }, ...allowed }, async (req) =>
    ok(await schedules.create(callerOf(req), req.body, clientOf(req))),
  );
  app.get(one, { schema: { tags, summary: 'One scheduled report', params: idParamsSchema, response: row }, ...allowed }, async (req) => ok(await schedules.get(callerOf(req), req.params.id)));
  app.put(one, { schema: { tags, summary: 'Change a scheduled report', params: idParamsSchema, body: scheduleBodySchema, response: row }, ...allowed }, async (req) =>
    ok(await schedules.update(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.delete(one, { schema: { tags, summary: 'Delete a scheduled report and its run history', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, ...allowed }, async (req) =>
    ok(await schedules.remove(callerOf(req), req.params.id, clientOf(req)).then(() => null)),
  );
  app.post(`${one}/enable`, { schema: { tags, summary: 'Enable (the next slot after now)', params: idParamsSchema, response: row }, ...allowed }, async (req) =>
    ok(await schedules.setEnabled(callerOf(req), req.params.id, true, clientOf(req))),
  );
  app.post(`${one}/disable`, { schema: { tags, summary: 'Disable', params: idParamsSchema, response: row }, ...allowed }, async (req) =>
    ok(await schedules.setEnabled(callerOf(req), req.params.id, false, clientOf(req))),
  );
  app.post(
    `${one}/run`,
    { schema: { tags, summary: 'Send now: the last whole period to every recipient, recorded as a manual run', params: idParamsSchema, response: { 200: envelopeSchema(scheduleRunSchema) } }, ...allowed },
    async (req) => ok(await schedules.run(callerOf(req), req.params.id, clientOf(req))),
  );
  app.get(
    `${one}/runs`,
    { schema: { tags, summary: 'The run history, newest first', params: idParamsSchema, querystring: listQuerySchema.omit({ sort: true }), response: { 200: envelopeSchema(pageSchema(scheduleRunSchema)) } }, ...allowed },
    async (req) => ok(await schedules.runs(callerOf(req), req.params.id, req.query)),
  );
};

// The faults resource of DESIGN.md: the query, its export and its counts by kind and status, one
// fault with its repair records, and recording a repair. Reading needs device:read; recording a
// repair fault:handle.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FAULT_API, faultDetailSchema, faultQuerySchema, faultRowSchema, faultStatsSchema, repairBodySchema } from '@iotc/shared/fault';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema, pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import type { FaultService } from './service.ts';

export const faultRoutes: FastifyPluginAsyncZod<{ faults: FaultService }> = async (app, { faults }) => {
  const read = { preHandler: app.requirePermission('device:read') };
  const handle = { preHandler: app.requirePermission('fault:handle') };
  const base = FAULT_API.faults;
  const one = `${base}/:id`;
  const tags = ['faults'];
  const detail = { 200: envelopeSchema(faultDetailSchema) };

  app.get(base, { schema: { tags, summary: 'Device faults (sort lastAt, firstAt or count; newest last seen first)', querystring: faultQuerySchema, response: { 200: envelopeSchema(pageSchema(faultRowSchema)) } }, ...read }, async (req) =>
    ok(await faults.list(callerOf(req), req.query)),
  );
  app.get(
    `${base}/export`,
    { schema: { tags, summary: 'The query as CSV or Excel, in the request language and time zone', querystring: faultQuerySchema.extend({ format: exportFormatSchema.default('xlsx') }) }, ...read },
    async (req, reply) => {
      const file = await faults.export(callerOf(req), req.query, req.query.format, req.lang, requestTimezone(req));
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
  app.get(
    `${base}/stats`,
    { schema: { tags, summary: 'How many faults of each kind and status the filters match', querystring: faultQuerySchema.omit({ page: true, size: true, sort: true }), response: { 200: envelopeSchema(faultStatsSchema) } }, ...read },
    async (req) => ok(await faults.stats(callerOf(req), req.query)),
  );
  app.get(one, { schema: { tags, summary: 'One fault with its repair records, oldest first', params: idParamsSchema, response: detail }, ...read }, async (req) =>
    ok(await faults.get(callerOf(req), req.params.id)),
  );
  app.post(
    `${one}/repairs`,
    { schema: { tags, summary: 'Record a repair: in_progress puts the fault under repair, any other result resolves it', params: idParamsSchema, body: repairBodySchema, response: detail }, ...handle },
    async (req) => ok(await faults.repair(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
};

// The comparison resource: GET /api/iot/v2/compare answers the chosen targets' metric over two
// periods, /compare/export the same as Excel or CSV, /compare/routes the route keys for the
// picker. Warehouses and vehicles need device:read, routes transport:read.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COMPARE_API, COMPARE_PERMISSION, compareAnswerSchema, compareQuerySchema, compareRoutesSchema, type CompareKind } from '@iotc/shared/compare';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema } from '@iotc/shared/list';
import type { FastifyRequest } from 'fastify';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { AppError } from '../../lib/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import type { CompareService } from './service.ts';

export const compareRoutes: FastifyPluginAsyncZod<{ compare: CompareService }> = async (app, { compare }) => {
  const tags = ['compare'];
  /** The caller, when its roles may read this kind of target. */
  const allowed = async (req: FastifyRequest, kind: CompareKind) => {
    const caller = callerOf(req);
    if (!caller.permissions.includes(COMPARE_PERMISSION[kind])) throw new AppError(403, 'NO_PERMISSION');
    return caller;
  };
  app.get(
    COMPARE_API.compare,
    {
      schema: { tags, summary: 'Two to six warehouses, vehicles or routes on one metric over two periods', querystring: compareQuerySchema, response: { 200: envelopeSchema(compareAnswerSchema) } },
      preHandler: app.authenticate,
    },
    async (req) => ok(await compare.compare(await allowed(req, req.query.kind), req.query)),
  );
  app.get(
    COMPARE_API.export,
    { schema: { tags, summary: 'The comparison as Excel or CSV', querystring: compareQuerySchema.extend({ format: exportFormatSchema.default('xlsx') }) }, preHandler: app.authenticate },
    async (req, reply) => {
      const file = await compare.export(await allowed(req, req.query.kind), req.query, req.query.format, req.lang, requestTimezone(req));
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
  app.get(
    COMPARE_API.routes,
    { schema: { tags, summary: 'The route keys (origin → destination) of the caller’s transport tasks', response: { 200: envelopeSchema(compareRoutesSchema) } }, preHandler: app.requirePermission('transport:read') },
    async (req) => ok(await compare.routes(callerOf(req))),
  );
};

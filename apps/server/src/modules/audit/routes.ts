// GET /api/iot/v2/audit-logs (the list contract) and its export to CSV or Excel.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditLogQuerySchema, auditLogRowSchema } from '@iotc/shared/audit';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema, pageSchema } from '@iotc/shared/list';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import type { AuditService } from './service.ts';

export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '/api/iot/v2/audit-logs',
    {
      schema: {
        tags: ['audit'],
        summary: "Sign-ins and other recorded actions of the caller's organisation tree",
        querystring: auditLogQuerySchema,
        response: { 200: envelopeSchema(pageSchema(auditLogRowSchema)) },
      },
      preHandler: app.requirePermission('audit:read'),
    },
    async (req) => ok(await audit.list(callerOf(req), req.query)),
  );

  app.get(
    '/api/iot/v2/audit-logs/export',
    {
      schema: {
        tags: ['audit'],
        summary: 'The same query as a CSV or Excel file, in the request language and time zone',
        querystring: auditLogQuerySchema.extend({ format: exportFormatSchema.default('xlsx') }),
      },
      preHandler: app.requirePermission('audit:export'),
    },
    async (req, reply) => {
      const file = await audit.export(
        callerOf(req),
        req.query,
        req.query.format,
        req.lang,
        requestTimezone(req),
      );
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.filename))
        .send(file.body);
    },
  );
};

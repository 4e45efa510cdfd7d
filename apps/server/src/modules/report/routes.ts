// The reports resource of DESIGN.md for the transport scenario: a task's shipment report (JSON
// for the screen, a PDF in the request's language and time zone, Excel with the raw readings)
// and the production reports with their export (reading needs transport:read); the GSP
// temperature and humidity record of an asset (gsp.ts; needs device:read).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema } from '@iotc/shared/list';
import { productionQuerySchema, productionReportSchema, shipmentQuerySchema, shipmentReportSchema } from '@iotc/shared/report';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import { gspReportQuerySchema, gspReportSchema } from '@iotc/shared/gsp-report';
import type { GspService } from './gsp.ts';
import type { ProductionService } from './production.ts';
import type { ShipmentService } from './shipment.ts';

export const reportRoutes: FastifyPluginAsyncZod<{ shipments: ShipmentService; production: ProductionService; gsp: GspService }> = async (app, { shipments, production, gsp }) => {
  const read = { preHandler: app.requirePermission('transport:read') };
  const tags = ['reports'];
  app.get(
    '/api/iot/v2/reports/shipment/:taskId',
    {
      schema: {
        tags,
        summary: "A task's shipment report: JSON, or a PDF / Excel file (format) in the request language and time zone",
        params: z.object({ taskId: z.uuid() }),
        querystring: shipmentQuerySchema,
      },
      ...read,
    },
    async (req, reply) => {
      const caller = callerOf(req);
      if (req.query.format === 'json') return reply.send(ok(shipmentReportSchema.parse(await shipments.report(caller, req.params.taskId, req.lang))));
      const file = await shipments.file(caller, req.params.taskId, req.query.format, req.lang, requestTimezone(req));
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
  app.get(
    '/api/iot/v2/reports/production',
    { schema: { tags, summary: 'Tasks per period, customer, route or vehicle: deliveries, on-time rate, alarm rate', querystring: productionQuerySchema, response: { 200: envelopeSchema(productionReportSchema) } }, ...read },
    async (req) => ok(await production.report(callerOf(req), req.query, requestTimezone(req))),
  );
  app.get(
    '/api/iot/v2/reports/production/export',
    { schema: { tags, summary: 'The production report as CSV or Excel', querystring: productionQuerySchema.extend({ format: exportFormatSchema.default('xlsx') }) }, ...read },
    async (req, reply) => {
      const file = await production.export(callerOf(req), req.query, req.query.format, req.lang, requestTimezone(req));
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
  app.get(
    '/api/iot/v2/reports/temperature',
    {
      schema: {
        tags,
        summary: 'GSP temperature and humidity record of a cold room, refrigerator, warehouse, vehicle or container for a local day or month: JSON, or a PDF / Excel file (format)',
        querystring: gspReportQuerySchema,
      },
      preHandler: app.requirePermission('device:read'),
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const tz = requestTimezone(req);
      if (req.query.format === 'json') return reply.send(ok(gspReportSchema.parse(await gsp.report(caller, req.query, tz))));
      const file = await gsp.file(caller, req.query, req.query.format, req.lang, tz);
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
};

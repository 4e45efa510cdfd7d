// The reports resource of DESIGN.md for the transport scenario: a task's shipment report (JSON
// for the screen, a PDF in the request's language and time zone, Excel with the raw readings)
// and the production reports with their export (reading needs transport:read); the GSP
// temperature and humidity record of an asset (gsp.ts; needs device:read); the operations reports
// of a day, week or month: alarms (alarm-report.ts; alarm:read), device online rate (online.ts)
// and mileage (mileage.ts; both device:read).
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
import {
  alarmReportQuerySchema,
  alarmReportSchema,
  mileageReportQuerySchema,
  mileageReportSchema,
  onlineReportQuerySchema,
  onlineReportSchema,
  OPS_REPORT_API,
} from '@iotc/shared/ops-report';
import type { AlarmReportService } from './alarm-report.ts';
import type { MileageReportService } from './mileage.ts';
import type { OnlineReportService } from './online.ts';

export interface ReportServices {
  shipments: ShipmentService;
  production: ProductionService;
  gsp: GspService;
  alarmReports: AlarmReportService;
  onlineReports: OnlineReportService;
  mileageReports: MileageReportService;
}

export const reportRoutes: FastifyPluginAsyncZod<ReportServices> = async (app, { shipments, production, gsp, alarmReports, onlineReports, mileageReports }) => {
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
  const period = 'for the local day, ISO week (from Monday) or month holding `date`, in the request time zone';
  app.get(
    OPS_REPORT_API.alarm,
    {
      schema: { tags, summary: `Alarm report ${period}: alarms started, by asset, device, type or level; JSON, or a PDF / Excel file (format)`, querystring: alarmReportQuerySchema },
      preHandler: app.requirePermission('alarm:read'),
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const tz = requestTimezone(req);
      if (req.query.format === 'json') return reply.send(ok(alarmReportSchema.parse(await alarmReports.report(caller, req.query, tz, req.lang))));
      const file = await alarmReports.file(caller, req.query, req.query.format, req.lang, tz);
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
  app.get(
    OPS_REPORT_API.online,
    {
      schema: { tags, summary: `Device online rate ${period}: per device and day; JSON, or a PDF / Excel file (format)`, querystring: onlineReportQuerySchema },
      preHandler: app.requirePermission('device:read'),
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const tz = requestTimezone(req);
      if (req.query.format === 'json') return reply.send(ok(onlineReportSchema.parse(await onlineReports.report(caller, req.query, tz))));
      const file = await onlineReports.file(caller, req.query, req.query.format, req.lang, tz);
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
  app.get(
    OPS_REPORT_API.mileage,
    {
      schema: { tags, summary: `Mileage of vehicles and containers ${period}: per day from the odometer or the GPS track; JSON, or a PDF / Excel file (format)`, querystring: mileageReportQuerySchema },
      preHandler: app.requirePermission('device:read'),
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const tz = requestTimezone(req);
      if (req.query.format === 'json') return reply.send(ok(mileageReportSchema.parse(await mileageReports.report(caller, req.query, tz))));
      const file = await mileageReports.file(caller, req.query, req.query.format, req.lang, tz);
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
};

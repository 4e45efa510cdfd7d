// Live state and history calls (all need device:read): GET /api/iot/v2/device-states (+ /summary,
// /points), GET /api/iot/v2/devices/:id/latest, GET /api/iot/v2/telemetry (+ /series, /export),
// GET /api/iot/v2/intake-logs, and GET /api/iot/v2/map-config for the console's base map.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema, listQuerySchema, pageSchema } from '@iotc/shared/list';
import {
  deviceStateQuerySchema,
  deviceStateSchema,
  intakeLogRowSchema,
  LIVE_API,
  mapConfigSchema,
  mapPointSchema,
  seriesQuerySchema,
  seriesSchema,
  statusCountsSchema,
  telemetryQuerySchema,
  telemetryRowSchema,
  type MapConfig,
} from '@iotc/shared/live';
import { DEVICE_API } from '@iotc/shared/device';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import type { TelemetryService } from './service.ts';

const filterSchema = deviceStateQuerySchema.pick({ keyword: true, assetKind: true, status: true });

export const telemetryRoutes: FastifyPluginAsyncZod<{ service: TelemetryService; map: () => MapConfig }> = async (app, { service, map }) => {
  const read = { preHandler: app.requirePermission('device:read') };
  const tags = ['telemetry'];
  app.get(
    LIVE_API.states,
    { schema: { tags, summary: 'Latest state of each device, with status filter', querystring: deviceStateQuerySchema, response: { 200: envelopeSchema(pageSchema(deviceStateSchema)) } }, ...read },
    async (req) => ok(await service.states(callerOf(req), req.query)),
  );
  app.get(
    LIVE_API.summary,
    { schema: { tags, summary: 'Device counts by status', querystring: filterSchema.omit({ status: true }), response: { 200: envelopeSchema(statusCountsSchema) } }, ...read },
    async (req) => ok(await service.summary(callerOf(req), req.query)),
  );
  app.get(
    LIVE_API.points,
    { schema: { tags, summary: 'Every positioned device for the map', querystring: filterSchema, response: { 200: envelopeSchema(z.array(mapPointSchema)) } }, ...read },
    async (req) => ok(await service.points(callerOf(req), req.query)),
  );
  app.get(
    `${DEVICE_API.devices}/:id/latest`,
    { schema: { tags, summary: "A device's latest state", params: idParamsSchema, response: { 200: envelopeSchema(deviceStateSchema) } }, ...read },
    async (req) => ok(await service.latest(callerOf(req), req.params.id)),
  );
  app.get(
    LIVE_API.telemetry,
    { schema: { tags, summary: "A device's stored readings in a time window", querystring: telemetryQuerySchema, response: { 200: envelopeSchema(pageSchema(telemetryRowSchema)) } }, ...read },
    async (req) => ok(await service.history(callerOf(req), req.query)),
  );
  app.get(
    LIVE_API.series,
    { schema: { tags, summary: 'Sensor curves of a device, thinned to maxPoints', querystring: seriesQuerySchema, response: { 200: envelopeSchema(seriesSchema) } }, ...read },
    async (req) => ok(await service.series(callerOf(req), req.query)),
  );
  app.get(
    LIVE_API.telemetryExport,
    {
      schema: { tags, summary: 'Readings of a window as CSV or Excel', querystring: telemetryQuerySchema.omit({ page: true, size: true, sort: true }).extend({ format: exportFormatSchema.default('xlsx') }) },
      ...read,
    },
    async (req, reply) => {
      const file = await service.export(callerOf(req), req.query, req.query.format, req.lang, requestTimezone(req));
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
  app.get(
    LIVE_API.intakeLog,
    { schema: { tags, summary: "A device's refused reports with their reasons", querystring: listQuerySchema.extend({ device: z.uuid() }), response: { 200: envelopeSchema(pageSchema(intakeLogRowSchema)) } }, ...read },
    async (req) => ok(await service.intakeLog(callerOf(req), req.query.device, req.query.page, req.query.size)),
  );
  app.get(
    LIVE_API.mapConfig,
    { schema: { tags, summary: 'Base map settings (tile URL and coordinate system)', response: { 200: envelopeSchema(mapConfigSchema) } }, preHandler: app.authenticate },
    async () => ok(map()),
  );
};

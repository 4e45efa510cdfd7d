// The device registry: GET/POST /api/iot/v2/devices, GET/PUT/DELETE /api/iot/v2/devices/:id,
// POST /api/iot/v2/devices/:id/reset-secret, GET .../export, GET .../import-template,
// POST .../import. Reading needs device:read, changing device:write.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEVICE_API, deviceCreateBodySchema, deviceQuerySchema, deviceRowSchema, deviceSecretSchema, deviceUpdateBodySchema } from '@iotc/shared/device';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema, pageSchema } from '@iotc/shared/list';
import { importResultSchema } from '@iotc/shared/asset';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { DeviceService } from './service.ts';

export const deviceRoutes: FastifyPluginAsyncZod<{ service: DeviceService }> = async (app, { service }) => {
  const can = app.requirePermission;
  const one = `${DEVICE_API.devices}/:id`;
  app.get(
    DEVICE_API.devices,
    { schema: { tags: ['device'], summary: "Devices of the caller's organisation tree", querystring: deviceQuerySchema, response: { 200: envelopeSchema(pageSchema(deviceRowSchema)) } }, preHandler: can('device:read') },
    async (req) => ok(await service.list(callerOf(req), req.query)),
  );
  app.post(
    DEVICE_API.devices,
    { schema: { tags: ['device'], summary: 'Register a device; its secret is answered this once', body: deviceCreateBodySchema, response: { 200: envelopeSchema(deviceSecretSchema) } }, preHandler: can('device:write') },
    async (req) => ok(await service.create(callerOf(req), req.body, clientOf(req))),
  );
  app.get(
    `${DEVICE_API.devices}/export`,
    {
      schema: { tags: ['device'], summary: 'The list as CSV or Excel', querystring: deviceQuerySchema.pick({ keyword: true, orgId: true, protocol: true }).extend({ format: exportFormatSchema.default('xlsx') }) },
      preHandler: can('device:read'),
    },
    async (req, reply) => {
      const file = await service.export(callerOf(req), req.query, req.query.format, req.lang, requestTimezone(req));
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
  app.get(`${DEVICE_API.devices}/import-template`, { schema: { tags: ['device'], summary: 'An empty import sheet in the request language' }, preHandler: can('device:read') }, async (req, reply) =>
    reply.header('content-type', XLSX_TYPE).header('content-disposition', contentDisposition('devices-template.xlsx')).send(await service.template(req.lang)),
  );
  app.post(
    `${DEVICE_API.devices}/import`,
    { schema: { tags: ['device'], summary: 'Import an .xlsx sheet: all rows or, with any error, none; generated secrets are answered once', response: { 200: envelopeSchema(importResultSchema) } }, preHandler: can('device:write') },
    async (req) => ok(await service.import(callerOf(req), req.body as Buffer, req.lang, clientOf(req))),
  );
  app.get(
    one,
    { schema: { tags: ['device'], summary: 'One device', params: idParamsSchema, response: { 200: envelopeSchema(deviceRowSchema) } }, preHandler: can('device:read') },
    async (req) => ok(await service.get(callerOf(req), req.params.id)),
  );
  app.put(
    one,
    { schema: { tags: ['device'], summary: 'Change a device', params: idParamsSchema, body: deviceUpdateBodySchema, response: { 200: envelopeSchema(deviceRowSchema) } }, preHandler: can('device:write') },
    async (req) => ok(await service.update(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.delete(
    one,
    { schema: { tags: ['device'], summary: 'Delete a device with its readings', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, preHandler: can('device:write') },
    async (req) => ok(await service.remove(callerOf(req), req.params.id, clientOf(req)).then(() => null)),
  );
  app.post(
    `${one}/reset-secret`,
    { schema: { tags: ['device'], summary: 'A new device secret (answered once); the old one stops working', params: idParamsSchema, response: { 200: envelopeSchema(deviceSecretSchema) } }, preHandler: can('device:write') },
    async (req) => ok(await service.resetSecret(callerOf(req), req.params.id, clientOf(req))),
  );
};

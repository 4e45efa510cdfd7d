// The asset resources of DESIGN.md, one set of calls per kind: GET/POST /api/iot/v2/<resource>,
// GET/PUT/DELETE /api/iot/v2/<resource>/:id, GET .../export, GET .../import-template,
// POST .../import (the .xlsx file as the body), GET .../:id/bindings; and the device bindings
// POST /api/iot/v2/devices/:id/bind | unbind, GET /api/iot/v2/devices/:id/bindings.
// Reading needs device:read, changing device:write (equipment asset management is one area).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ASSET_API, ASSET_KINDS, ASSET_RESOURCES, assetBodySchema, assetQuerySchema, assetRowSchema, bindBodySchema, bindingRowSchema, importResultSchema } from '@iotc/shared/asset';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema, listQuerySchema, pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import type { AssetService } from './service.ts';

export const assetRoutes: FastifyPluginAsyncZod<{ service: AssetService }> = async (app, { service }) => {
  const read = { preHandler: app.requirePermission('device:read') };
  const write = { preHandler: app.requirePermission('device:write') };

  for (const kind of ASSET_KINDS) {
    const base = `${ASSET_API.base}/${ASSET_RESOURCES[kind]}`;
    const one = `${base}/:id`;
    const tags = [`asset: ${ASSET_RESOURCES[kind]}`];
    const body = assetBodySchema(kind);
    app.get(base, { schema: { tags, summary: `List ${ASSET_RESOURCES[kind]}`, querystring: assetQuerySchema, response: { 200: envelopeSchema(pageSchema(assetRowSchema)) } }, ...read }, async (req) =>
      ok(await service.list(callerOf(req), kind, req.query)),
    );
    app.post(base, { schema: { tags, summary: 'Create', body, response: { 200: envelopeSchema(assetRowSchema) } }, ...write }, async (req) =>
      ok(await service.create(callerOf(req), kind, req.body, clientOf(req))),
    );
    app.get(
      `${base}/export`,
      { schema: { tags, summary: 'The list as CSV or Excel', querystring: assetQuerySchema.pick({ keyword: true, parentId: true, orgId: true }).extend({ format: exportFormatSchema.default('xlsx') }) }, ...read },
      async (req, reply) => {
        const file = await service.export(callerOf(req), kind, req.query, req.query.format, req.lang, requestTimezone(req));
        return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
      },
    );
    app.get(`${base}/import-template`, { schema: { tags, summary: 'An empty import sheet with the header row in the request language' }, ...read }, async (req, reply) => {
      const file = await service.template(kind, req.lang);
      return reply.header('content-type', XLSX_TYPE).header('content-disposition', contentDisposition(`${ASSET_RESOURCES[kind]}-template.xlsx`)).send(file);
    });
    app.post(
      `${base}/import`,
      { schema: { tags, summary: 'Import an .xlsx sheet: all rows or, with any error, none', response: { 200: envelopeSchema(importResultSchema) } }, ...write },
      async (req) => ok(await service.import(callerOf(req), kind, req.body as Buffer, req.lang, clientOf(req))),
    );
    app.get(one, { schema: { tags, summary: 'One', params: idParamsSchema, response: { 200: envelopeSchema(assetRowSchema) } }, ...read }, async (req) =>
      ok(await service.get(callerOf(req), kind, req.params.id)),
    );
    app.put(one, { schema: { tags, summary: 'Change', params: idParamsSchema, body, response: { 200: envelopeSchema(assetRowSchema) } }, ...write }, async (req) =>
      ok(await service.update(callerOf(req), kind, req.params.id, req.body, clientOf(req))),
    );
    app.delete(one, { schema: { tags, summary: 'Delete (its devices are unbound)', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, ...write }, async (req) =>
      ok(await service.remove(callerOf(req), kind, req.params.id, clientOf(req)).then(() => null)),
    );
    app.get(
      `${one}/bindings`,
      { schema: { tags, summary: 'Binding history', params: idParamsSchema, querystring: listQuerySchema, response: { 200: envelopeSchema(pageSchema(bindingRowSchema)) } }, ...read },
      async (req) => ok(await service.assetBindings(callerOf(req), kind, req.params.id, req.query.page, req.query.size)),
    );
  }

  const tags = ['device'];
  app.post(
    ASSET_API.deviceBind(':id'),
    { schema: { tags, summary: 'Mount a device on an asset (a mounted device moves)', params: idParamsSchema, body: bindBodySchema, response: { 200: envelopeSchema(bindingRowSchema) } }, ...write },
    async (req) => ok(await service.bind(callerOf(req), req.params.id, req.body.assetId, clientOf(req))),
  );
  app.post(
    ASSET_API.deviceUnbind(':id'),
    { schema: { tags, summary: 'End the device binding', params: idParamsSchema, response: { 200: envelopeSchema(bindingRowSchema) } }, ...write },
    async (req) => ok(await service.unbind(callerOf(req), req.params.id, clientOf(req))),
  );
  app.get(
    ASSET_API.deviceBindings(':id'),
    { schema: { tags, summary: 'Binding history of a device', params: idParamsSchema, querystring: listQuerySchema, response: { 200: envelopeSchema(pageSchema(bindingRowSchema)) } }, ...read },
    async (req) => ok(await service.deviceBindings(callerOf(req), req.params.id, req.query.page, req.query.size)),
  );
};

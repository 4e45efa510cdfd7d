// The warehouse-records resource (DESIGN.md): GET list (with the audit tab counts), POST create,
// GET .../stock, GET .../provinces, GET .../export, GET .../import-template, POST .../import (the
// .xlsx file as the body), GET/PUT/DELETE .../:id, POST .../:id/approve | reject. Reading needs
// warehouse:read, entering and changing warehouse:write, reviewing warehouse:audit.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { importResultSchema } from '@iotc/shared/asset';
import { envelopeSchema } from '@iotc/shared/envelope';
import { exportFormatSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import {
  WAREHOUSE_API,
  approveBodySchema,
  provinceAmountSchema,
  provinceQuerySchema,
  recordBodySchema,
  recordPageSchema,
  recordQuerySchema,
  recordRowSchema,
  rejectBodySchema,
  stockAnswerSchema,
  stockQuerySchema,
} from '@iotc/shared/warehouse';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import { contentDisposition, requestTimezone } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import type { WarehouseService } from './service.ts';

export const warehouseRoutes: FastifyPluginAsyncZod<{ records: WarehouseService }> = async (app, { records }) => {
  const read = { preHandler: app.requirePermission('warehouse:read') };
  const write = { preHandler: app.requirePermission('warehouse:write') };
  const audit = { preHandler: app.requirePermission('warehouse:audit') };
  const base = WAREHOUSE_API.records;
  const one = `${base}/:id`;
  const tags = ['warehouse-records'];

  app.get(
    base,
    { schema: { tags, summary: 'Inbound and outbound records, with the count of each audit status', querystring: recordQuerySchema, response: { 200: envelopeSchema(recordPageSchema) } }, ...read },
    async (req) => ok(await records.list(callerOf(req), req.query)),
  );
  app.post(
    base,
    { schema: { tags, summary: 'Enter a record (pending review); the temperature at hand-over is read from the room sensor', body: recordBodySchema, response: { 200: envelopeSchema(recordRowSchema) } }, ...write },
    async (req) => ok(await records.create(callerOf(req), req.body, clientOf(req))),
  );
  app.get(
    WAREHOUSE_API.stock,
    { schema: { tags, summary: 'Stock per room and goods / batch (approved records)', querystring: stockQuerySchema, response: { 200: envelopeSchema(stockAnswerSchema) } }, ...read },
    async (req) => ok(await records.stock(callerOf(req), req.query)),
  );
  app.get(
    WAREHOUSE_API.provinces,
    { schema: { tags, summary: 'Warehouses and stock per province', querystring: provinceQuerySchema, response: { 200: envelopeSchema(z.array(provinceAmountSchema)) } }, ...read },
    async (req) => ok(await records.provinces(callerOf(req), req.query.orgId)),
  );
  app.get(
    `${base}/export`,
    { schema: { tags, summary: 'The records the filters match as CSV or Excel', querystring: recordQuerySchema.omit({ page: true, size: true }).extend({ format: exportFormatSchema.default('xlsx') }) }, ...read },
    async (req, reply) => {
      const file = await records.export(callerOf(req), req.query, req.query.format, req.lang, requestTimezone(req));
      return reply.header('content-type', file.contentType).header('content-disposition', contentDisposition(file.filename)).send(file.body);
    },
  );
  app.get(`${base}/import-template`, { schema: { tags, summary: 'An empty import sheet with the header row in the request language' }, ...read }, async (req, reply) => {
    const file = await records.importTemplate(req.lang);
    return reply.header('content-type', XLSX_TYPE).header('content-disposition', contentDisposition('warehouse-records-template.xlsx')).send(file);
  });
  app.post(
    `${base}/import`,
    { schema: { tags, summary: 'Import an .xlsx sheet (times in the request time zone): all rows or, with any error, none', response: { 200: envelopeSchema(importResultSchema) } }, ...write },
    async (req) => ok(await records.import(callerOf(req), req.body as Buffer, req.lang, requestTimezone(req), clientOf(req))),
  );
  app.get(one, { schema: { tags, summary: 'One record', params: idParamsSchema, response: { 200: envelopeSchema(recordRowSchema) } }, ...read }, async (req) =>
    ok(await records.get(callerOf(req), req.params.id)),
  );
  app.put(
    one,
    { schema: { tags, summary: 'Change a pending record (the reading is taken again)', params: idParamsSchema, body: recordBodySchema, response: { 200: envelopeSchema(recordRowSchema) } }, ...write },
    async (req) => ok(await records.update(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.delete(one, { schema: { tags, summary: 'Delete a pending record', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, ...write }, async (req) =>
    ok(await records.remove(callerOf(req), req.params.id, clientOf(req)).then(() => null)),
  );
  app.post(
    `${one}/approve`,
    { schema: { tags, summary: 'Approve and sign a pending record (password again; not one of your own); an outbound needs the stock', params: idParamsSchema, body: approveBodySchema, response: { 200: envelopeSchema(recordRowSchema) } }, ...audit },
    async (req) => ok(await records.approve(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.post(
    `${one}/reject`,
    { schema: { tags, summary: 'Reject and sign a pending record (password again; not one of your own) with a reason', params: idParamsSchema, body: rejectBodySchema, response: { 200: envelopeSchema(recordRowSchema) } }, ...audit },
    async (req) => ok(await records.reject(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
};

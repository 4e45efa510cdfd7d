// /api/iot/v2/jt808-models: vendor mappings of JT/T 808 additional items per terminal model.
// Reading needs device:read, changing device:write; rows of another organisation answer 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { JT808_MODEL_API, modelBodySchema, modelRowSchema } from '@iotc/shared/jt808-models';
import { blankAsUndefined, listQuerySchema, pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { Jt808ModelService } from './models.ts';

const listQuery = listQuerySchema.extend({ orgId: z.preprocess(blankAsUndefined, z.uuid().optional()) });

export const jt808ModelRoutes: FastifyPluginAsyncZod<{ models: Jt808ModelService }> = async (app, { models }) => {
  const read = { preHandler: app.requirePermission('device:read') };
  const write = { preHandler: app.requirePermission('device:write') };
  const base = JT808_MODEL_API;
  const tags = ['jt808 models'];
  const row = { 200: envelopeSchema(modelRowSchema) };
  app.get(base, { schema: { tags, summary: 'Item mappings of terminal models', querystring: listQuery, response: { 200: envelopeSchema(pageSchema(modelRowSchema)) } }, ...read }, async (req) =>
    ok(await models.list(callerOf(req), req.query)),
  );
  app.get(`${base}/registered`, { schema: { tags, summary: 'Terminal models registered in the organisation tree', response: { 200: envelopeSchema(z.array(z.string())) } }, ...read }, async (req) =>
    ok(await models.registeredModels(callerOf(req))),
  );
  app.post(base, { schema: { tags, summary: 'Map the items of a terminal model', body: modelBodySchema, response: row }, ...write }, async (req) => ok(await models.create(callerOf(req), req.body, clientOf(req))));
  app.get(`${base}/:id`, { schema: { tags, summary: 'One mapping', params: idParamsSchema, response: row }, ...read }, async (req) => ok(await models.get(callerOf(req), req.params.id)));
  app.put(`${base}/:id`, { schema: { tags, summary: 'Change a mapping', params: idParamsSchema, body: modelBodySchema, response: row }, ...write }, async (req) =>
    ok(await models.update(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.delete(`${base}/:id`, { schema: { tags, summary: 'Delete a mapping', params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } }, ...write }, async (req) =>
    ok(await models.remove(callerOf(req), req.params.id, clientOf(req)).then(() => null)),
  );
};

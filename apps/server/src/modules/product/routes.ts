// GET /api/iot/v2/product-profiles (paged, keyword), POST; /:id GET, PUT, DELETE (refused while a
// batch or a task carries it). GET /api/iot/v2/product-batches (paged, keyword, profileId, each with its
// budget), POST; /:id GET (with its periods), PUT, DELETE. GET and PUT
// /api/iot/v2/transport-tasks/:id/batches (the batches a task carries). Reading needs
// product:read, every change product:write (a task's own profile is a field of the task, set with
// transport:write through the task's form).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import { PRODUCT_API, batchBodySchema, batchDetailSchema, batchQuerySchema, batchRowSchema, profileBodySchema, profileQuerySchema, profileRowSchema, taskBatchSchema, taskBatchesBodySchema } from '@iotc/shared/product';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { ProductService } from './service.ts';

export const productRoutes: FastifyPluginAsyncZod<{ service: ProductService }> = async (app, { service }) => {
  const read = { preHandler: app.requirePermission('product:read') };
  const write = { preHandler: app.requirePermission('product:write') };
  const tags = ['product'];
  const profiles = PRODUCT_API.profiles;
  const profile = `${profiles}/:id`;
  const batches = PRODUCT_API.batches;
  const batch = `${batches}/:id`;
  const none = { 200: envelopeSchema(z.null()) };

  app.get(profiles, { schema: { tags, summary: 'Product profiles', querystring: profileQuerySchema, response: { 200: envelopeSchema(pageSchema(profileRowSchema)) } }, ...read }, async (req) =>
    ok(await service.listProfiles(callerOf(req), req.query)),
  );
  app.post(profiles, { schema: { tags, summary: 'Create a product profile', body: profileBodySchema, response: { 200: envelopeSchema(profileRowSchema) } }, ...write }, async (req) =>
    ok(await service.createProfile(callerOf(req), req.body, clientOf(req))),
  );
  app.get(profile, { schema: { tags, summary: 'One product profile', params: idParamsSchema, response: { 200: envelopeSchema(profileRowSchema) } }, ...read }, async (req) =>
    ok(await service.getProfile(callerOf(req), req.params.id)),
  );
  app.put(profile, { schema: { tags, summary: 'Change a product profile', params: idParamsSchema, body: profileBodySchema, response: { 200: envelopeSchema(profileRowSchema) } }, ...write }, async (req) =>
    ok(await service.updateProfile(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.delete(profile, { schema: { tags, summary: 'Delete a product profile no batch or task carries', params: idParamsSchema, response: none }, ...write }, async (req) => {
    await service.removeProfile(callerOf(req), req.params.id, clientOf(req));
    return ok(null);
  });

  app.get(batches, { schema: { tags, summary: 'Batches with their excursion budgets', querystring: batchQuerySchema, response: { 200: envelopeSchema(pageSchema(batchRowSchema)) } }, ...read }, async (req) =>
    ok(await service.listBatches(callerOf(req), req.query)),
  );
  app.post(batches, { schema: { tags, summary: 'Create a batch', body: batchBodySchema, response: { 200: envelopeSchema(batchDetailSchema) } }, ...write }, async (req) =>
    ok(await service.createBatch(callerOf(req), req.body, clientOf(req))),
  );
  app.get(batch, { schema: { tags, summary: 'One batch: its budget and the periods it is made of', params: idParamsSchema, response: { 200: envelopeSchema(batchDetailSchema) } }, ...read }, async (req) =>
    ok(await service.getBatch(callerOf(req), req.params.id)),
  );
  app.put(batch, { schema: { tags, summary: 'Change a batch', params: idParamsSchema, body: batchBodySchema, response: { 200: envelopeSchema(batchDetailSchema) } }, ...write }, async (req) =>
    ok(await service.updateBatch(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.delete(batch, { schema: { tags, summary: 'Delete a batch', params: idParamsSchema, response: none }, ...write }, async (req) => {
    await service.removeBatch(callerOf(req), req.params.id, clientOf(req));
    return ok(null);
  });

  const taskBatches = '/api/iot/v2/transport-tasks/:id/batches';
  app.get(taskBatches, { schema: { tags, summary: 'The batches a task carries, with their budgets', params: idParamsSchema, response: { 200: envelopeSchema(z.array(taskBatchSchema)) } }, ...read }, async (req) =>
    ok(await service.getTaskBatches(callerOf(req), req.params.id)),
  );
  app.put(taskBatches, { schema: { tags, summary: 'Set the batches a task carries', params: idParamsSchema, body: taskBatchesBodySchema, response: { 200: envelopeSchema(z.array(taskBatchSchema)) } }, ...write }, async (req) =>
    ok(await service.setTaskBatches(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
};

// GET /api/iot/v2/storage-figures: storage per organisation and the platform's, platform administrator only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { STORAGE_API, storagePageSchema, storageQuerySchema } from '@iotc/shared/storage';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { StorageService } from './service.ts';

export const storageRoutes: FastifyPluginAsyncZod<{ storage: StorageService }> = async (app, { storage }) => {
  app.get(
    STORAGE_API.list,
    {
      schema: {
        tags: ['storage'],
        summary: 'Readings and packs kept per organisation, their bytes, growth per day and the days left (platform administrator only)',
        querystring: storageQuerySchema,
        response: { 200: envelopeSchema(storagePageSchema) },
      },
      preHandler: app.authenticate,
    },
    async (req) => ok(await storage.list(callerOf(req), req.query)),
  );
};

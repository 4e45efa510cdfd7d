// GET /api/iot/v2/outbox-messages: the outbox (mail and texts, sent or kept), platform administrator only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { pageSchema } from '@iotc/shared/list';
import { OUTBOX_API, outboxQuerySchema, outboxRowSchema } from '@iotc/shared/outbox';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { OutboxService } from './service.ts';

export const outboxRoutes: FastifyPluginAsyncZod<{ outbox: OutboxService }> = async (app, { outbox }) => {
  app.get(
    OUTBOX_API.list,
    {
      schema: {
        tags: ['outbox'],
        summary: 'Mail and texts of the platform, newest first (platform administrator only)',
        querystring: outboxQuerySchema,
        response: { 200: envelopeSchema(pageSchema(outboxRowSchema)) },
      },
      preHandler: app.authenticate,
    },
    async (req) => ok(await outbox.list(callerOf(req), req.query)),
  );
};

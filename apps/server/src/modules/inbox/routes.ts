// GET /api/iot/v2/inbox-items (paged, `filter=all|unread`), GET .../unread-count, POST .../read
// ({ ids }) and POST .../read-all: the signed-in user's own inbox, for any signed-in user.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { pageSchema } from '@iotc/shared/list';
import { INBOX_API, inboxCountSchema, inboxItemSchema, inboxMarkBodySchema, inboxMarkedSchema, inboxQuerySchema } from '@iotc/shared/inbox';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { InboxService } from './service.ts';

export const inboxRoutes: FastifyPluginAsyncZod<{ service: InboxService }> = async (app, { service }) => {
  const tags = ['inbox'];
  app.get(
    INBOX_API.list,
    {
      schema: { tags, summary: "The caller's in-app alarm deliveries and platform notices, newest first (notices in the request language)", querystring: inboxQuerySchema, response: { 200: envelopeSchema(pageSchema(inboxItemSchema)) } },
      preHandler: app.authenticate,
    },
    async (req) => ok(await service.list(callerOf(req), req.lang, req.query)),
  );
  app.get(
    INBOX_API.unreadCount,
    { schema: { tags, summary: "How many of the caller's inbox items are unread", response: { 200: envelopeSchema(inboxCountSchema) } }, preHandler: app.authenticate },
    async (req) => ok(await service.unreadCount(callerOf(req))),
  );
  app.post(
    INBOX_API.read,
    { schema: { tags, summary: "Marks some of the caller's inbox items read (other ids are ignored)", body: inboxMarkBodySchema, response: { 200: envelopeSchema(inboxMarkedSchema) } }, preHandler: app.authenticate },
    async (req) => ok(await service.markRead(callerOf(req), req.body.ids)),
  );
  app.post(
    INBOX_API.readAll,
    { schema: { tags, summary: "Marks all of the caller's inbox items read", response: { 200: envelopeSchema(inboxMarkedSchema) } }, preHandler: app.authenticate },
    async (req) => ok(await service.markAllRead(callerOf(req))),
  );
};

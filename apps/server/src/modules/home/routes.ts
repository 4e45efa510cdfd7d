// GET /api/iot/v2/home/alerts (needs device:read) and GET /api/iot/v2/notifications (any signed-in user).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { listQuerySchema, pageSchema } from '@iotc/shared/list';
import { HOME_API, homeAlertQuerySchema, homeAlertSchema, noticeSchema } from '@iotc/shared/live';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { HomeService } from './service.ts';

export const homeRoutes: FastifyPluginAsyncZod<{ service: HomeService }> = async (app, { service }) => {
  const tags = ['home'];
  app.get(
    HOME_API.alerts,
    { schema: { tags, summary: 'Message alerts from the latest device states, newest first, optionally within a time window', querystring: homeAlertQuerySchema, response: { 200: envelopeSchema(pageSchema(homeAlertSchema)) } }, preHandler: app.requirePermission('device:read') },
    async (req) => ok(await service.alerts(callerOf(req), req.query)),
  );
  app.get(
    HOME_API.notices,
    { schema: { tags, summary: 'Platform notifications, newest first, in the request language', querystring: listQuerySchema, response: { 200: envelopeSchema(pageSchema(noticeSchema)) } }, preHandler: app.authenticate },
    async (req) => ok(await service.notices(callerOf(req), req.lang, req.query.page, req.query.size)),
  );
};

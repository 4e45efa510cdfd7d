// The consignee tracking links' calls (tracking.ts). With login: make a link to a task (as
// changing tasks: transport:write), list a task's links or the organisation tree's (transport:read),
// revoke one (transport:write). Without login: what a live link shows. A link's token is in its
// public addresses only: the request log masks it there (ops/logging.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { pageSchema } from '@iotc/shared/list';
import { idParamsSchema } from '@iotc/shared/platform';
import {
  publicTrackingSchema,
  TRACKING_API,
  trackingLinkAnswerSchema,
  trackingLinkBodySchema,
  trackingLinkQuerySchema,
  trackingLinkRowSchema,
} from '@iotc/shared/transport-tracking';
import { callerOf, clientOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { TrackingService } from './tracking.ts';

export const trackingRoutes: FastifyPluginAsyncZod<{ tracking: TrackingService }> = async (app, { tracking }) => {
  const read = { preHandler: app.requirePermission('transport:read') };
  const write = { preHandler: app.requirePermission('transport:write') };
  const tags = ['transport tracking links'];
  const taskLinks = TRACKING_API.taskLinks(':id');
  const page = { 200: envelopeSchema(pageSchema(trackingLinkRowSchema)) };

  app.post(
    taskLinks,
    {
      schema: {
        tags,
        summary: 'A public, read-only link to the task for its consignee (position, status, ETA, temperature curve), until it expires (90 days unless `expiresInDays` or `expiresAt` says otherwise, at most 365 days) or is revoked; the token is in this answer only',
        params: idParamsSchema,
        body: trackingLinkBodySchema,
        response: { 200: envelopeSchema(trackingLinkAnswerSchema) },
      },
      ...write,
    },
    async (req) => ok(await tracking.create(callerOf(req), req.params.id, req.body, clientOf(req))),
  );
  app.get(taskLinks, { schema: { tags, summary: "The task's tracking links, newest first, with their status: active, expired or revoked", params: idParamsSchema, querystring: trackingLinkQuerySchema, response: page }, ...read }, async (req) =>
    ok(await tracking.listOfTask(callerOf(req), req.params.id, req.query)),
  );
  app.get(TRACKING_API.links, { schema: { tags, summary: "The tracking links of the caller's organisation tree, newest first, with their status", querystring: trackingLinkQuerySchema, response: page }, ...read }, async (req) =>
    ok(await tracking.list(callerOf(req), req.query)),
  );
  app.post(
    TRACKING_API.revoke(':id'),
    { schema: { tags, summary: 'Ends a tracking link now: its token answers 410 TRACKING_LINK_REVOKED from then on', params: idParamsSchema, response: { 200: envelopeSchema(trackingLinkRowSchema) } }, ...write },
    async (req) => ok(await tracking.revoke(callerOf(req), req.params.id, clientOf(req))),
  );
  app.get(
    TRACKING_API.public(':token'),
    {
      schema: {
        tags,
        summary: "What a tracking link shows, without login: the task's code, goods, places, status and times, its latest position, ETA and temperature curve; an ended link answers 410 (TRACKING_LINK_EXPIRED, TRACKING_LINK_REVOKED), an unknown one 404",
        params: z.object({ token: z.string().min(1).max(100) }),
        response: { 200: envelopeSchema(publicTrackingSchema) },
      },
    },
    async (req, reply) => {
      const view = await tracking.publicView(req.params.token);
      return reply.header('cache-control', 'no-store').send(ok(view));
    },
  );
};

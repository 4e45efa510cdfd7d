// The tracks resource of DESIGN.md: a device's or a transport task's history track (at most
// maxPoints points: full detail or one per time bucket) and its summary (trips, stops, statistics,
// alarm markers). Reading needs device:read; a device or task outside the caller's tree is 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { TRACK_API, trackQuerySchema, trackSchema, trackSummarySchema } from '@iotc/shared/track';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { TrackService } from './service.ts';

export const trackRoutes: FastifyPluginAsyncZod<{ tracks: TrackService }> = async (app, { tracks }) => {
  const read = { preHandler: app.requirePermission('device:read') };
  const tags = ['tracks'];
  app.get(
    TRACK_API.track,
    { schema: { tags, summary: 'History track of a device or a task: full detail up to maxPoints, else the first point of each time bucket', querystring: trackQuerySchema, response: { 200: envelopeSchema(trackSchema) } }, ...read },
    async (req) => ok(await tracks.track(callerOf(req), req.query)),
  );
  app.get(
    TRACK_API.summary,
    { schema: { tags, summary: 'Trips, stops, statistics and alarm markers of the same range', querystring: trackQuerySchema, response: { 200: envelopeSchema(trackSummarySchema) } }, ...read },
    async (req) => ok(await tracks.summary(callerOf(req), req.query, req.lang)),
  );
};

// GET /api/iot/v2/cockpit (needs device:read): the wall display's summary of the caller's
// organisation tree; "today" and the days are counted in the request's `Timezone`.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COCKPIT_API, cockpitSummarySchema } from '@iotc/shared/cockpit';
import { envelopeSchema } from '@iotc/shared/envelope';
import { requestTimezone } from '../../lib/export.ts';
import { callerOf } from '../../plugins/auth.ts';
import { ok } from '../../plugins/errors.ts';
import type { CockpitService } from './service.ts';

export const cockpitRoutes: FastifyPluginAsyncZod<{ service: CockpitService }> = async (app, { service }) => {
  app.get(
    COCKPIT_API.summary,
    {
      schema: { tags: ['cockpit'], summary: 'Cockpit summary: KPIs, alarms by level, compliance today, provinces, vehicles, trends, newest alarms', response: { 200: envelopeSchema(cockpitSummarySchema) } },
      preHandler: app.requirePermission('device:read'),
    },
    async (req) => ok(await service.summary(callerOf(req), req.lang, requestTimezone(req))),
  );
};

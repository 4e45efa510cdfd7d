// GET /api/iot/v2/geocode/{config,search,reverse}: whether a geocoder is configured, places
// matching an address and the address of a position, for any signed-in user (the answers are
// the geocoder's public data, not an organisation's).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import {
  GEOCODE_API,
  geocodeConfigSchema,
  geocodeReverseQuerySchema,
  geocodeReverseSchema,
  geocodeSearchQuerySchema,
  geocodeSearchSchema,
} from '@iotc/shared/geocode';
import { ok } from '../../plugins/errors.ts';
import type { Geocoder } from './service.ts';

export const geocodeRoutes: FastifyPluginAsyncZod<{ geocoder: Geocoder }> = async (app, { geocoder }) => {
  const tags = ['geocode'];
  const signedIn = { preHandler: app.authenticate };
  app.get(
    GEOCODE_API.config,
    { schema: { tags, summary: 'Whether a geocoder (GEOCODER_URL) is configured', response: { 200: envelopeSchema(geocodeConfigSchema) } }, ...signedIn },
    async () => ok({ enabled: geocoder.enabled }),
  );
  app.get(
    GEOCODE_API.search,
    {
      schema: {
        tags,
        summary: 'Places matching an address, from the geocoder (409 GEOCODER_NOT_CONFIGURED without one)',
        querystring: geocodeSearchQuerySchema,
        response: { 200: envelopeSchema(geocodeSearchSchema) },
      },
      ...signedIn,
    },
    async (req) => ok({ places: await geocoder.search(req.query.q, req.query.lang ?? req.lang) }),
  );
  app.get(
    GEOCODE_API.reverse,
    {
      schema: {
        tags,
        summary: 'The address at a position, from the geocoder (null when it knows none)',
        querystring: geocodeReverseQuerySchema,
        response: { 200: envelopeSchema(geocodeReverseSchema) },
      },
      ...signedIn,
    },
    async (req) => ok({ address: await geocoder.reverse(req.query, req.query.lang ?? req.lang) }),
  );
};

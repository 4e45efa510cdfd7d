// The geocoder's module: one geocoder per node (so one rate limit per node), with the cache in
// the database; other modules use app.geocoder for the addresses in their details and reports.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { geocodeRoutes } from './routes.ts';
import { geocoder, type Geocoder } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Nominatim-compatible geocoder (GEOCODER_URL); `enabled` false without one. */
    geocoder: Geocoder;
  }
}

export const geocodePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const { url, ratePerSecond, timeoutMs } = ctx.config.geocoder;
  const service = geocoder({ url, ratePerSecond, timeoutMs, db: ctx.database.db, log: app.log });
  app.decorate('geocoder', service);
  await app.register(geocodeRoutes, { geocoder: service });
});

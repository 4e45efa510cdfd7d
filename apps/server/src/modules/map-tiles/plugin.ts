// The base map's tile source (service.ts): read at start, saved by the platform administrator,
// dropped and read again on every node after a save.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { mapTilesRoutes } from './routes.ts';
import { mapTilesService } from './service.ts';

export const mapTilesPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const service = mapTilesService(ctx.database.db, app.mapTiles, { audit: ctx.audit, changed: () => ctx.invalidate('map-tiles') });
  const load = () =>
    service.load().catch((err: unknown) => app.log.warn({ err }, 'map tile setting not read: the start-up default applies'));
  ctx.onInvalidate('map-tiles', () => void load());
  await load();
  await app.register(mapTilesRoutes, { service });
});

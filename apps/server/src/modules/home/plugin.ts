// The home screen's lists, read off the latest states of the caller's devices.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { homeRoutes } from './routes.ts';
import { homeService } from './service.ts';
import { stateReader } from '../telemetry/states.ts';

export const homePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  await app.register(homeRoutes, { service: homeService(db, stateReader(db, ctx.config.offlineAfterMs)) });
});

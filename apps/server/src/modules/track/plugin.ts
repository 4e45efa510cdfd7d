// History tracks of a device or of a transport task.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { trackRoutes } from './routes.ts';
import { trackService } from './service.ts';

export const trackPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(trackRoutes, { tracks: trackService(ctx.database.db) });
});

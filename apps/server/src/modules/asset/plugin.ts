// Assets of the caller's organisation tree and the devices bound to them.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { assetRoutes } from './routes.ts';
import { assetService } from './service.ts';

export const assetPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(assetRoutes, { service: assetService(ctx.database.db, ctx.audit) });
});

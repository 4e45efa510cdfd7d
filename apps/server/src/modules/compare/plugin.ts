// Operational data comparison: warehouses, vehicles or routes on one metric over two periods.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { compareRoutes } from './routes.ts';
import { compareService } from './service.ts';

export const comparePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(compareRoutes, { compare: compareService(ctx.database.db) });
});

// The device registry of the caller's organisation tree.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { deviceRoutes } from './routes.ts';
import { deviceService } from './service.ts';

export const devicePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(deviceRoutes, { service: deviceService(ctx.database.db, ctx.audit) });
});

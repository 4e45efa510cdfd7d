// The cockpit summary of the caller's organisation tree, from the same state reader as the monitoring screens.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { cockpitRoutes } from './routes.ts';
import { cockpitService } from './service.ts';
import { stateReader } from '../telemetry/states.ts';

export const cockpitPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  await app.register(cockpitRoutes, { service: cockpitService(db, stateReader(db, ctx.config.offlineAfterMs)) });
});

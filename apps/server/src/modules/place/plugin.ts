// The place library's module: places of the caller's organisations, their GeoJSON, and a change
// written into every copy (the alarm engine and the task recogniser reload).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { placeRepo } from './repo.ts';
import { placeRoutes } from './routes.ts';
import { placeService } from './service.ts';

export const placePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  const service = placeService(db, placeRepo(db), {
    audit: ctx.audit,
    onChange: ({ policies, tasks }) => {
      if (policies > 0) ctx.invalidate('alarm-policies');
      if (tasks > 0) ctx.invalidate('transport-tasks');
    },
  });
  await app.register(placeRoutes, { service });
});

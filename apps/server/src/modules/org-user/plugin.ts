// Organisations and users.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { orgUserRepo } from './repo.ts';
import { orgUserRoutes } from './routes.ts';
import { orgUserService } from './service.ts';

export const orgUserPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(orgUserRoutes, { service: orgUserService(orgUserRepo(ctx.database.db), { audit: ctx.audit, atomically: (work) => ctx.database.db.transaction((tx) => work(orgUserRepo(tx), tx)) }) });
});

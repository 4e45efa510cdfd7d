// The menu tree of the caller: granted items plus the parents they need.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { menuRepo } from './repo.ts';
import { menuRoutes } from './routes.ts';
import { menuService } from './service.ts';

export const menuPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(menuRoutes, { menus: menuService(menuRepo(ctx.database.db)) });
});

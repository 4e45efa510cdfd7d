// Dictionaries: every one, values in the request's language.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { dictRepo } from './repo.ts';
import { dictRoutes } from './routes.ts';

export const dictPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(dictRoutes, { dicts: dictRepo(ctx.database.db) });
});

// The header's inbox: the signed-in user's in-app alarm deliveries and platform notices, with
// their read marks; marking read tells the user's other tabs over the live bus.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { inboxRepo } from './repo.ts';
import { inboxRoutes } from './routes.ts';
import { inboxService } from './service.ts';

export const inboxPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const service = inboxService(inboxRepo(ctx.database.db), { notify: (userIds) => ctx.bus.publish({ type: 'inbox', userIds }) });
  await app.register(inboxRoutes, { service });
});

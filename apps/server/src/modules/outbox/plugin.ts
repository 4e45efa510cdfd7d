// The outbox for the platform administrator: the messages kept without SMTP_URL or an SMS gateway.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { outboxRoutes } from './routes.ts';
import { outboxService } from './service.ts';

export const outboxPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(outboxRoutes, { outbox: outboxService(ctx.database.db) });
});

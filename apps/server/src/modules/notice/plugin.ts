// Platform notices: published and withdrawn by the platform administrator; the audience's inboxes
// are told over the live bus.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { noticeRepo } from './repo.ts';
import { noticeRoutes } from './routes.ts';
import { noticeService } from './service.ts';

export const noticePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  const service = noticeService(db, noticeRepo(db), { audit: ctx.audit, notify: (userIds) => ctx.bus.publish({ type: 'inbox', userIds }) });
  await app.register(noticeRoutes, { service });
});

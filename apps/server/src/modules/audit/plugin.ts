// The audit log's list and export (ctx.audit records into it).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { auditRepo } from './repo.ts';
import { auditRoutes } from './routes.ts';
import { auditService } from './service.ts';

export const auditPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(auditRoutes, { audit: auditService(auditRepo(ctx.database.db)) });
});

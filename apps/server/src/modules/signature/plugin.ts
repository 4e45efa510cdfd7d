// Electronic signatures: the reading routes and the task documents' signing. The approvals and
// closes that sign (warehouse, command, work order) build their own signatureService(ctx).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { signatureRoutes } from './routes.ts';
import { signatureService } from './service.ts';

/** The signature service of a module plugin's context. */
export const signaturesOf = (ctx: ModuleContext) => signatureService(ctx.database.db, { audit: ctx.audit });

export const signaturePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(signatureRoutes, { signatures: signaturesOf(ctx) });
});

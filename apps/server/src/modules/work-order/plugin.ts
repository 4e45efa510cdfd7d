// Work orders: a closed or gathered order may change its alarms, which go out as alarm changes.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { workOrderRoutes } from './routes.ts';
import { workOrderService } from './service.ts';
import { signaturesOf } from '../signature/plugin.ts';

export const workOrderPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(workOrderRoutes, { workOrders: workOrderService(ctx.database.db, { audit: ctx.audit, publish: ctx.publishAlarms, signatures: signaturesOf(ctx) }) });
});

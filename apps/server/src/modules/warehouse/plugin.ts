// Warehouse inbound and outbound records of the caller's organisation tree.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { warehouseRoutes } from './routes.ts';
import { warehouseService } from './service.ts';
import { signaturesOf } from '../signature/plugin.ts';

export const warehousePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  await app.register(warehouseRoutes, { records: warehouseService(ctx.database.db, { audit: ctx.audit, signatures: signaturesOf(ctx) }) });
});

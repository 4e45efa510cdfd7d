// Product profiles and batches with their excursion budgets (issue 27 item 3): the routes, and
// the job that raises a batch's budget alarms (job.ts) every PRODUCT_BUDGET_SECONDS.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { alarmsByIds } from '../alarm/records.ts';
import { budgetAlarmTick } from './job.ts';
import { productRoutes } from './routes.ts';
import { productService, type ProductService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The product module's service: the shipment report reads a task's batches through it. */
    products: ProductService;
  }
}

export const productPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  const service = productService(db, { audit: ctx.audit });
  app.decorate('products', service);
  app.job('product budgets', { everyMs: ctx.config.productBudgetMs, atStart: false }, async () => {
    const raised = await ctx.lease('product budgets', (tx) => budgetAlarmTick(tx), [] as string[]);
    if (raised.length) ctx.publishAlarms(await alarmsByIds(db, raised));
  });
  await app.register(productRoutes, { service });
});

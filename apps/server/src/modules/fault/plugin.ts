// Device faults: the detector finds them from what the intake stores and refuses; the routes list them.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { faultDetector, type FaultDetector } from './detector.ts';
import { faultRoutes } from './routes.ts';
import { faultService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Device faults found from what the intake stores and refuses (modules/fault/detector.ts). */
    faultDetector: FaultDetector;
  }
}

export const faultPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  const faults = faultDetector(db, { log: app.log, offlineAfterMs: ctx.config.offlineAfterMs });
  app.decorate('faultDetector', faults);
  ctx.storedReadings.stored.subscribe(({ states, readings, heardBefore }) => faults.stored(states, readings, heardBefore));
  app.addHook('onClose', async () => faults.settled());
  await app.register(faultRoutes, { faults: faultService(db, ctx.audit) });
});

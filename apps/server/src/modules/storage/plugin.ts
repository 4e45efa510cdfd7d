// Storage figures per organisation: a snapshot at start and every STORAGE_SECONDS (one node at a
// time; job.ts), read by the platform-management screen (routes.ts) and /metrics.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { takeSnapshot } from './job.ts';
import { storageRoutes } from './routes.ts';
import { storageService } from './service.ts';

export const storagePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const { database, config, availability } = ctx;
  const storage = storageService(database.db, { freeBytes: async () => (database.kind === 'pglite' && config.dataDir ? availability.checkDisk() : null) });
  await app.register(storageRoutes, { storage });
  ctx.metrics.watchStorage(storage.overview);
  // Another node's snapshot of the last half interval stands for this one.
  app.job('storage figures', { everyMs: config.storageMs, atStart: true }, async () => {
    await takeSnapshot(database.db, { freshMs: config.storageMs / 2, lease: ctx.lease });
  });
});

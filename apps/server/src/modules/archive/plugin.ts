// The readings archive's module: each device's closed days packed, every column, for small
// storage and fast month-long reads (one node at a time; job.ts). Again at once while a backlog
// remains, else every ARCHIVE_SECONDS (0: not on this node). A late reading of a packed day makes
// its pack stale in the transaction that stores it (the stored-readings event's step).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { archiveTick, markStalePacks } from './job.ts';

export const archivePlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  ctx.storedReadings.storing.add(({ tx, readings, receivedAt }) => markStalePacks(tx, readings, receivedAt));
  app.job('readings archive', { everyMs: ctx.config.archiveMs }, async () => {
    const r = await archiveTick(db, { node: ctx.config.nodeId });
    return r.ran && !r.caughtUp ? 'again' : undefined;
  });
});

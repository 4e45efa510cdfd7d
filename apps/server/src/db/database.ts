// The database of the app: opened (PostgreSQL from DATABASE_URL, waiting for it at start, else
// the embedded PGlite under DATA_DIR; or the caller's), migrated and seeded, closed last; and its
// availability: an outage is noticed once and its end by a probe, writes that fail (disk full,
// read-only) likewise (db/availability.ts). A function on the app rather than a plugin: the wait
// for the database and the first migration may take longer than a plugin may.
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.ts';
import { databaseAvailability, type AvailabilityStats, type DatabaseAvailability } from './availability.ts';
import { openDatabase, type Database } from './client.ts';
import { seed, type SeedResult } from './seed.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    seedResult: SeedResult;
    /** Whether the database is reachable: outages are noticed once and their end by a probe (db/availability.ts). */
    availability: DatabaseAvailability;
  }
}

export async function appDatabase(
  app: FastifyInstance,
  opts: {
    config: AppConfig;
    /** The caller's database, which the caller closes. */
    database?: Database;
    /** Told when the database stops being able to write and when it can again (the platform alarm). */
    onWritable: (writable: boolean, stats: AvailabilityStats) => void;
  },
): Promise<{ database: Database; availability: DatabaseAvailability }> {
  const { config } = opts;
  const database =
    opts.database ??
    (await openDatabase(
      config.databaseUrl
        ? {
            kind: 'postgres',
            url: config.databaseUrl,
            // A node started before its database waits for it (DB_START_WAIT_SECONDS), saying so.
            startWaitMs: config.dbStartWaitMs,
            onStartWait: ({ err, waitedMs, reachedAfterMs }) =>
              reachedAfterMs === undefined
                ? app.log.warn({ err, waitedMs }, `database not reachable at start; waiting for it (up to ${Math.round(config.dbStartWaitMs / 1000)} s)`)
                : app.log.info({ reachedAfterMs }, `database reached after ${Math.round(reachedAfterMs / 1000)} s`),
          }
        : { kind: 'pglite', dataDir: config.dataDir || undefined },
    ));
  app.decorate('database', database);
  app.addHook('onClose', async () => {
    if (!opts.database) await database.close();
  });
  app.decorate('seedResult', await seed(database.db, { adminPassword: config.adminPassword, seedDemo: config.seedDemo, demoPassword: config.demoPassword }));
  const availability = databaseAvailability(database, {
    log: app.log,
    diskDir: database.kind === 'pglite' && config.dataDir ? config.dataDir : undefined,
    onWritable: opts.onWritable,
  });
  app.decorate('availability', availability);
  app.addHook('onClose', async () => availability.close());
  return { database, availability };
}

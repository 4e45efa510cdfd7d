// PostgreSQL's connection lost under a transaction that is between two statements: the
// transaction fails with an error, the process goes on, and the next call works once the
// database is back (PostgreSQL behind a proxy that the test cuts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createPgDatabase } from '../test/harness.ts';
import { tcpProxy, type TcpProxy } from '../test/tcp-proxy.ts';
import { openDatabase, type Database } from './client.ts';

const base = process.env.DATABASE_URL;

describe.skipIf(!base)('a connection lost in the middle of a transaction', () => {
  let created: { url: string; drop: () => Promise<void> };
  let proxy: TcpProxy;
  let database: Database;

  beforeAll(async () => {
    created = await createPgDatabase(base!);
    const target = new URL(base!);
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    database = await openDatabase({ kind: 'postgres', url: proxy.urlFor(created.url) });
  });
  afterAll(async () => {
    await database?.close();
    await proxy?.close();
    await created?.drop();
  });

  it('fails that transaction, not the process, and the next one works once the database is back', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => void uncaught.push(err);
    process.prependListener('uncaughtException', onUncaught);
    try {
      let between!: () => void;
      const paused = new Promise<void>((r) => (between = r));
      let inside!: () => void;
      const entered = new Promise<void>((r) => (inside = r));
      const tx = database.db.transaction(async (t) => {
        await t.execute(sql`select 1`);
        inside();
        // The transaction waits for other work here, its client checked out and silent.
        await paused;
        await t.execute(sql`select 2`);
      });
      await entered;
      proxy.cut('refuse');
      // The cut closes the transaction's connection while no statement runs on it (node-postgres
      // marks the client ended; read from the pool's list, an internal of pg-pool).
      const pool = (database.db as unknown as { $client: { _clients: { _ended?: boolean }[] } }).$client;
      await expect.poll(() => pool._clients.some((c) => c._ended)).toBe(true);
      between();
      await expect(tx).rejects.toThrow();
      expect(uncaught).toEqual([]);

      proxy.restore();
      await expect.poll(async () => {
        try {
          await database.db.execute(sql`select 1`);
          return true;
        } catch {
          return false;
        }
      }).toBe(true);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      proxy.restore();
    }
  });
});

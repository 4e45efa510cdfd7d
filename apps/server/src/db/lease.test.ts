// Leases (db/lease.ts), as the jobs plugin hands them to the modules: a round runs in a
// transaction holding its advisory lock and answers the work's result; on PostgreSQL, a round
// that finds the lease held skips (answers `skipped`, told to onSkipped) instead of waiting, and
// the lease is free again once the holder's transaction ends. PGlite has one connection, so there
// a second round waits its turn rather than skipping: that part runs with DATABASE_URL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCKS, rowsOf } from './client.ts';
import { leases, type LeaseName } from './lease.ts';
import { testApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  // The app's own rounds of the leases tested below do not run (the ledger's and the storage figures').
  t = await testApp({ ledgerTickMs: 0, ledgerCheckpointMs: 0, storageMs: 0 });
});
afterAll(async () => {
  await t.close();
});

describe('leases', () => {
  it('run the work in a transaction holding the lease, and answer its result', async () => {
    const db = t.app.database.db;
    const held = await t.app.lease('alarm tick', async (tx) =>
      rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = ${LOCKS.alarmTick} and granted`)),
    );
    expect(held?.[0]?.n).toBe(1);
    const after = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = ${LOCKS.alarmTick}`));
    expect(after[0]!.n).toBe(0);
  });

  it('roll back the work of a round that fails, and let the error through', async () => {
    const db = t.app.database.db;
    await db.execute(sql`create table if not exists lease_probe (n int)`);
    await expect(
      t.app.lease('ledger', async (tx) => {
        await tx.execute(sql`insert into lease_probe values (1)`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from lease_probe`))[0]!.n).toBe(0);
  });

  it.runIf(process.env.DATABASE_URL)('skip a round while another holds the lease, then let it in (PostgreSQL)', async () => {
    const db = t.app.database.db;
    const skipped: LeaseName[] = [];
    const lease = leases(db, { onSkipped: (name) => skipped.push(name) });
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const holder = lease('ledger', async () => {
      entered();
      await new Promise<void>((r) => (release = r));
      return 'held';
    });
    await inside;
    try {
      expect(await lease('ledger', async () => 'ran', 'skipped')).toBe('skipped');
      // Another lease is not held by it.
      expect(await lease('storage figures', async () => 'ran', 'skipped')).toBe('ran');
      expect(skipped).toEqual(['ledger']);
    } finally {
      release();
    }
    expect(await holder).toBe('held');
    expect(await lease('ledger', async () => 'ran', 'skipped')).toBe('ran');
  });
});

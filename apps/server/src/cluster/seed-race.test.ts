// Nodes starting at the same moment on one fresh PostgreSQL database: both seed and both put in
// the demo fleet at once, each through its own connection pool as separate processes would; the
// organisations, accounts and fleet exist once, one node reports the generated administrator
// password, and neither fails. Runs with DATABASE_URL set (PGlite serves one process).
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.ts';
import { seed } from '../db/seed.ts';
import { seedDemoFleet } from '../demo/seed-demo.ts';
import { createPgDatabase, DEMO_PASSWORD } from '../test/harness.ts';

const { DATABASE_URL } = process.env;
const open: Database[] = [];
let created: { url: string; drop: () => Promise<void> } | undefined;

afterAll(async () => {
  await Promise.all(open.map((d) => d.close()));
  await created?.drop();
});

describe.skipIf(!DATABASE_URL)('nodes starting together on one database', () => {
  it('seed and demo fleet are made once, and both starts succeed', async () => {
    created = await createPgDatabase(DATABASE_URL!);
    const [one, two] = await Promise.all([openDatabase({ kind: 'postgres', url: created.url }), openDatabase({ kind: 'postgres', url: created.url })]);
    open.push(one, two);
    const opts = { seedDemo: true, demoPassword: DEMO_PASSWORD };
    const results = await Promise.all([seed(one.db, opts), seed(two.db, opts)]);
    expect(results.filter((r) => r.adminCreated)).toHaveLength(1);
    expect(results.filter((r) => r.generatedAdminPassword)).toHaveLength(1);
    const fresh = await Promise.all([seedDemoFleet(one.db), seedDemoFleet(two.db)]);
    expect(fresh.filter(Boolean)).toHaveLength(1);

    const c = new pg.Client({ connectionString: created.url });
    await c.connect();
    try {
      const { rows } = await c.query<Record<string, number>>(`select
        (select count(*)::int from orgs where code in ('platform', 'demo')) as orgs,
        (select count(*)::int from users where lower(account) in ('admin', 'demo')) as accounts,
        (select count(*)::int from roles) as roles,
        (select count(*)::int from devices) as devices,
        (select count(*)::int from assets) - (select count(distinct (org_id, code))::int from assets) as "repeatedAssets",
        (select count(*)::int from alarm_policies) - (select count(distinct name)::int from alarm_policies) as "repeatedPolicies"`);
      // The demo fleet: 21 devices (README), each once.
      expect(rows[0]).toEqual({ orgs: 2, accounts: 2, roles: 3, devices: 21, repeatedAssets: 0, repeatedPolicies: 0 });
    } finally {
      await c.end();
    }
  }, 60_000);
});

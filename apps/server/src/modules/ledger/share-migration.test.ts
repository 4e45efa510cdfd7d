// Migration 0020 on an installation that already has share links (made when links could live
// for ever): each gets an id and its scope's kind; one without an expiry ends 30 days after the
// upgrade, one with an expiry keeps it; none is revoked. On PGlite, and on PostgreSQL when
// DATABASE_URL is set.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { rowsOf } from '../../db/client.ts';
import { createPgDatabase } from '../../test/harness.ts';

const DAY = 86_400_000;
const folder = join(dirname(fileURLToPath(import.meta.url)), '../../../drizzle');
const before = mkdtempSync(join(tmpdir(), 'share-migration-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
  rmSync(before, { recursive: true, force: true });
});

/** The migrations folder as it was before 0020. */
function foldersBefore0020(): string {
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] };
  const kept = journal.entries.filter((e) => e.idx < 20);
  cpSync(join(folder, 'meta'), join(before, 'meta'), { recursive: true });
  writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: kept }));
  for (const f of readdirSync(folder)) if (kept.some((e) => f === `${e.tag}.sql`)) cpSync(join(folder, f), join(before, f));
  return before;
}

type Exec = (query: ReturnType<typeof sql>) => Promise<unknown>;

async function engine(): Promise<{ exec: Exec; migrate: (migrationsFolder: string) => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const made = await createPgDatabase(process.env.DATABASE_URL);
    const pool = new pg.Pool({ connectionString: made.url, max: 2 });
    cleanups.push(async () => {
      await pool.end();
      await made.drop();
    });
    const db = drizzlePg(pool);
    return { exec: (q) => db.execute(q), migrate: (migrationsFolder) => migratePg(db, { migrationsFolder }) };
  }
  const client = await PGlite.create();
  cleanups.push(() => client.close());
  const db = drizzlePglite(client);
  return { exec: (q) => db.execute(q), migrate: (migrationsFolder) => migratePglite(db, { migrationsFolder }) };
}

describe('migration 0020 (share links end)', () => {
  it('gives existing links an id, a kind and an end: 30 days after the upgrade when they had none', async () => {
    const { exec, migrate } = await engine();
    await migrate(foldersBefore0020());
    const [org] = rowsOf<{ id: string }>(await exec(sql`insert into orgs (code, name) values ('old', 'Old Org') returning id`));
    const kept = new Date(Date.now() + 3000 * DAY);
    await exec(sql`insert into ledger_shares (token_hash, org_id, scope, created_by, created_at, expires_at) values
      ('h-task', ${org!.id}, ${JSON.stringify({ taskId: '00000000-0000-4000-8000-000000000001' })}::jsonb, 'ops', now() - interval '400 days', null),
      ('h-device', ${org!.id}, ${JSON.stringify({ deviceId: '00000000-0000-4000-8000-000000000002', from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' })}::jsonb, 'ops', now(), ${kept.toISOString()}::timestamptz),
      ('h-batch', ${org!.id}, ${JSON.stringify({ warehouseBatch: 'B-1' })}::jsonb, 'ops', now(), null),
      ('h-record', ${org!.id}, ${JSON.stringify({ warehouseRecordId: '00000000-0000-4000-8000-000000000003' })}::jsonb, 'ops', now(), null)`);

    const upgradedAt = Date.now();
    await migrate(folder);
    const rows = rowsOf<{ id: string; token_hash: string; kind: string; expires_at: Date | string; revoked_at: unknown }>(
      await exec(sql`select id, token_hash, kind, expires_at, revoked_at from ledger_shares order by token_hash`),
    );
    expect(rows.map((r) => [r.token_hash, r.kind])).toEqual([
      ['h-batch', 'batch'],
      ['h-device', 'device'],
      ['h-record', 'warehouseRecord'],
      ['h-task', 'task'],
    ]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(4);
    for (const r of rows) {
      expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.revoked_at).toBeNull();
      const end = new Date(r.expires_at).getTime();
      if (r.token_hash === 'h-device') expect(end).toBe(kept.getTime());
      else {
        // now() of the migration's transaction: between the moment before and a minute after.
        expect(end).toBeGreaterThanOrEqual(upgradedAt + 30 * DAY - 5_000);
        expect(end).toBeLessThanOrEqual(Date.now() + 30 * DAY);
      }
    }
    // Still one link per token.
    await expect(exec(sql`insert into ledger_shares (token_hash, org_id, kind, scope, created_by, expires_at) values ('h-task', ${org!.id}, 'task', '{}'::jsonb, 'x', now())`)).rejects.toThrow();
  });
});

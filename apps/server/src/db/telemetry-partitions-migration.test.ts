// Migration 0025 on an installation that already has readings: the readings table becomes
// partitioned by month and keeps every reading (count and a checksum of all columns), each in
// its month's partition (UTC months, whatever the session's time zone), with the same key and
// indexes; the intake's insert still works on it. On PGlite, and on PostgreSQL when DATABASE_URL
// is set.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { rowsOf, type Db } from './client.ts';
import * as schema from './schema.ts';
import { createPgDatabase } from '../test/harness.ts';
import { readingStore } from '../ingest/store.ts';

const folder = join(dirname(fileURLToPath(import.meta.url)), '../../drizzle');
const temp = mkdtempSync(join(tmpdir(), 'partition-migration-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
  rmSync(temp, { recursive: true, force: true });
});

/** The migrations folder as it was before the migration tagged `tag` (journal trimmed, files copied). */
function migrationsBefore(tag: string): string {
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] };
  const at = journal.entries.find((e) => e.tag === tag);
  if (!at) throw new Error(`no migration ${tag}`);
  const kept = journal.entries.filter((e) => e.idx < at.idx);
  const dir = mkdtempSync(join(temp, 'before-'));
  cpSync(join(folder, 'meta'), join(dir, 'meta'), { recursive: true });
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: kept }));
  for (const f of readdirSync(folder)) if (kept.some((e) => f === `${e.tag}.sql`)) cpSync(join(folder, f), join(dir, f));
  return dir;
}

/** A fresh database whose sessions use a time zone far from UTC (partition bounds must not follow it). */
async function engine(): Promise<{ db: Db; exec: (q: SQL) => Promise<unknown>; migrate: (migrationsFolder: string) => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const made = await createPgDatabase(process.env.DATABASE_URL);
    const pool = new pg.Pool({ connectionString: made.url, max: 3, options: '-c TimeZone=Asia/Shanghai' });
    cleanups.push(async () => {
      await pool.end();
      await made.drop();
    });
    const db = drizzlePg(pool, { schema });
    return { db: db as unknown as Db, exec: (q) => db.execute(q), migrate: (migrationsFolder) => migratePg(db, { migrationsFolder }) };
  }
  const client = await PGlite.create();
  cleanups.push(() => client.close());
  await client.exec(`set time zone 'Asia/Shanghai'`);
  const db = drizzlePglite(client, { schema });
  return { db: db as unknown as Db, exec: (q) => db.execute(q), migrate: (migrationsFolder) => migratePglite(db, { migrationsFolder }) };
}

const HOUR = 3_600_000;
const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const partitionOf = (month: string) => `telemetry_p${month.replace('-', '_')}`;

/** Count and an MD5 over every column of every reading (in key order). */
const checksum = sql`select count(*)::int as n, md5(coalesce(string_agg(row(org_id, device_ref, time, received_at, lat, lon, positioning, network,
  speed, course, raw, sensors)::text, E'\n' order by device_ref, time), '')) as sum from telemetry`;
/** Readings per table they are stored in. */
const placement = sql`select tableoid::regclass::text as p, count(*)::int as n from telemetry group by 1 order by 1`;

describe('migration 0025 (readings partitioned by month)', () => {
  it('keeps every reading, each in its UTC month, with the same key and indexes', async () => {
    const { db, exec, migrate } = await engine();
    await migrate(migrationsBefore('0025_telemetry_partitions'));
    const [org] = rowsOf<{ id: string }>(await exec(sql`insert into orgs (code, name) values ('old', 'Old Org') returning id`));
    const [dev] = rowsOf<{ id: string }>(
      await exec(sql`insert into devices (org_id, device_id, name, secret_hash) values (${org!.id}, 'OLD-1', 'old 1', 'x') returning id`),
    );
    const other = '00000000-0000-4000-8000-0000000000b2';
    // Device 1: every 6 h from 1 August 2026 to now; device 2: either side of a month's edge,
    // one far in the past, one in the future, and a reading with nothing but its raw report.
    const start = Date.UTC(2026, 7, 1);
    const times: { ref: string; ms: number }[] = [];
    for (let ms = start; ms <= Math.max(Date.now(), start + 120 * 24 * HOUR); ms += 6 * HOUR) times.push({ ref: dev!.id, ms });
    const edges = [Date.UTC(2026, 8, 30, 23, 59, 59, 999), Date.UTC(2026, 9, 1), Date.UTC(2001, 2, 15, 12), Date.UTC(2031, 5, 1, 8)];
    for (const ms of edges) times.push({ ref: other, ms });
    await exec(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, positioning, network, speed, course, raw, sensors)
      select ${org!.id}::uuid, x.ref::uuid, to_timestamp(x.ms / 1000.0), to_timestamp(x.ms / 1000.0) + interval '3 seconds',
        case when x.i % 5 = 0 then null else 31.2 + x.i * 1e-5 end, case when x.i % 5 = 0 then null else 121.4 - x.i * 1e-5 end,
        case when x.i % 3 = 0 then 'LBS' else 'GPS' end, '4G', x.i % 90 + 0.25, (x.i * 7) % 360,
        jsonb_build_object('3', jsonb_build_object('temp', x.i), 'note', '冷链 ' || x.i), jsonb_build_object('temperature', x.i / 10.0)
      from jsonb_to_recordset(${JSON.stringify(times.map((t, i) => ({ ...t, i })))}::jsonb) as x(ref text, ms float8, i int)`);
    await exec(sql`insert into telemetry (org_id, device_ref, time, raw, sensors) values
      (${org!.id}, ${other}, '2026-10-15T00:00:00Z', '"raw only, 原始"'::jsonb, '{}'::jsonb)`);
    times.push({ ref: other, ms: Date.UTC(2026, 9, 15) });

    const before = rowsOf<{ n: number; sum: string }>(await exec(checksum))[0]!;
    expect(before.n).toBe(times.length);

    await migrate(folder);

    const after = rowsOf<{ n: number; sum: string }>(await exec(checksum))[0]!;
    expect(after).toEqual(before);
    const [kind] = rowsOf<{ k: string }>(await exec(sql`select relkind::text as k from pg_class where relname = 'telemetry'`));
    expect(kind!.k).toBe('p');
    expect(rowsOf(await exec(sql`select 1 from pg_class where relname = 'telemetry_unpartitioned'`))).toHaveLength(0);

    // Each reading in its UTC month's partition; none in the default one.
    const expected = new Map<string, number>();
    for (const t of times) expected.set(partitionOf(monthOf(t.ms)), (expected.get(partitionOf(monthOf(t.ms))) ?? 0) + 1);
    expect(rowsOf<{ p: string; n: number }>(await exec(placement))).toEqual([...expected].sort(([a], [b]) => a.localeCompare(b)).map(([p, n]) => ({ p, n })));

    // Partitions: every month with readings, this month and the next two, and the default one.
    const now = new Date();
    const ahead = [0, 1, 2].map((k) => partitionOf(monthOf(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1))));
    const parts = rowsOf<{ name: string; bound: string }>(
      await exec(sql`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'telemetry'::regclass order by 1`),
    );
    expect(parts.map((p) => p.name)).toEqual([...new Set([...expected.keys(), ...ahead, 'telemetry_default'])].sort());
    // Bounds are UTC month starts (shown in the session's zone, Shanghai: 08:00).
    expect(parts.find((p) => p.name === 'telemetry_p2026_10')!.bound).toBe("FOR VALUES FROM ('2026-10-01 08:00:00+08') TO ('2026-11-01 08:00:00+08')");
    expect(parts.find((p) => p.name === 'telemetry_default')!.bound).toBe('DEFAULT');

    // The key and both indexes, on the parent and on each partition.
    const indexes = rowsOf<{ t: string; def: string }>(
      await exec(sql`select tablename as t, indexdef as def from pg_indexes where tablename in ('telemetry', 'telemetry_p2026_10', 'telemetry_default') order by 1, 2`),
    );
    for (const t of ['telemetry', 'telemetry_p2026_10', 'telemetry_default']) {
      const defs = indexes.filter((i) => i.t === t).map((i) => i.def.replace(/ ON (ONLY )?\S+ /, ' ON x ').replace(/INDEX \S+/, 'INDEX'));
      expect(defs.sort()).toEqual(['CREATE INDEX ON x USING brin (received_at)', 'CREATE INDEX ON x USING btree (org_id, "time")', 'CREATE UNIQUE INDEX ON x USING btree (device_ref, "time")'].sort());
    }
    const [pk] = rowsOf<{ def: string }>(await exec(sql`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'telemetry_pk'`));
    expect(pk!.def).toBe('PRIMARY KEY (device_ref, "time")');

    // The intake's insert: a new reading lands in its month, a repeat is ignored, a reading of a
    // month without a partition lands in the default one.
    const store = readingStore(db);
    const reading = (time: Date) => ({ orgId: org!.id, deviceRef: dev!.id, time, lat: 1, lon: 2, acc: null, raw: { r: 1 }, sensors: { temperature: 4 } });
    const fresh = new Date(Date.now() - 5_000);
    const far = new Date(Date.UTC(2040, 0, 2));
    expect((await store.store([reading(fresh), reading(far)])).inserted).toBe(2);
    expect((await store.store([reading(fresh)])).inserted).toBe(0);
    await store.flushed();
    const landed = rowsOf<{ p: string; time: Date | string }>(
      await exec(sql`select tableoid::regclass::text as p, time from telemetry where device_ref = ${dev!.id} and time in (${fresh.toISOString()}::timestamptz, ${far.toISOString()}::timestamptz) order by time`),
    );
    expect(landed.map((r) => r.p)).toEqual([partitionOf(monthOf(fresh.getTime())), 'telemetry_default']);
  });

  it('migrates an installation without readings', async () => {
    const { exec, migrate } = await engine();
    await migrate(migrationsBefore('0025_telemetry_partitions'));
    await migrate(folder);
    expect(rowsOf<{ n: number }>(await exec(sql`select count(*)::int as n from pg_inherits where inhparent = 'telemetry'::regclass`))[0]!.n).toBe(4);
  });
});

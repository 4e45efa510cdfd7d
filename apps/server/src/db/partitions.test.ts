// The readings table's month partitions (db/partitions.ts): created ahead, readings of a month
// waiting in the default partition moved in when its partition is made, idempotent, one creation
// per month when two nodes race, a month dropped exactly, sizes listed, reads pruned to the
// months they ask for, and the job running at start. On PGlite, and on PostgreSQL when
// DATABASE_URL is set (two nodes: two pools on one database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, rowsOf, type Database, type Db } from './client.ts';
import { createPgDatabase } from '../test/harness.ts';
import { addMonths, createMonth, dropMonth, ensurePartitions, listPartitions, type CreatedMonth } from './partitions.ts';

let node1: Database;
let node2: Database;
let drop: (() => Promise<void>) | undefined;
let db: Db;
let pgUrl: string | undefined;

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    const made = await createPgDatabase(process.env.DATABASE_URL);
    drop = made.drop;
    pgUrl = made.url;
    node1 = await openDatabase({ kind: 'postgres', url: made.url });
    node2 = await openDatabase({ kind: 'postgres', url: made.url });
  } else {
    // One embedded database is one process: the "second node" is the same database.
    node1 = await openDatabase({ kind: 'pglite' });
    node2 = node1;
  }
  db = node1.db;
});
afterAll(async () => {
  if (node2 !== node1) await node2?.close();
  await node1?.close();
  await drop?.();
});

const ORG = '00000000-0000-4000-8000-00000000000a';
const DEV = ['00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000d2'];

/** Stores readings at the given times (ISO), alternating between two devices. */
async function insert(times: string[]): Promise<void> {
  const rows = times.map((t, i) => ({ ref: DEV[i % 2], t, i }));
  await db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, speed, raw, sensors)
    select ${ORG}::uuid, x.ref::uuid, x.t::timestamptz, 30 + x.i * 1e-4, 120.5, x.i * 0.5, jsonb_build_object('n', x.i, 's', '冷' || x.i), jsonb_build_object('temperature', x.i)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(ref text, t text, i int)
    on conflict (device_ref, time) do nothing`);
}

/** Count and MD5 of every column of the readings matching `where` (time ranges as ISO strings). */
async function checksum(where: SQL = sql`true`): Promise<{ n: number; sum: string }> {
  return rowsOf<{ n: number; sum: string }>(
    await db.execute(sql`select count(*)::int as n, md5(coalesce(string_agg(row(org_id, device_ref, time, received_at, lat, lon, positioning, network,
      speed, course, raw, sensors)::text, E'\n' order by device_ref, time), '')) as sum from telemetry where ${where}`),
  )[0]!;
}

/** Readings per table holding them, among those between from and to. */
async function placement(from: string, to: string): Promise<Record<string, number>> {
  const r = rowsOf<{ p: string; n: number }>(
    await db.execute(sql`select tableoid::regclass::text as p, count(*)::int as n from telemetry where time >= ${from}::timestamptz and time < ${to}::timestamptz group by 1`),
  );
  return Object.fromEntries(r.map((x) => [x.p, x.n]));
}

const partitionNames = async () => (await listPartitions(db)).map((p) => p.name);
const made = (r: CreatedMonth[]) => r.filter((m) => m.created).map((m) => m.month);

describe('month partitions', () => {
  it('creates this month and the next two ahead, moving in the readings the default partition held for them', async () => {
    // Readings of months without a partition wait in the default one.
    await insert(['2040-02-17T10:00:00Z', '2040-02-01T00:00:00Z', '2040-03-31T23:59:59.999Z', '2040-03-01T00:00:00Z', '2040-03-15T08:00:00Z', '2040-07-04T00:00:00Z', '2040-01-31T23:59:59.999Z']);
    expect(await placement('2040-01-01', '2041-01-01')).toEqual({ telemetry_default: 7 });
    const before = await checksum();
    expect(await partitionNames()).not.toContain('telemetry_p2040_02');

    const r = await ensurePartitions(db, { now: new Date('2040-02-10T12:00:00Z') });
    expect(r).toEqual([
      { month: '2040-02', created: true, moved: 2 },
      { month: '2040-03', created: true, moved: 3 },
      { month: '2040-04', created: true, moved: 0 },
    ]);
    // Nothing lost, nothing changed; each reading in its month, the others left in the default partition.
    expect(await checksum()).toEqual(before);
    expect(await placement('2040-01-01', '2041-01-01')).toEqual({ telemetry_default: 2, telemetry_p2040_02: 2, telemetry_p2040_03: 3 });
    expect(await partitionNames()).toEqual(expect.arrayContaining(['telemetry_p2040_02', 'telemetry_p2040_03', 'telemetry_p2040_04', 'telemetry_default']));

    // The new partitions carry the key: the intake's repeat of a stored reading is ignored.
    await insert(['2040-02-17T10:00:00Z']);
    expect(await checksum()).toEqual(before);
  });

  it('is idempotent: a second run creates and moves nothing', async () => {
    const names = await partitionNames();
    const r = await ensurePartitions(db, { now: new Date('2040-02-10T12:00:00Z') });
    expect(r.map((m) => [m.month, m.created, m.moved])).toEqual([
      ['2040-02', false, 0],
      ['2040-03', false, 0],
      ['2040-04', false, 0],
    ]);
    expect(await partitionNames()).toEqual(names);
  });

  it('creates each month once when two nodes race', async () => {
    await insert(['2041-05-05T05:00:00Z', '2041-06-06T06:00:00Z']);
    const now = new Date('2041-05-01T00:00:00Z');
    const [a, b] = await Promise.all([ensurePartitions(node1.db, { now }), ensurePartitions(node2.db, { now })]);
    expect([...made(a), ...made(b)].sort()).toEqual(['2041-05', '2041-06', '2041-07']);
    expect([...a, ...b].reduce((s, m) => s + m.moved, 0)).toBe(2);
    expect(await placement('2041-01-01', '2042-01-01')).toEqual({ telemetry_p2041_05: 1, telemetry_p2041_06: 1 });
  });

  it.runIf(process.env.DATABASE_URL)('an insert arriving while a month is created waits, then lands in the new partition', async () => {
    // A read of the default partition in progress makes the creation wait, holding the inserts.
    const reader = new pg.Client({ connectionString: pgUrl });
    await reader.connect();
    /** Sessions of this database waiting for a lock in a statement starting with `text`. */
    const waiting = async (text: string) =>
      rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like ${`${text}%`}`),
      )[0]!.n;
    try {
      await reader.query('begin');
      await reader.query('select count(*) from telemetry_default');
      const creating = createMonth(node1.db, '2042-03', { lockWaitMs: 60_000 }).catch((e: unknown) => e);
      await expect.poll(() => waiting('lock table telemetry_default')).toBe(1);
      const inserting = node2.db.execute(sql`insert into telemetry (org_id, device_ref, time, raw, sensors) values (${ORG}, ${DEV[0]}, '2042-03-09T00:00:00Z', '{}', '{}')
        on conflict (device_ref, time) do nothing`).then(() => 'stored', (e: unknown) => e); // (started now: drizzle's queries run when awaited)
      await expect.poll(async () => waiting('insert into telemetry')).toBe(1);
      await reader.query('commit');
      expect(await creating).toEqual({ month: '2042-03', created: true, moved: 0 });
      expect(await inserting).toBe('stored');
      expect(await placement('2042-03-01', '2042-04-01')).toEqual({ telemetry_p2042_03: 1 });
    } finally {
      await reader.end();
    }
  });

  it('drops exactly one month, and its late readings in the default partition', async () => {
    const month = (m: string) => sql`time >= ${`${m}-01`}::timestamptz and time < ${`${addMonths(m, 1)}-01`}::timestamptz`;
    const others = sql`not (${month('2040-03')})`;
    const keep = await checksum(others);
    expect((await checksum(month('2040-03'))).n).toBe(3);

    expect(await dropMonth(db, '2040-03')).toEqual({ month: '2040-03', dropped: true, deletedFromDefault: 0 });
    expect(await checksum(others)).toEqual(keep);
    expect((await checksum(month('2040-03'))).n).toBe(0);
    expect(await partitionNames()).not.toContain('telemetry_p2040_03');
    // The edges stay: the last instant of February and the first of April are not March.
    expect((await checksum(sql`time in ('2040-02-29T23:59:59.999Z'::timestamptz, '2040-04-01T00:00:00Z'::timestamptz)`)).n).toBe(0);
    await insert(['2040-02-29T23:59:59.999Z', '2040-04-01T00:00:00Z']);
    expect(await placement('2040-02-29T23:00:00Z', '2040-04-01T01:00:00Z')).toEqual({ telemetry_p2040_02: 1, telemetry_p2040_04: 1 });

    // A late reading of the dropped month waits in the default partition; dropping again removes it.
    await insert(['2040-03-20T00:00:00Z']);
    expect(await placement('2040-03-01', '2040-04-01')).toEqual({ telemetry_default: 1 });
    const keep2 = await checksum(others);
    expect(await dropMonth(db, '2040-03')).toEqual({ month: '2040-03', dropped: false, deletedFromDefault: 1 });
    expect(await checksum(others)).toEqual(keep2);
    expect((await checksum(month('2040-03'))).n).toBe(0);
  });

  it('refuses a malformed month', async () => {
    await expect(dropMonth(db, '2040-3')).rejects.toThrow(/not a month/);
    await expect(createMonth(db, '2040-13')).rejects.toThrow(/not a month/);
    await expect(dropMonth(db, "2040-03'; drop table telemetry; --")).rejects.toThrow(/not a month/);
  });

  it('lists each month with its rows and bytes, the default partition last', async () => {
    const list = await listPartitions(db);
    expect(list.at(-1)).toMatchObject({ name: 'telemetry_default', month: null });
    const feb = list.find((p) => p.month === '2040-02')!;
    expect(feb.name).toBe('telemetry_p2040_02');
    expect(feb.bytes).toBeGreaterThan(8192);
    const months = list.filter((p) => p.month).map((p) => p.month!);
    expect(months).toEqual([...months].sort());
    expect(months).toEqual(expect.arrayContaining(['2040-02', '2040-04', '2041-05', '2041-06', '2041-07']));
    // The figure is the statistics' (exact for tables this small once analysed).
    await db.execute(sql`analyze telemetry_p2040_02, telemetry_default`);
    const after = await listPartitions(db);
    expect(after.find((p) => p.month === '2040-02')).toMatchObject({ rows: 3, exact: false });
    expect(after.at(-1)).toMatchObject({ rows: 2, exact: false });
    // A partition without statistics (created empty, never analysed) is counted.
    await insert(['2040-04-02T00:00:00Z', '2040-04-03T00:00:00Z', '2040-04-04T00:00:00Z', '2040-04-05T00:00:00Z']);
    expect((await listPartitions(db)).find((p) => p.month === '2040-04')).toMatchObject({ rows: 5, exact: true });
  });

  it("prunes a device's time-range read to the months asked for", async () => {
    const plan = async (q: SQL) => rowsOf<{ 'QUERY PLAN': string }>(await db.execute(sql`explain ${q}`)).map((r) => r['QUERY PLAN']).join('\n');
    const scanned = (text: string) => [...new Set(text.match(/telemetry_(p\d{4}_\d{2}|default)/g) ?? [])].sort();
    expect(
      scanned(await plan(sql`select time, lat, lon from telemetry where device_ref = ${DEV[0]} and time >= '2040-02-10T00:00:00Z' and time < '2040-04-05T00:00:00Z' order by time`)),
    ).toEqual(['telemetry_default', 'telemetry_p2040_02', 'telemetry_p2040_04']);
    // Within months that all have partitions, the default one is left out too.
    expect(scanned(await plan(sql`select time, sensors from telemetry where device_ref = ${DEV[0]} and time >= '2041-05-03T00:00:00Z' and time < '2041-06-10T00:00:00Z'`))).toEqual([
      'telemetry_p2041_05',
      'telemetry_p2041_06',
    ]);
    expect(scanned(await plan(sql`select count(*) from telemetry where org_id = ${ORG} and time >= '2041-06-01T00:00:00Z' and time < '2041-06-02T00:00:00Z'`))).toEqual(['telemetry_p2041_06']);
  });
});

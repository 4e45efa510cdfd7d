// The readings table's month partitions (migration 0025): `telemetry` is range-partitioned by
// `time`, one partition per UTC month named telemetry_pYYYY_MM, and a DEFAULT partition takes a
// reading whose month has none. This job keeps this month's partition and the next ones created
// ahead of the intake, one node at a time (an advisory lock); removing a month is dropping its
// partition (dropMonth), and listPartitions tells each month's rows and bytes.
//
// Creating a month whose readings already sit in the default partition (a device whose clock ran
// ahead) moves them in first: in one transaction the table is created, the month's rows moved
// from the default partition into it, and it is attached, so creation never fails on them and
// nothing is lost. Inserts wait for those few milliseconds, once a month.
import { sql } from 'drizzle-orm';
import { LOCKS, rowsOf, xactLock, type Db, type Executor } from './client.ts';

/** Months created ahead of this one (this month, and this many after it). */
export const AHEAD_MONTHS = 2;
/** How often the job looks (creating is rare: a month ahead is there weeks before it is needed). */
export const PARTITION_JOB_MS = 3_600_000;

const DEFAULT_PARTITION = 'telemetry_default';
/** The longest creating a month waits for the tables' locks (the intake waits behind it meanwhile). */
const LOCK_WAIT_MS = 3_000;
const COLUMNS = 'org_id, device_ref, time, received_at, lat, lon, positioning, network, speed, course, raw, sensors';
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** 'YYYY-MM' of a time, in UTC. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The month `n` months after `month` ('YYYY-MM'). */
export function addMonths(month: string, n: number): string {
  const [y, m] = parseMonth(month);
  return monthOf(new Date(Date.UTC(y, m - 1 + n, 1)));
}

function parseMonth(month: string): [number, number] {
  const m = MONTH.exec(month);
  if (!m || m[1] === '0000') throw new Error(`not a month (YYYY-MM): ${month}`);
  return [Number(m[1]), Number(m[2])];
}

/** The partition of a month: telemetry_p2026_11. */
export function partitionName(month: string): string {
  parseMonth(month);
  return `telemetry_p${month.replace('-', '_')}`;
}

/** The month's bounds as timestamptz literals (UTC month starts): [from, to). */
/** A month's [first instant, first instant of the next) as ISO texts. */
export function monthBounds(month: string): [string, string] {
  return [`${month}-01 00:00:00+00`, `${addMonths(month, 1)}-01 00:00:00+00`];
}

/** Whether the month's partition is attached to the readings table. */
async function attached(q: Executor, name: string): Promise<boolean> {
  const r = rowsOf(
    await q.execute(sql`select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'telemetry'::regclass and c.relname = ${name}`),
  );
  return r.length > 0;
}

export interface CreatedMonth {
  month: string;
  /** False when the partition was there already (made by another node, or before). */
  created: boolean;
  /** Readings of the month moved in from the default partition. */
  moved: number;
}

/**
 * Creates a month's partition if it is not there, moving in the month's readings that the
 * default partition holds. One node at a time: the others wait, then find it made.
 */
export async function createMonth(db: Db, month: string, opts: { lockWaitMs?: number } = {}): Promise<CreatedMonth> {
  const name = partitionName(month);
  const [from, to] = monthBounds(month);
  return db.transaction(async (tx) => {
    await xactLock(tx, LOCKS.partitions);
    if (await attached(tx, name)) return { month, created: false, moved: 0 };
    // Inserts wait meanwhile (reads go on): one waiting at the default partition would find, at
    // its turn, the month no longer the default's and fail; one waiting at the parent is routed
    // afresh to the new partition. Then the default partition, at the level the attach needs (no
    // lock upgraded mid-way). Not waiting long for them (a long read of the default partition):
    // the intake would wait as long; the next turn tries again.
    await tx.execute(sql.raw(`set local lock_timeout = '${Math.round(opts.lockWaitMs ?? LOCK_WAIT_MS)}ms'`));
    await tx.execute(sql.raw(`lock table only telemetry in share row exclusive mode`));
    await tx.execute(sql.raw(`lock table ${DEFAULT_PARTITION} in access exclusive mode`));
    await tx.execute(sql.raw(`create table ${name} (like telemetry including defaults)`));
    const moved = await tx.execute(
      sql.raw(`with moved as (delete from ${DEFAULT_PARTITION} where time >= '${from}' and time < '${to}' returning ${COLUMNS})
        insert into ${name} (${COLUMNS}) select ${COLUMNS} from moved`),
    );
    await tx.execute(sql.raw(`alter table telemetry attach partition ${name} for values from ('${from}') to ('${to}')`));
    return { month, created: true, moved: affected(moved) };
  });
}

/** Rows an insert, update or delete touched (node-postgres: rowCount; PGlite: affectedRows). */
function affected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return r.rowCount ?? r.affectedRows ?? 0;
}

/** Makes sure this month's partition and the next AHEAD_MONTHS (or `ahead`) exist. */
export async function ensurePartitions(db: Db, opts: { now?: Date; ahead?: number } = {}): Promise<CreatedMonth[]> {
  const first = monthOf(opts.now ?? new Date());
  const out: CreatedMonth[] = [];
  for (let k = 0; k <= (opts.ahead ?? AHEAD_MONTHS); k++) out.push(await createMonth(db, addMonths(first, k)));
  return out;
}

export interface DroppedMonth {
  month: string;
  /** Whether the month had a partition (detached and dropped). */
  dropped: boolean;
  /** Readings of the month deleted from the default partition (ones that arrived after an earlier drop). */
  deletedFromDefault: number;
}

/**
 * Removes a month of readings: its partition is detached and dropped, and any of its readings
 * in the default partition deleted. `guard`, run in the transaction once inserts wait, may refuse
 * (nothing changes). A reading of that month arriving later goes to the default
 * partition (the month is not created again unless it is among the months ahead).
 */
export async function dropMonth(db: Db, month: string, opts: { guard?: (tx: Executor) => Promise<boolean> } = {}): Promise<DroppedMonth> {
  const name = partitionName(month);
  const [from, to] = monthBounds(month);
  return db.transaction(async (tx) => {
    await xactLock(tx, LOCKS.partitions);
    const had = await attached(tx, name);
    // Detaching holds the readings table exclusively (reads and inserts wait): not for long.
    await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_WAIT_MS}ms'`));
    if (opts.guard) {
      // Inserts wait from here (at the parent, before any partition: no deadlock with the detach),
      // so what the guard finds stays true until the drop; it may refuse.
      await tx.execute(sql.raw(`lock table only telemetry in share row exclusive mode`));
      if (!(await opts.guard(tx))) return { month, dropped: false, deletedFromDefault: 0 };
    }
    if (had) {
      await tx.execute(sql.raw(`alter table telemetry detach partition ${name}`));
      await tx.execute(sql.raw(`drop table ${name}`));
    }
    const deleted = await tx.execute(sql.raw(`delete from ${DEFAULT_PARTITION} where time >= '${from}' and time < '${to}'`));
    return { month, dropped: had, deletedFromDefault: affected(deleted) };
  });
}

export interface PartitionInfo {
  name: string;
  /** 'YYYY-MM', or null for the default partition. */
  month: string | null;
  /** Rows: the planner's estimate, or counted when the table was never analysed (`exact`). */
  rows: number;
  exact: boolean;
  /** Table, indexes and TOAST (pg_total_relation_size). */
  bytes: number;
}

/**
 * The readings table's partitions, by month (the default partition last). Row figures are the
 * statistics' estimate; a partition never analysed (new ones, and every one on PGlite, which has
 * no autovacuum) is counted instead.
 */
export async function listPartitions(db: Executor): Promise<PartitionInfo[]> {
  const parts = rowsOf<{ name: string; reltuples: number | string; bytes: number | string }>(
    await db.execute(sql`select c.relname as name, c.reltuples::float8 as reltuples, pg_total_relation_size(c.oid)::int8 as bytes
      from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'telemetry'::regclass`),
  );
  const out: PartitionInfo[] = [];
  for (const p of parts) {
    const m = /^telemetry_p(\d{4})_(\d{2})$/.exec(p.name);
    const estimate = Number(p.reltuples);
    const exact = estimate < 0;
    const rows = exact
      ? Number(rowsOf<{ n: number | string }>(await db.execute(sql.raw(`select count(*)::int8 as n from "${p.name.replace(/"/g, '""')}"`)))[0]!.n)
      : Math.round(estimate);
    out.push({ name: p.name, month: m ? `${m[1]}-${m[2]}` : null, rows, exact, bytes: Number(p.bytes) });
  }
  return out.sort((a, b) => (a.month ?? '\uffff').localeCompare(b.month ?? '\uffff'));
}

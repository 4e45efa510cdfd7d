// Opens the database: PGlite on disk under DATA_DIR (or in memory for tests) by default, a
// real PostgreSQL when a URL is given. Both speak the same dialect and get the same migrations.
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir, type DataDirLock } from './data-lock.ts';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The rows of a raw `execute()`: node-postgres answers `{ rows }`, PGlite an array-like result with `rows` too. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** What raw statements need: the database, or a transaction of it. */
export type Executor = Pick<Db, 'execute'>;
/** The handle of a transaction (`db.transaction(async (tx) => ...)`). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The advisory lock namespaces (the first key of the two-key form), all here so that no two
 * uses share one by accident.
 */
export const LOCKS = {
  /** The alarm engine's per-device rule states. */
  alarmDevice: 72_001,
  /** The alarm scheduler's tick (one node at a time). */
  alarmTick: 72_002,
  /** The push escalation and retry tick (one node at a time). */
  pushTick: 72_003,
  /** A device's fault counters. */
  faultDevice: 72_101,
  /** Drawing the next work order code of an organisation. */
  workOrderCode: 72_102,
  /** Drawing the next transport task code of an organisation. */
  taskCode: 72_201,
  /** A transport task's status (the recogniser and people change it one at a time). */
  task: 72_202,
  /** The remote-control time-out check (one node at a time). */
  commandTimeout: 72_301,
  /** The ledger: appending leaves and signing tree heads (one node at a time). */
  ledger: 72_401,
  /** The seed and the demo fleet at start: nodes starting together on one database take turns. */
  seed: 72_501,
  /** Creating and dropping the readings table's month partitions (db/partitions.ts). */
  partitions: 72_601,
  /** Retention's removals of a device's readings (modules/retention/job.ts): one node at a time per device. */
  retentionDevice: 72_602,
  /** The storage figures' daily snapshot (modules/storage; one node at a time). */
  storage: 72_603,
  /** The excursion budgets' alarm round (modules/product; one node at a time). */
  productBudgets: 72_701,
} as const;

/**
 * A transaction-scoped advisory lock if no one holds it (a lease: one node does a job at a
 * time, and the lock ends with the transaction).
 */
export async function tryXactLock(q: Executor, key: number): Promise<boolean> {
  return rowsOf<{ ok: boolean }>(await q.execute(sql`select pg_try_advisory_xact_lock(${key}, 0) as ok`))[0]?.ok === true;
}

/** Waits for the transaction-scoped advisory lock `key` and holds it until the transaction ends. */
export async function xactLock(q: Executor, key: number): Promise<void> {
  await q.execute(sql`select pg_advisory_xact_lock(${key}, 0)`);
}

/**
 * Waits for and holds until the transaction ends the locks of `keys` in the namespace, taken in
 * one order so that two lockers of overlapping sets never wait on each other.
 */
export async function xactLockKeys(q: Executor, namespace: number, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const sorted = [...keys].sort();
  await q.execute(sql`select count(pg_advisory_xact_lock(${namespace}, hashtext(x))) from unnest(${`{${sorted.join(',')}}`}::text[]) as x`);
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /**
   * Whether the database answers, on a connection of its own (PostgreSQL: never a pooled one,
   * so a busy pool is not taken for an outage); rejects within PING_TIMEOUT_MS when it does not.
   */
  ping?(): Promise<void>;
}

/**
 * Time-outs of the PostgreSQL pool, so that an unreachable or silent database makes a query fail
 * in seconds rather than hang: opening a connection or waiting for a pooled one; a statement
 * (cancelled by the server, which leaves the connection usable); the client's own limit for a
 * server that does not answer at all (a little longer, so the server's cancel comes first); a
 * transaction left idle by a dead client (its locks are freed); TCP keep-alive on idle connections.
 */
export const PG_TIMEOUTS = {
  connectMs: 10_000,
  statementMs: 110_000,
  queryMs: 120_000,
  idleInTransactionMs: 60_000,
  idleMs: 30_000,
} as const;
/** A ping's limit: connecting and `select 1`. */
export const PING_TIMEOUT_MS = 3_000;

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '../../drizzle');
/** Any fixed number: several nodes starting together take turns at migrating. */
const MIGRATION_LOCK = 7_340_021;

export type DbTarget =
  | {
      kind: 'pglite';
      dataDir?: string;
      /**
       * Who takes DATA_DIR's lock (db/data-lock.ts) while the database is open: `server` by default;
       * false when the caller holds it already (backup, restore).
       */
      lockAs?: string | false;
      /**
       * A data directory dumped by PGlite's `dumpDataDir` to start from instead of an empty one
       * (the tests' migrated schema, made once per run: test/db-template.ts). Migrations still run.
       */
      from?: Blob;
    }
  | {
      kind: 'postgres';
      url: string;
      /** At start, how long to keep trying a database that cannot be reached yet (ms); 0: fail at once. */
      startWaitMs?: number;
      /** Told of each wait at start (the first, then about every 10 s) and, with `reachedAfterMs`, of the end of it. */
      onStartWait?: (event: { err?: unknown; waitedMs: number; reachedAfterMs?: number }) => void;
    };

export async function openDatabase(target: DbTarget): Promise<Database> {
  if (target.kind === 'pglite') {
    let dir: string | undefined;
    let lock: DataDirLock | undefined;
    if (target.dataDir) {
      // Refuses to open a directory another process has open: two would corrupt it.
      if (target.lockAs !== false) lock = lockDataDir(target.dataDir, target.lockAs ?? 'server');
      dir = join(target.dataDir, 'pglite');
      mkdirSync(dir, { recursive: true });
    }
    try {
      const client = await PGlite.create(dir, target.from ? { loadDataDir: target.from } : {});
      const db = drizzlePglite(client, { schema });
      await migratePglite(db, { migrationsFolder });
      return {
        db: db as unknown as Db,
        kind: 'pglite',
        close: async () => {
          await client.close();
          lock?.release();
        },
      };
    } catch (e) {
      lock?.release();
      throw e;
    }
  }
  await migratePostgres(target.url, target.startWaitMs ?? 0, target.onStartWait);
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    connectionTimeoutMillis: PG_TIMEOUTS.connectMs,
    statement_timeout: PG_TIMEOUTS.statementMs,
    query_timeout: PG_TIMEOUTS.queryMs,
    idle_in_transaction_session_timeout: PG_TIMEOUTS.idleInTransactionMs,
    idleTimeoutMillis: PG_TIMEOUTS.idleMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor may a checked-out one: the pool listens to a client only while it is idle, and a client
  // in a transaction that waits between two statements (an alarm batch holding its locks, say)
  // emits 'error' when the network drops it, which with no listener ends the process. Its next
  // statement fails instead ("not queryable"), the transaction rolls back, the pool discards it.
  pool.on('connect', (client) => void client.on('error', () => undefined));
  const db = drizzlePg(pool, { schema });
  return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end(), ping: () => pingPostgres(target.url) };
}

/** Drops a client's socket: a silent server would keep a polite end() waiting. */
function dropConnection(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/** `select 1` on a fresh connection, within PING_TIMEOUT_MS whatever the network does. */
async function pingPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PING_TIMEOUT_MS, query_timeout: PING_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    await client.end();
  } catch (err) {
    dropConnection(client);
    throw err;
  }
}

/**
 * Errors of a database that is not there yet (stopped, starting, or the network to it down), as
 * opposed to a wrong setting (password, database name), which no waiting mends.
 */
function notReachable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e.code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE', '57P03'].includes(e.code)) return true;
  return /timeout|terminated unexpectedly|Connection terminated/i.test(e.message ?? '');
}

/** Connects, waiting up to `waitMs` for a database that cannot be reached yet (a node starting before its database). */
async function connectAtStart(url: string, waitMs: number, onWait?: (event: { err?: unknown; waitedMs: number; reachedAfterMs?: number }) => void): Promise<pg.Client> {
  const started = Date.now();
  let told = -Infinity;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PING_TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      await client.connect();
      if (told > -Infinity) onWait?.({ waitedMs: Date.now() - started, reachedAfterMs: Date.now() - started });
      return client;
    } catch (err) {
      dropConnection(client);
      const waited = Date.now() - started;
      if (!notReachable(err) || waited >= waitMs) throw err;
      if (waited - told >= 10_000) {
        told = waited;
        onWait?.({ err, waitedMs: waited });
      }
      await new Promise((r) => setTimeout(r, Math.min(2_000, waitMs - waited)));
    }
  }
}

async function migratePostgres(url: string, waitMs: number, onWait?: Parameters<typeof connectAtStart>[2]): Promise<void> {
  const client = await connectAtStart(url, waitMs, onWait);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await client.end();
  }
}

// Whether the database can be reached. When a database operation fails, one probe (`select 1`
// on a connection of its own, never a pooled one: a busy pool is no outage) tells an outage from
// a failure of that operation. An outage is logged once; callers that should be refused cleanly
// (the intake) are refused at once instead of each waiting for a time-out; background jobs
// pause; and a probe every few seconds notices the recovery by itself and logs how long it
// lasted and what was refused meanwhile. PGlite runs in the process and is never unreachable:
// this matters with PostgreSQL.
// A database that answers but cannot write (disk full, read-only, I/O errors: told by the error's
// SQLSTATE, never by a probe) is the other state: reads go on, the intake's writes are refused at
// once, background jobs pause, and a light probe write (a table created, one row, rolled back)
// every few seconds notices when writes work again. PGlite is kept from ever filling its disk:
// a PGlite whose checkpoint fails for want of space spins forever in the process (measured with
// 0.5.16: the next statement never returns and the event loop is blocked), so below a reserve of
// free space on its data directory's file system its writes count as failing before it tries.
import { statfs } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * Why the intake refused a submission: the database is unreachable, it cannot write (disk full,
 * read-only, I/O errors), or too many readings wait for it.
 */
export type UnavailableReason = 'database' | 'storage' | 'backlog';

/**
 * SQLSTATEs of a database that answers but cannot write: disk full, a read-only transaction (a
 * hot standby, `default_transaction_read_only`), I/O errors.
 */
export const NOT_WRITABLE_STATES: Readonly<Record<string, string>> = { '53100': 'disk full', '25006': 'read-only', '58030': 'I/O error' };
/** Emscripten's errno for ENOSPC, which PGlite's file system layer throws as an ErrnoError. */
const WASM_ENOSPC = 51;

/**
 * Why an error says the database cannot write (its SQLSTATE and message), or null when it says
 * something else (a value out of range, a constraint: that report's own fault). The driver's
 * error may be wrapped (Drizzle's DrizzleQueryError keeps it as `cause`).
 */
export function notWritableCause(err: unknown): { code: string; message: string } | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, errno, message } = e as { code?: unknown; errno?: unknown; message?: unknown };
    if (typeof code === 'string' && code in NOT_WRITABLE_STATES) return { code, message: typeof message === 'string' ? message : NOT_WRITABLE_STATES[code]! };
    if (code === 'ENOSPC' || ((e as { name?: unknown }).name === 'ErrnoError' && errno === WASM_ENOSPC)) return { code: '53100', message: 'no space left on device' };
  }
  return null;
}

/**
 * Free space kept on PGlite's file system by default: past it PGlite's writes are refused before
 * it tries. A checkpoint may write a new WAL segment (16 MB) and the files of its control data;
 * four segments leave room for that and for the writes under way when the reserve is reached.
 */
export const PGLITE_DISK_RESERVE_BYTES = 64 * 1_048_576;
/**
 * Free space over the reserve that PGlite's writes wait for once they stopped for want of it, so
 * that a disk hovering at the reserve does not start and stop them by turns.
 */
export const PGLITE_RESUME_MARGIN_BYTES = 16 * 1_048_576;
/** How long a reading of the free space is used (statfs is cheap; the reserve covers the gap). */
const DISK_CHECK_MS = 250;

/**
 * A submission refused because it cannot be stored now (nothing of it was stored). HTTP
 * answers 503 with Retry-After; MQTT does not acknowledge it, so the device sends it again.
 */
export class UnavailableError extends Error {
  constructor(
    readonly reason: UnavailableReason,
    /** Whether its reports are counted in the refusals already (by the reading store). */
    readonly counted = false,
  ) {
    super(reason === 'database' ? 'the database is unreachable' : reason === 'storage' ? 'the database cannot write' : 'too many readings are waiting to be stored');
    this.name = 'UnavailableError';
  }
}

export const isUnavailable = (err: unknown): err is UnavailableError => err instanceof UnavailableError;

/** The outage counters (for metrics and the operator). */
export interface AvailabilityStats {
  /** Whether the database is unreachable now. */
  down: boolean;
  /** Since when (ms since the epoch), while down. */
  downSince: number | null;
  /** Outages since the start. */
  outages: number;
  /** Reports refused because the database was unreachable, since the start. */
  refusedWhileDown: number;
  /** Whether the database cannot write now (disk full, read-only, I/O errors). */
  unwritable: boolean;
  /** Since when (ms since the epoch), and why (SQLSTATE and message), while it cannot write. */
  unwritableSince: number | null;
  unwritableCause: { code: string; message: string } | null;
  /** Times the database stopped being able to write, since the start. */
  writeFailures: number;
  /** Reports refused because the database could not write, since the start. */
  refusedWhileUnwritable: number;
  /** Free bytes on PGlite's file system, when watched (null on PostgreSQL). */
  diskFreeBytes: number | null;
}

type Log = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };

const n = (v: number) => v.toLocaleString('en-US');

export function databaseAvailability(
  database: Pick<Database, 'db' | 'ping'>,
  opts: {
    log: Log;
    /** How often an unreachable database, or one that cannot write, is probed (default 2 s). */
    probeMs?: number;
    now?: () => number;
    /** PGlite: the data directory, whose file system's free space is kept above `reserveBytes`. */
    diskDir?: string;
    /** Free space kept on `diskDir`'s file system (default PGLITE_DISK_RESERVE_BYTES). */
    reserveBytes?: number;
    /** Told when the database stops being able to write and when it can again (the platform alarm). */
    onWritable?: (writable: boolean, stats: AvailabilityStats) => void;
  },
) {
  const now = opts.now ?? Date.now;
  const probeMs = opts.probeMs ?? 2000;
  let down: { since: number; refused: number } | null = null;
  let probing: Promise<boolean> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let outages = 0;
  let refusedTotal = 0;
  let unwritable: { since: number; refused: number; cause: { code: string; message: string } } | null = null;
  let writeFailures = 0;
  let refusedUnwritableTotal = 0;
  let writeTimer: NodeJS.Timeout | undefined;
  const reserve = opts.reserveBytes ?? PGLITE_DISK_RESERVE_BYTES;
  let disk: { free: number; at: number } | null = null;
  let diskReading: Promise<number | null> | null = null;

  /** Free bytes on the data directory's file system (null when not watched or unreadable). */
  function readDisk(): Promise<number | null> {
    if (!opts.diskDir) return Promise.resolve(null);
    diskReading ??= statfs(opts.diskDir)
      .then(
        (s) => {
          disk = { free: s.bavail * s.bsize, at: now() };
          return disk.free;
        },
        () => null,
      )
      .finally(() => {
        diskReading = null;
      });
    return diskReading;
  }

  /** The disk is known to be below its reserve (from a reading at most DISK_CHECK_MS old; an older one is renewed meanwhile). */
  function belowReserve(): boolean {
    if (!opts.diskDir) return false;
    if (!disk || now() - disk.at > DISK_CHECK_MS) void readDisk();
    return disk !== null && disk.free < reserve;
  }
  const reserveCause = (free: number) => ({
    code: '53100',
    message: `${n(Math.floor(free / 1_048_576))} MB free on the database's file system: writes stop below ${n(Math.floor(reserve / 1_048_576))} MB and resume above ${n(Math.floor((reserve + PGLITE_RESUME_MARGIN_BYTES) / 1_048_576))} MB`,
  });

  /** A light write: a table created, one row in it (a new page of a new file), rolled back. */
  async function probeWrite(): Promise<void> {
    if (opts.diskDir) {
      const free = await readDisk();
      if (free !== null && free < reserve + PGLITE_RESUME_MARGIN_BYTES) throw Object.assign(new Error(reserveCause(free).message), { code: '53100' });
    }
    const rollback = new Error('write probe: rolled back');
    try {
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`create table iotc_write_probe (pad text)`);
        await tx.execute(sql`insert into iotc_write_probe values (repeat('x', 512))`);
        throw rollback;
      });
    } catch (err) {
      if (err !== rollback) throw err;
    }
  }

  function cannotWrite(cause: { code: string; message: string }) {
    if (unwritable) return;
    unwritable = { since: now(), refused: 0, cause };
    writeFailures++;
    opts.log.warn(
      { code: cause.code, err: cause.message },
      `database cannot write (${NOT_WRITABLE_STATES[cause.code] ?? cause.code}): device reports are refused until it can (devices resend QoS 1 reports; HTTP callers get 503; JT/T 808 reports are not answered); background jobs pause; a probe write every ${n(probeMs / 1000)} s notices the end`,
    );
    opts.onWritable?.(false, self.stats());
    watchWrites();
  }

  /** While writes fail: a probe write every few seconds, until one succeeds; then say what it cost. */
  function watchWrites() {
    if (closed || !unwritable) return;
    writeTimer = setTimeout(() => {
      // While the database is unreachable its own watch runs; this one waits.
      if (down) return watchWrites();
      void probeWrite().then(
        () => {
          if (!unwritable) return;
          const seconds = Math.round((now() - unwritable.since) / 1000);
          opts.log.info(
            { unwritableSeconds: seconds, refused: unwritable.refused, code: unwritable.cause.code },
            `database writes again after ${n(seconds)} s; ${n(unwritable.refused)} reports refused while it could not write (devices resend QoS 1 reports and unanswered JT/T 808 reports; HTTP callers got 503)`,
          );
          unwritable = null;
          opts.onWritable?.(true, self.stats());
        },
        (err: unknown) => {
          const cause = notWritableCause(err);
          if (unwritable && cause) unwritable.cause = cause;
          watchWrites();
        },
      );
    }, probeMs);
    writeTimer.unref();
  }

  /** One probe at a time, shared by whoever asks meanwhile. */
  function probe(): Promise<boolean> {
    probing ??= (database.ping ? database.ping() : database.db.execute(sql`select 1`))
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        probing = null;
      });
    return probing;
  }

  function wentDown(err: unknown) {
    if (down) return;
    down = { since: now(), refused: 0 };
    outages++;
    opts.log.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'database unreachable: device reports are refused until it is back (devices resend QoS 1 reports; HTTP callers get 503); background jobs pause',
    );
    watch();
  }

  /** While down: probe until the database answers, then say what the outage cost. */
  function watch() {
    if (closed || !down) return;
    timer = setTimeout(() => {
      void probe().then((ok) => {
        if (!down) return;
        if (!ok) return watch();
        const seconds = Math.round((now() - down.since) / 1000);
        opts.log.info(
          { downSeconds: seconds, refused: down.refused },
          `database back after ${n(seconds)} s; ${n(down.refused)} reports refused while it was down (devices resend QoS 1 reports; HTTP callers got 503)`,
        );
        down = null;
      });
    }, probeMs);
    timer.unref();
  }

  void readDisk();

  const self = {
    /** Whether the database is known to be unreachable now. */
    get down(): boolean {
      return down !== null;
    },
    /** Whether the database is known to be unable to write now (disk full, read-only, I/O errors). */
    get unwritable(): boolean {
      return unwritable !== null;
    },
    /**
     * Whether the intake's writes are refused at once: the database is unreachable, it cannot
     * write, or (PGlite) its file system is below the reserve of free space, which starts the
     * write failure here, before PGlite tries.
     */
    get refusingWrites(): boolean {
      if (down || unwritable) return true;
      if (belowReserve()) cannotWrite(reserveCause(disk!.free));
      return unwritable !== null;
    },
    /**
     * A database operation failed with `err`: resolves to whether the database is unreachable
     * (the outage is then logged once and watched until it ends) or cannot write (told by the
     * error itself; logged once and probed until writes work), or false when the database
     * answers, i.e. the operation itself failed.
     */
    async failed(err: unknown): Promise<boolean> {
      if (isUnavailable(err) && (err.reason === 'database' || err.reason === 'storage')) return true;
      const cause = notWritableCause(err);
      if (cause) {
        cannotWrite(cause);
        return true;
      }
      if (down) return true;
      const ok = await probe();
      if (!ok) wentDown(err);
      return !ok;
    },
    /**
     * Runs a database operation of the intake: refused at once while the database is
     * unreachable, and a failure that turns out to be the outage becomes an UnavailableError.
     */
    async guard<T>(run: () => Promise<T>): Promise<T> {
      if (down) throw new UnavailableError('database');
      try {
        return await run();
      } catch (err) {
        if (!isUnavailable(err) && (await self.failed(err))) throw new UnavailableError(!down && unwritable ? 'storage' : 'database');
        throw err;
      }
    },
    /** The error for a submission refused now: the database is unreachable, or it cannot write. */
    refusal(counted = false): UnavailableError {
      return new UnavailableError(!down && unwritable ? 'storage' : 'database', counted);
    },
    /** Counts reports refused because the database is unreachable or cannot write. */
    refused(count: number) {
      if (!down && unwritable) {
        refusedUnwritableTotal += count;
        unwritable.refused += count;
        return;
      }
      refusedTotal += count;
      if (down) down.refused += count;
    },
    stats(): AvailabilityStats {
      return {
        down: down !== null,
        downSince: down?.since ?? null,
        outages,
        refusedWhileDown: refusedTotal,
        unwritable: unwritable !== null,
        unwritableSince: unwritable?.since ?? null,
        unwritableCause: unwritable ? { ...unwritable.cause } : null,
        writeFailures,
        refusedWhileUnwritable: refusedUnwritableTotal,
        diskFreeBytes: disk?.free ?? null,
      };
    },
    /** Reads the data directory's free space now (PGlite; for metrics and tests). */
    checkDisk: readDisk,
    /** Stops watching (at shutdown). */
    close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(writeTimer);
    },
  };
  return self;
}
export type DatabaseAvailability = ReturnType<typeof databaseAvailability>;

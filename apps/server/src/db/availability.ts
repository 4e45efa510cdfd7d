// Whether the database can be reached. When a database operation fails, one probe (`select 1`
// on a connection of its own, never a pooled one: a busy pool is no outage) tells an outage from
// a failure of that operation. An outage is logged once; callers that should be refused cleanly
// (the intake) are refused at once instead of each waiting for a time-out; background jobs
// pause; and a probe every few seconds notices the recovery by itself and logs how long it
// lasted and what was refused meanwhile. PGlite runs in the process and is never unreachable:
// this matters with PostgreSQL.
import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/** Why the intake refused a submission: the database is unreachable, or too many readings wait for it. */
export type UnavailableReason = 'database' | 'backlog';

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
    super(reason === 'database' ? 'the database is unreachable' : 'too many readings are waiting to be stored');
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
}

type Log = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };

const n = (v: number) => v.toLocaleString('en-US');

export function databaseAvailability(
  database: Pick<Database, 'db' | 'ping'>,
  opts: {
    log: Log;
    /** How often an unreachable database is probed (default 2 s). */
    probeMs?: number;
    now?: () => number;
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

  const self = {
    /** Whether the database is known to be unreachable now. */
    get down(): boolean {
      return down !== null;
    },
    /**
     * A database operation failed with `err`: resolves to whether the database is unreachable
     * (the outage is then logged once and watched until it ends), or false when the database
     * answers, i.e. the operation itself failed.
     */
    async failed(err: unknown): Promise<boolean> {
      if (isUnavailable(err) && err.reason === 'database') return true;
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
        if (!isUnavailable(err) && (await self.failed(err))) throw new UnavailableError('database');
        throw err;
      }
    },
    /** Counts reports refused because the database is unreachable. */
    refused(count: number) {
      refusedTotal += count;
      if (down) down.refused += count;
    },
    stats(): AvailabilityStats {
      return { down: down !== null, downSince: down?.since ?? null, outages, refusedWhileDown: refusedTotal };
    },
    /** Stops watching (at shutdown). */
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
  return self;
}
export type DatabaseAvailability = ReturnType<typeof databaseAvailability>;

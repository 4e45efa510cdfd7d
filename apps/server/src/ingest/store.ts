// Group commit of readings: reports from many MQTT messages and HTTP calls that arrive while
// the writes are running are stored together by the next one, in one transaction: one insert
// of the readings (a repeated device time is stored once) and one upsert of each device's
// latest state.
// Each caller learns how many of its own readings were new once they are stored; the stored
// readings event (stored-readings.ts) tells its subscribers the changed states and, for the
// devices that may have been silent, when they had last been heard of before.
// Durability: nothing is acknowledged before its transaction; while the database is unreachable
// or cannot write (db/availability.ts) submissions are refused at once, and at most `maxWaiting` readings wait
// for a write, past which new submissions are refused too, so memory stays bounded.
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/client.ts';
import { isUnavailable, UnavailableError, type DatabaseAvailability } from '../db/availability.ts';
import { uuidList } from '../db/list.ts';
import type { deviceStates } from '../db/schema.ts';
import type { Reading, StoredReadings, StoredState } from './stored-readings.ts';

/** What became of one submission: how many of its readings were new, and those the store could not take. */
export interface StoreOutcome {
  inserted: number;
  /** Readings the database refused (by their index in the submission), each with the reason; the others are stored. */
  failed: { index: number; reason: string }[];
}

interface Pending {
  readings: Reading[];
  resolve: (outcome: StoreOutcome) => void;
  reject: (err: unknown) => void;
}

const keyOf = (r: { deviceRef: string; time: Date }) => `${r.deviceRef}|${r.time.getTime()}`;

type StateRow = typeof deviceStates.$inferInsert;

/**
 * One latest-state row per device from its new readings, oldest first: the newest time wins,
 * a position or sensor value missing from the newest reading keeps the one before.
 */
export function foldStates(readings: Reading[], receivedAt: Date): StateRow[] {
  const byDevice = new Map<string, StateRow>();
  const ordered = [...readings].sort((a, b) => a.time.getTime() - b.time.getTime());
  for (const r of ordered) {
    const prev = byDevice.get(r.deviceRef);
    const hasPos = r.lat !== null && r.lat !== undefined;
    byDevice.set(r.deviceRef, {
      deviceRef: r.deviceRef,
      orgId: r.orgId,
      time: r.time,
      receivedAt,
      lat: hasPos ? r.lat : (prev?.lat ?? null),
      lon: hasPos ? r.lon : (prev?.lon ?? null),
      positioning: hasPos ? (r.positioning ?? null) : (prev?.positioning ?? null),
      network: r.network ?? prev?.network ?? null,
      speed: r.speed ?? null,
      course: r.course ?? prev?.course ?? null,
      acc: r.acc ?? null,
      sensors: { ...((prev?.sensors as object) ?? {}), ...(r.sensors as object) },
    });
  }
  // A consistent order keeps concurrent upserts from locking rows in opposite orders.
  return [...byDevice.values()].sort((a, b) => (a.deviceRef < b.deviceRef ? -1 : 1));
}

/** A database error's message, short enough for an intake log line (never a stack). */
function reasonOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

export function readingStore(
  db: Db,
  opts: {
    /** Where each write is told: its steps in the write's transaction, and what it stored once committed (stored-readings.ts). */
    events?: StoredReadings;
    /**
     * Tell the stored event of silences longer than this (the offline time). A device this process has
     * itself written within it cannot have been silent that long, so only the others (after a
     * silence, after a start, or written by other processes only) cost a lookup, made in the
     * write's transaction just before their states are replaced.
     */
    silenceAfterMs?: number;
    now?: () => Date;
    /** Writes at a time: one on the embedded database (a single connection), a few on PostgreSQL. */
    concurrency?: number;
    /** Metrics: readings handed to the store, and each committed write's size and time (s). */
    observe?: { received?(readings: Reading[]): void; written?(size: number, seconds: number): void };
    /** Tells an outage from a failed write; while the database is unreachable, submissions are refused at once. */
    availability?: DatabaseAvailability;
    /** Readings that may wait for a write (default MAX_WAITING); past it new submissions are refused. */
    maxWaiting?: number;
    /** After this long a running write makes the store ask whether the database is there (default WRITE_STALL_MS). */
    writeStallMs?: number;
    /** Told of each reading the database refused (the others of its batch are stored); its submitter is told too. */
    onFailed?: (err: unknown, reading: Reading) => void;
  } = {},
) {
  const now = opts.now ?? (() => new Date());
  let queue: Pending[] = [];
  const writing = new Set<Promise<void>>();
  /** Readings in the writes running. */
  let inWrites = 0;
  const count = (ps: Pending[]) => ps.reduce((n, p) => n + p.readings.length, 0);
  const concurrency = opts.concurrency ?? 1;
  const availability = opts.availability;
  const maxWaiting = opts.maxWaiting ?? MAX_WAITING;
  const writeStallMs = opts.writeStallMs ?? WRITE_STALL_MS;
  /** Readings waiting for a write (kept as a sum: submit checks it every time). */
  let waiting = 0;
  let refusedBusy = 0;
  let failedBatches = 0;
  let failedReadings = 0;
  /** When this process last wrote each device's state (its received time, ms). */
  const written = new Map<string, number>();
  const silenceAfterMs = opts.silenceAfterMs;

  /**
   * Stores a batch. A reading the database refuses (a value out of its range, say) must not fail
   * the others it shares the batch with, which may be other devices' and other organisations':
   * a failed transaction is split in halves, each tried on its own, down to the reading that
   * fails, which alone is answered as failed with its reason. An outage, or a database that
   * cannot write (disk full, read-only: told by the error's SQLSTATE), is not split: the whole
   * batch is refused as unavailable (readings committed before it are repeats when resent).
   */
  async function write(batch: Pending[]) {
    // The first of several readings with one device time is the one kept.
    const kept = new Map<string, { p: Pending; r: Reading }>();
    for (const p of batch) {
      for (const r of p.readings) {
        const k = keyOf(r);
        if (!kept.has(k)) kept.set(k, { p, r });
      }
    }
    const counts = new Map<Pending, number>();
    const failed = new Map<Pending, StoreOutcome['failed']>();
    /** A listener's failure: raised once every submitter has its answer (its readings are stored). */
    let listenerError: unknown;
    const commitIsolating = async (part: { p: Pending; r: Reading }[]): Promise<void> => {
      let committed: Awaited<ReturnType<typeof commit>>;
      try {
        committed = await commit(part, counts);
      } catch (err) {
        if (isUnavailable(err) || (availability && (await availability.failed(err)))) throw err;
        if (part.length === 1) {
          const { p, r } = part[0]!;
          failedReadings++;
          opts.onFailed?.(err, r);
          const list = failed.get(p) ?? [];
          list.push({ index: p.readings.indexOf(r), reason: `the readings store could not take it: ${reasonOf(err)}` });
          failed.set(p, list);
          return;
        }
        const half = Math.ceil(part.length / 2);
        await commitIsolating(part.slice(0, half));
        await commitIsolating(part.slice(half));
        return;
      }
      // Outside the isolation: a listener that fails does not make its readings look refused.
      try {
        const listenerFailed = committed.changed.length ? opts.events?.stored.publish({ states: committed.changed, readings: committed.readings, heardBefore: committed.heardBefore }) : undefined;
        if (listenerFailed !== undefined) listenerError ??= listenerFailed;
      } catch (err) {
        listenerError ??= err;
      }
    };
    await commitIsolating([...kept.values()]);
    for (const p of batch) p.resolve({ inserted: counts.get(p) ?? 0, failed: failed.get(p) ?? [] });
    if (listenerError !== undefined) throw listenerError;
  }

  /** One transaction: the readings (a repeated device time is not stored again) and their devices' states. */
  async function commit(entries: { p: Pending; r: Reading }[], counts: Map<Pending, number>) {
    const byKey = new Map(entries.map((e) => [keyOf(e.r), e]));
    const rows = entries.map((e) => e.r);
    const inserted: { p: Pending; r: Reading }[] = [];
    const changed: StoredState[] = [];
    const heardBefore = new Map<string, Date>();
    const receivedAt = now();
    const started = performance.now();
    await db.transaction(async (tx) => {
      const back = rowsOf<{ device_ref: string; ms: number | string }>(await tx.execute(insertReadings(rows)));
      for (const b of back) {
        const e = byKey.get(`${b.device_ref}|${Number(b.ms)}`);
        if (!e) throw new Error(`the database stored a reading that was not sent (device ${b.device_ref}, time ${Number(b.ms)} ms)`);
        inserted.push(e);
      }
      const readings = inserted.map((e) => e.r);
      // What must commit with the readings (a closed day's pack made stale by a late reading, say).
      await opts.events?.storing.run({ tx, readings, receivedAt });
      const states = foldStates(readings, receivedAt);
      if (silenceAfterMs !== undefined && states.length) {
        const since = receivedAt.getTime() - silenceAfterMs;
        const asked = states.filter((st) => (written.get(st.deviceRef) ?? -Infinity) < since).map((st) => st.deviceRef);
        if (asked.length) for (const [ref, at] of await lastHeard(tx, asked)) heardBefore.set(ref, at);
      }
      if (states.length) changed.push(...rowsOf<RawState>(await tx.execute(upsertStates(states))).map(fromRaw));
    });
    for (const { p } of inserted) counts.set(p, (counts.get(p) ?? 0) + 1);
    opts.observe?.written?.(rows.length, (performance.now() - started) / 1000);
    if (silenceAfterMs !== undefined) remember(changed, receivedAt.getTime(), silenceAfterMs);
    return { changed, readings: inserted.map((e) => e.r), heardBefore };
  }

  /** Kept after the commit only: a write that failed wrote nothing. Bounded: past the limit, what is too old to matter goes first. */
  function remember(states: StoredState[], at: number, silenceAfterMs: number) {
    for (const st of states) written.set(st.deviceRef, Math.max(written.get(st.deviceRef) ?? at, at));
    if (written.size <= WRITTEN_MAX) return;
    for (const [ref, w] of written) if (w < at - silenceAfterMs) written.delete(ref);
    if (written.size > WRITTEN_MAX) written.clear();
  }

  // A write starts on the next turn of the event loop, after the sockets have been read, never
  // straight from the end of the last one: on one thread (PGlite runs on it) nothing arrives
  // while a write runs, so starting at once wrote a handful of reports per transaction and paid
  // a transaction's fixed cost for each handful (1,500 reports/s instead of 10,000).
  let scheduled = false;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      drain();
    });
  }

  /** Refuses a batch as unavailable, its readings counted as refused during the outage (or while the database cannot write). */
  function refuseBatch(batch: Pending[], size: number) {
    availability?.refused(size);
    const err = availability ? availability.refusal(true) : new UnavailableError('database', true);
    for (const p of batch) p.reject(err);
  }

  function drain() {
    while (writing.size < concurrency && queue.length) {
      const batch = queue;
      queue = [];
      const size = count(batch);
      waiting = 0;
      // Found unreachable (or unable to write) meanwhile: refused now rather than each write waiting for a time-out.
      if (availability?.refusingWrites) {
        refuseBatch(batch, size);
        continue;
      }
      inWrites += size;
      // Settled once: by the write, or earlier by the stall check when the database is found gone.
      let answered = false;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        inWrites -= size;
        writing.delete(w);
        schedule();
      };
      // A write that hangs (a silent server answers nothing, and the client's own time-out is
      // long) makes the store ask whether the database is there; if not, its callers are refused
      // now and its slot freed. Should it commit after all, the devices' resends are repeats.
      const stall = availability
        ? setTimeout(() => {
            void availability.failed(new Error(`a readings write has not finished within ${writeStallMs / 1000} s`)).then((down) => {
              if (!down || answered) return;
              answered = true;
              refuseBatch(batch, size);
              release();
            });
          }, writeStallMs)
        : undefined;
      stall?.unref();
      const w: Promise<void> = write(batch)
        .then(
          () => {
            answered = true;
          },
          async (err: unknown) => {
            if (answered) return;
            const down = availability ? await availability.failed(err) : false;
            if (answered) return;
            answered = true;
            if (down) return refuseBatch(batch, size);
            failedBatches++;
            for (const p of batch) p.reject(err);
          },
        )
        .finally(() => {
          clearTimeout(stall);
          release();
        });
      writing.add(w);
    }
  }

  return {
    /**
     * Stores readings with whatever else is waiting; resolves to how many were new and which the
     * database refused (the others are stored all the same).
     */
    store(readings: Reading[]): Promise<StoreOutcome> {
      if (readings.length === 0) return Promise.resolve({ inserted: 0, failed: [] });
      opts.observe?.received?.(readings);
      if (availability?.refusingWrites) {
        availability.refused(readings.length);
        return Promise.reject(availability.refusal(true));
      }
      if (waiting + readings.length > maxWaiting) {
        refusedBusy += readings.length;
        return Promise.reject(new UnavailableError('backlog', true));
      }
      return new Promise<StoreOutcome>((resolve, reject) => {
        queue.push({ readings, resolve, reject });
        waiting += readings.length;
        schedule();
      });
    },
    /** Stores readings as `store` does; resolves to how many were new, rejects when the database refused any of them. */
    async submit(readings: Reading[]): Promise<number> {
      const outcome = await this.store(readings);
      if (outcome.failed.length) throw new Error(`${outcome.failed.length} reading(s) not stored: ${outcome.failed[0]!.reason}`);
      return outcome.inserted;
    },
    /**
     * Durability counters: readings waiting for a write and in running writes, readings refused
     * because `maxWaiting` were already waiting, writes that failed while the database answered
     * (not counting single readings it refused, `failedReadings`),
     * and the database's outage counters (db/availability.ts: whether it is down now, outages
     * since the start, reports refused because it was down).
     */
    stats() {
      const a = availability?.stats();
      return {
        waiting,
        writing: inWrites,
        refusedBusy,
        failedBatches,
        failedReadings,
        databaseDown: a?.down ?? false,
        outages: a?.outages ?? 0,
        refusedWhileDown: a?.refusedWhileDown ?? 0,
      };
    },
    /** Readings not yet committed (waiting, in the writes running) and the writes running. */
    get depth() {
      return { waiting, writing: inWrites, batches: writing.size };
    },
    /** Resolves when everything submitted so far is written. */
    async flushed() {
      while (writing.size || queue.length) {
        drain();
        await Promise.all(writing);
      }
    },
  };
}
export type ReadingStore = ReturnType<typeof readingStore>;

// Both statements take their rows as one JSON parameter: building a statement of thousands of
// bound values costs more than the database's work on them.

/**
 * The readings, a repeated device time ignored; answers the (device, time in ms since the epoch)
 * of those stored: a number, not a timestamp, whose text a driver could read back differently
 * (years before 100 came back as 19xx, which failed the whole batch).
 */
function insertReadings(rows: Reading[]): SQL {
  const json = JSON.stringify(
    rows.map((r) => ({
      org_id: r.orgId,
      device_ref: r.deviceRef,
      time: r.time.toISOString(),
      lat: r.lat ?? null,
      lon: r.lon ?? null,
      positioning: r.positioning ?? null,
      network: r.network ?? null,
      speed: r.speed ?? null,
      course: r.course ?? null,
      raw: r.raw,
      sensors: r.sensors,
    })),
  );
  return sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, network, speed, course, raw, sensors)
    select org_id, device_ref, time, lat, lon, positioning, network, speed, course, raw, sensors
    from jsonb_to_recordset(${json}::jsonb) as x(org_id uuid, device_ref uuid, time timestamptz, lat float8, lon float8,
      positioning text, network text, speed float8, course float8, raw jsonb, sensors jsonb)
    on conflict (device_ref, time) do nothing
    returning device_ref, round(extract(epoch from time) * 1000)::float8 as ms`;
}

/**
 * Readings that may wait for a write by default: far more than a healthy database leaves
 * waiting (a write takes everything waiting), a few seconds of a large fleet's reports, at about
 * 1 KB each some 50 MB at most.
 */
export const MAX_WAITING = 50_000;
/**
 * A write running this long makes the store ping the database (a healthy write takes
 * milliseconds; a slow one costs a needless ping, nothing more).
 */
export const WRITE_STALL_MS = 3_000;

/** Devices whose last write this process remembers (about 100 bytes each). */
const WRITTEN_MAX = 500_000;

/**
 * When the platform last heard of these devices (those never heard of are not in it). Another
 * process may replace one of them between this read and this write's upsert; the fault detector
 * allows for two writes seeing the same silence.
 */
async function lastHeard(tx: Executor, refs: string[]): Promise<Map<string, Date>> {
  const rows = rowsOf<{ device_ref: string; received_at: Date | string }>(
    await tx.execute(sql`select device_ref, received_at from device_states where device_ref = any(${uuidList(refs)})`),
  );
  return new Map(rows.map((r) => [r.device_ref, new Date(r.received_at)]));
}

/**
 * Each device's folded state merged into the kept one: the newer device time wins, a position
 * or sensor value missing from it keeps the kept one, and the time the platform last heard of
 * the device is always the new one.
 */
function upsertStates(states: StateRow[]): SQL {
  const json = JSON.stringify(
    states.map((s) => ({
      device_ref: s.deviceRef,
      org_id: s.orgId,
      time: (s.time as Date).toISOString(),
      received_at: (s.receivedAt as Date).toISOString(),
      lat: s.lat ?? null,
      lon: s.lon ?? null,
      positioning: s.positioning ?? null,
      network: s.network ?? null,
      speed: s.speed ?? null,
      course: s.course ?? null,
      acc: s.acc ?? null,
      sensors: s.sensors,
    })),
  );
  const newer = sql.raw('excluded.time >= device_states.time');
  const newerOr = (c: string) => sql.raw(`case when excluded.time >= device_states.time and excluded.${c} is not null then excluded.${c} else device_states.${c} end`);
  return sql`insert into device_states (device_ref, org_id, time, received_at, lat, lon, positioning, network, speed, course, acc, sensors)
    select device_ref, org_id, time, received_at, lat, lon, positioning, network, speed, course, acc, sensors
    from jsonb_to_recordset(${json}::jsonb) as x(device_ref uuid, org_id uuid, time timestamptz, received_at timestamptz,
      lat float8, lon float8, positioning text, network text, speed float8, course float8, acc boolean, sensors jsonb)
    on conflict (device_ref) do update set
      received_at = excluded.received_at,
      time = greatest(device_states.time, excluded.time),
      lat = ${newerOr('lat')}, lon = ${newerOr('lon')}, positioning = ${newerOr('positioning')},
      network = ${newerOr('network')}, course = ${newerOr('course')},
      speed = case when ${newer} then excluded.speed else device_states.speed end,
      acc = case when ${newer} then excluded.acc else device_states.acc end,
      sensors = case when ${newer} then device_states.sensors || excluded.sensors else excluded.sensors || device_states.sensors end
    returning *`;
}

interface RawState {
  device_ref: string;
  org_id: string;
  time: Date | string;
  received_at: Date | string;
  lat: number | null;
  lon: number | null;
  positioning: string | null;
  network: string | null;
  speed: number | null;
  course: number | null;
  acc: boolean | null;
  sensors: unknown;
}

const fromRaw = (r: RawState): StoredState => ({
  deviceRef: r.device_ref,
  orgId: r.org_id,
  time: new Date(r.time),
  receivedAt: new Date(r.received_at),
  lat: r.lat,
  lon: r.lon,
  positioning: r.positioning,
  network: r.network,
  speed: r.speed,
  course: r.course,
  acc: r.acc,
  sensors: typeof r.sensors === 'string' ? (JSON.parse(r.sensors) as unknown) : r.sensors,
});

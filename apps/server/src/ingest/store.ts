// Group commit of readings: reports from many MQTT messages and HTTP calls that arrive while
// the writes are running are stored together by the next one, in one transaction: one insert
// of the readings (a repeated device time is stored once) and one upsert of each device's
// latest state.
// Each caller learns how many of its own readings were new once they are stored; whoever
// watches the store learns the changed states and, for the devices that may have been silent,
// when they had last been heard of before.
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/client.ts';
import { uuidList } from '../db/list.ts';
import type { deviceStates, telemetry } from '../db/schema.ts';

export type Reading = typeof telemetry.$inferInsert & { time: Date; deviceRef: string; acc: boolean | null };

interface Pending {
  readings: Reading[];
  resolve: (inserted: number) => void;
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

export type StoredState = typeof deviceStates.$inferSelect;

export function readingStore(
  db: Db,
  opts: {
    /**
     * After each write: the latest states it changed, the readings it stored (a repeat of a
     * stored device time is not among them) and, with `silenceAfterMs`, when the platform had
     * last heard of each device before this write that may have been silent longer than that.
     */
    onStored?: (states: StoredState[], readings: Reading[], heardBefore: ReadonlyMap<string, Date>) => void;
    /**
     * Tell onStored of silences longer than this (the offline time). A device this process has
     * itself written within it cannot have been silent that long, so only the others (after a
     * silence, after a start, or written by other processes only) cost a lookup, made in the
     * write's transaction just before their states are replaced.
     */
    silenceAfterMs?: number;
    now?: () => Date;
    /** Writes at a time: one on the embedded database (a single connection), a few on PostgreSQL. */
    concurrency?: number;
  } = {},
) {
  const now = opts.now ?? (() => new Date());
  let queue: Pending[] = [];
  const writing = new Set<Promise<void>>();
  const concurrency = opts.concurrency ?? 1;
  /** When this process last wrote each device's state (its received time, ms). */
  const written = new Map<string, number>();
  const silenceAfterMs = opts.silenceAfterMs;

  async function write(batch: Pending[]) {
    // The first of several readings with one device time is the one kept.
    const kept = new Map<string, { p: Pending; r: Reading }>();
    for (const p of batch) {
      for (const r of p.readings) {
        const k = keyOf(r);
        if (!kept.has(k)) kept.set(k, { p, r });
      }
    }
    const rows = [...kept.values()].map((e) => e.r);
    const inserted: Reading[] = [];
    const counts = new Map<Pending, number>();
    const changed: StoredState[] = [];
    const heardBefore = new Map<string, Date>();
    const receivedAt = now();
    await db.transaction(async (tx) => {
      const back = rowsOf<{ device_ref: string; time: Date | string }>(await tx.execute(insertReadings(rows)));
      for (const b of back) {
        const { p, r } = kept.get(keyOf({ deviceRef: b.device_ref, time: new Date(b.time) }))!;
        inserted.push(r);
        counts.set(p, (counts.get(p) ?? 0) + 1);
      }
      const states = foldStates(inserted, receivedAt);
      if (silenceAfterMs !== undefined && states.length) {
        const since = receivedAt.getTime() - silenceAfterMs;
        const asked = states.filter((st) => (written.get(st.deviceRef) ?? -Infinity) < since).map((st) => st.deviceRef);
        if (asked.length) for (const [ref, at] of await lastHeard(tx, asked)) heardBefore.set(ref, at);
      }
      if (states.length) changed.push(...rowsOf<RawState>(await tx.execute(upsertStates(states))).map(fromRaw));
    });
    if (silenceAfterMs !== undefined) remember(changed, receivedAt.getTime(), silenceAfterMs);
    for (const p of batch) p.resolve(counts.get(p) ?? 0);
    if (changed.length) opts.onStored?.(changed, inserted, heardBefore);
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

  function drain() {
    while (writing.size < concurrency && queue.length) {
      const batch = queue;
      queue = [];
      const w: Promise<void> = write(batch)
        .catch((err: unknown) => {
          for (const p of batch) p.reject(err);
        })
        .finally(() => {
          writing.delete(w);
          schedule();
        });
      writing.add(w);
    }
  }

  return {
    /** Stores readings with whatever else is waiting; resolves to how many were new. */
    submit(readings: Reading[]): Promise<number> {
      if (readings.length === 0) return Promise.resolve(0);
      return new Promise<number>((resolve, reject) => {
        queue.push({ readings, resolve, reject });
        schedule();
      });
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

/** The readings, a repeated device time ignored; answers the (device, time) of those stored. */
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
    returning device_ref, time`;
}

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

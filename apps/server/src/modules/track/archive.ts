// The position archive: each device's usable fixes of a closed UTC day packed into one row of
// `track_days`, so that trip and stop detection over a month reads 30 values per device instead
// of hundreds of thousands of rows (a month at one fix per 10 s is 259,200 rows: about 1 s per
// device to read as rows spread over the table as the intake stores them, about 50 ms as packs;
// `npm run bench -- --only track`).
//
// A pack holds the day's fixes in time order as columns: time (ms), latitude, longitude and
// speed (float64, the speed NaN where none) and the LBS flag (one byte), little-endian: what
// the rows hold, exactly.
// `telemetry` stays the record; a pack is a copy that is rebuilt whenever it may be stale:
// - a reading stored for a closed day deletes that device-day's pack in the same transaction
//   (ingest/store.ts calls `dropStalePacks`), so a read never uses a pack missing it;
// - the job (one node at a time) packs each day once it has closed, and again any device-day
//   that received a reading after its pack was made (a reading committing while its day was being
//   packed is caught this way: `packedAt` is set OVERLAP_MS early).
// Reading (`readFixes`) takes the packs of the whole days inside a range and the rows for the
// rest (the partial days at the edges, today, and any day not packed yet).
import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../../db/client.ts';
import { uuidList } from '../../db/list.ts';

const DAY_MS = 86_400_000;
/** `packedAt` is set this much before the pack was read, and the received window looks back as far. */
export const OVERLAP_MS = 60_000;
/** Most device-days one run packs (about 60 ms each on PostgreSQL at one fix per 10 s, the rows spread over the table as the intake stores them: 2 minutes). */
export const PACKS_PER_TICK = 2_000;
const VERSION = 1;
const HEADER = 8;
const BYTES_PER_FIX = 4 * 8 + 1;

/** A device's fixes in time order, as the trip detection takes them. */
export interface Fixes {
  t: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  speed: Float64Array;
  lbs: Uint8Array;
}

const emptyFixes = (n: number): Fixes => ({ t: new Float64Array(n), lat: new Float64Array(n), lon: new Float64Array(n), speed: new Float64Array(n), lbs: new Uint8Array(n) });

/** The UTC day (YYYY-MM-DD) of an instant. */
export const dayOf = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Whether this machine stores numbers little-endian (every platform Node ships for): the columns are then copied whole. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Packs fixes (little-endian, whatever the machine). */
export function encodePack(f: Fixes): Uint8Array {
  const n = f.t.length;
  const buf = new ArrayBuffer(HEADER + n * BYTES_PER_FIX);
  const v = new DataView(buf);
  v.setUint8(0, VERSION);
  v.setUint32(4, n, true);
  const cols = [f.t, f.lat, f.lon, f.speed];
  if (LITTLE_ENDIAN) cols.forEach((col, k) => new Float64Array(buf, HEADER + k * n * 8, n).set(col));
  else cols.forEach((col, k) => col.forEach((x, i) => v.setFloat64(HEADER + (k * n + i) * 8, x, true)));
  new Uint8Array(buf, HEADER + 4 * n * 8, n).set(f.lbs);
  return new Uint8Array(buf);
}

/** Unpacks into `into` at `at` (the caller sizes the columns); returns the number of fixes. */
export function decodePack(bytes: Uint8Array, into: Fixes, at: number): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint8(0) !== VERSION) throw new Error(`track pack version ${v.getUint8(0)} is not known`);
  const n = v.getUint32(4, true);
  const cols = [into.t, into.lat, into.lon, into.speed];
  if (LITTLE_ENDIAN) {
    // A float64 view needs an offset that is a multiple of 8: copied once where it is not.
    const b = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    cols.forEach((col, k) => col.set(new Float64Array(b.buffer, b.byteOffset + HEADER + k * n * 8, n), at));
  } else {
    cols.forEach((col, k) => {
      for (let i = 0; i < n; i++) col[at + i] = v.getFloat64(HEADER + (k * n + i) * 8, true);
    });
  }
  into.lbs.set(bytes.subarray(HEADER + 4 * n * 8, HEADER + 4 * n * 8 + n), at);
  return n;
}

export const packLength = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);

type FixRow = { t: number | string; lat: number | string; lon: number | string; speed: number | string | null; lbs: boolean };

/**
 * A usable position: both coordinates, in range (NaN and infinities are not), not the 0,0 of a
 * device without a fix. The same test in SQL (packs, readFixRows) and here (spans a caller reads
 * itself), so a range gives the same fixes whether its days are packed or not.
 */
export const isUsableFix = (lat: number | null, lon: number | null): boolean =>
  lat !== null && lon !== null && lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 && !(lat === 0 && lon === 0);
const USABLE = sql.raw(`lat is not null and lon is not null and lat between -90 and 90 and lon between -180 and 180 and not (lat = 0 and lon = 0)`);

/** The usable fixes of [from, to) from the rows, in time order. */
export async function readFixRows(q: Executor, deviceRef: string, from: number, to: number): Promise<Fixes> {
  const rows = rowsOf<FixRow>(
    await q.execute(sql`select (extract(epoch from time) * 1000)::float8 as t, lat, lon, speed, coalesce(positioning = 'LBS', false) as lbs
      from telemetry where device_ref = ${deviceRef} and time >= ${new Date(from).toISOString()}::timestamptz and time < ${new Date(to).toISOString()}::timestamptz
        and ${USABLE}
      order by time`),
  );
  const f = emptyFixes(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    f.t[i] = Number(r.t);
    f.lat[i] = Number(r.lat);
    f.lon[i] = Number(r.lon);
    f.speed[i] = r.speed === null ? Number.NaN : Number(r.speed);
    f.lbs[i] = r.lbs ? 1 : 0;
  }
  return f;
}

/**
 * A device's usable fixes in [from, to): the packs of the whole UTC days inside it, the rows for
 * the rest. `readSpan` reads a span without a pack (rows by default; the track summary thins
 * long ones).
 */
export async function readFixes(
  db: Db,
  deviceRef: string,
  from: number,
  to: number,
  readSpan: (from: number, to: number) => Promise<Fixes> = (a, b) => readFixRows(db, deviceRef, a, b),
): Promise<{ fixes: Fixes; packedDays: number }> {
  const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
  const lastDay = Math.floor(to / DAY_MS) * DAY_MS;
  const packs =
    lastDay > firstDay
      ? rowsOf<{ day: string; data: string }>(
          // As base64 text: PGlite turns a bytea's hex into bytes one at a time (10x slower than
          // Node's base64 decoder), and the text is smaller than hex for node-postgres too.
          await db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, encode(data, 'base64') as data from track_days
            where device_ref = ${deviceRef} and day >= ${dayOf(firstDay)}::date and day < ${dayOf(lastDay)}::date order by day`),
        )
      : [];
  // In time order: packs (decoded straight into the result) and spans read from the rows.
  const parts: (Fixes | Uint8Array)[] = [];
  let cursor = from;
  for (const p of packs) {
    const start = dayStart(p.day);
    if (start > cursor) parts.push(await readSpan(cursor, start));
    parts.push(Buffer.from(p.data, 'base64'));
    cursor = start + DAY_MS;
  }
  if (cursor < to) parts.push(await readSpan(cursor, to));
  const sizeOf = (part: Fixes | Uint8Array) => (part instanceof Uint8Array ? packLength(part) : part.t.length);
  const out = emptyFixes(parts.reduce((s, part) => s + sizeOf(part), 0));
  let at = 0;
  for (const part of parts) {
    if (part instanceof Uint8Array) at += decodePack(part, out, at);
    else {
      out.t.set(part.t, at);
      out.lat.set(part.lat, at);
      out.lon.set(part.lon, at);
      out.speed.set(part.speed, at);
      out.lbs.set(part.lbs, at);
      at += part.t.length;
    }
  }
  return { fixes: out, packedDays: packs.length };
}

/**
 * Drops the packs of the days these readings belong to when those days are closed (called in
 * the intake's transaction, with the readings it stored). Readings of today cost nothing.
 */
export async function dropStalePacks(q: Executor, stored: readonly { deviceRef: string; time: Date }[], now: Date): Promise<void> {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const stale = new Map<string, { ref: string; day: string }>();
  for (const r of stored) {
    if (r.time.getTime() >= today) continue;
    const day = dayOf(r.time.getTime());
    stale.set(`${r.deviceRef}|${day}`, { ref: r.deviceRef, day });
  }
  if (stale.size === 0) return;
  const refs = [...stale.values()].map((k) => k.ref);
  const days = [...stale.values()].map((k) => k.day);
  await q.execute(sql`delete from track_days d using unnest(${uuidList(refs)}, ${`{${days.join(',')}}`}::date[]) as x(ref, day)
    where d.device_ref = x.ref and d.day = x.day`);
}

interface Candidate {
  device_ref: string;
  org_id: string;
  day: string;
}

/** Packs one device-day from its rows (replacing any pack); answers the number of fixes. */
async function packDay(q: Executor, c: Candidate, packedAt: Date): Promise<number> {
  const start = dayStart(c.day);
  const fixes = await readFixRows(q, c.device_ref, start, start + DAY_MS);
  const data = encodePack(fixes);
  await q.execute(sql`insert into track_days (device_ref, day, org_id, points, data, packed_at)
    values (${c.device_ref}, ${c.day}::date, ${c.org_id}, ${fixes.t.length}, ${data}, ${packedAt.toISOString()}::timestamptz)
    on conflict (device_ref, day) do update set org_id = excluded.org_id, points = excluded.points, data = excluded.data, packed_at = excluded.packed_at`);
  return fixes.t.length;
}

/** Device-days among these whose pack is missing or older than a reading of theirs. */
const STALE = sql.raw(`not exists (select 1 from track_days d where d.device_ref = c.device_ref and d.day = c.day and d.packed_at >= c.last_received)`);

export interface ArchiveTickResult {
  /** False when another node held the job. */
  ran: boolean;
  packed: number;
  fixes: number;
  /** True when nothing is left to pack as of this tick. */
  caughtUp: boolean;
}

/** How long a run's lease lasts: a node that dies mid-run leaves the job to another after this. */
export const LEASE_MS = 5 * 60_000;

/**
 * One run of the archive job: sweeps the days that closed since the last run, oldest first,
 * then repacks the device-days of closed days that received readings since, at most `limit`
 * packs in all. One node at a time holds the run's lease (a row of `track_archive_state`, so
 * that each pack is written on its own and nothing waits on a long transaction); a node that
 * finds it held does nothing.
 */
export async function archiveTick(db: Db, opts: { limit?: number; node?: string } = {}): Promise<ArchiveTickResult> {
  let budget = opts.limit ?? PACKS_PER_TICK;
  let packed = 0;
  let fixes = 0;
  const leaseId = `${opts.node ?? 'node'}-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await db.execute(sql`insert into track_archive_state (id) values (1) on conflict (id) do nothing`);
  const [state] = rowsOf<{ closed_through: string | null; received_mark: Date | string | null; now: Date | string }>(
    await db.execute(sql`update track_archive_state set lease = ${leaseId}, lease_until = now() + ${`${LEASE_MS} milliseconds`}::interval
      where id = 1 and (lease_until is null or lease_until < now())
      returning to_char(closed_through, 'YYYY-MM-DD') as closed_through, received_mark, now() as now`),
  );
  if (!state) return { ran: false, packed, fixes, caughtUp: false };
  let caughtUp = false;
  let closedThrough = state.closed_through;
  const receivedMark = state.received_mark ? new Date(state.received_mark) : null;
  const now = new Date(state.now);
  try {
    const packedAt = new Date(now.getTime() - OVERLAP_MS);
    const today = dayOf(now.getTime());
    const orgIds = rowsOf<{ id: string }>(await db.execute(sql`select id from orgs`)).map((r) => r.id);
    if (closedThrough === null) {
      // The first run: from the day of the oldest reading (an index probe per organisation).
      const [oldest] = rowsOf<{ t: Date | string | null }>(
        await db.execute(sql`select min(m) as t from unnest(${uuidList(orgIds)}) as o(id)
          cross join lateral (select min(time) as m from telemetry where org_id = o.id) x`),
      );
      closedThrough = oldest?.t ? dayOf(new Date(oldest.t).getTime()) : today;
    }
    const pack = async (cands: Candidate[]) => {
      for (const c of cands) {
        fixes += await packDay(db, c, packedAt);
        packed++;
        budget--;
      }
    };
    // 1. Days that closed: every device with readings that day, one day at a time.
    let swept = true;
    while (closedThrough < today) {
      const from = dayStart(closedThrough);
      const cands = rowsOf<Candidate>(
        await db.execute(sql`select c.device_ref, c.org_id, ${closedThrough} as day from (
            select device_ref, org_id, max(received_at) as last_received, ${closedThrough}::date as day from telemetry
            where org_id = any(${uuidList(orgIds)}) and time >= ${new Date(from).toISOString()}::timestamptz and time < ${new Date(from + DAY_MS).toISOString()}::timestamptz
            group by device_ref, org_id) c
          where ${STALE} order by c.device_ref limit ${budget + 1}`),
      );
      const room = budget;
      await pack(cands.slice(0, room));
      if (cands.length > room) {
        swept = false;
        break;
      }
      closedThrough = dayOf(from + DAY_MS);
    }
    // 2. Closed days that received readings since the last run (late uploads).
    let lateDone = false;
    if (swept && budget > 0) {
      const since = new Date((receivedMark ?? now).getTime() - OVERLAP_MS);
      const cands = rowsOf<Candidate>(
        await db.execute(sql`select c.device_ref, c.org_id, to_char(c.day, 'YYYY-MM-DD') as day from (
            select device_ref, org_id, (time at time zone 'UTC')::date as day, max(received_at) as last_received from telemetry
            where received_at >= ${since.toISOString()}::timestamptz and received_at < ${now.toISOString()}::timestamptz
              and time < ${new Date(dayStart(closedThrough)).toISOString()}::timestamptz
            group by device_ref, org_id, (time at time zone 'UTC')::date) c
          where ${STALE} order by c.day, c.device_ref limit ${budget + 1}`),
      );
      const room = budget;
      await pack(cands.slice(0, room));
      lateDone = cands.length <= room;
    }
    caughtUp = swept && lateDone;
  } finally {
    await db.execute(sql`update track_archive_state set lease = null, lease_until = null, closed_through = ${closedThrough}::date,
        received_mark = ${(caughtUp ? now : (receivedMark ?? now)).toISOString()}::timestamptz
      where id = 1 and lease = ${leaseId}`);
  }
  return { ran: true, packed, fixes, caughtUp };
}

// The readings archive's job: packs each device's readings of every closed UTC day into one row
// of `reading_days` (pack.ts), and packs a day again when readings arrive for it late.
// - The intake marks a packed day's pack stale in the transaction that stores a late reading
//   (`markStalePacks`), so that readers merge the day's rows in until it is packed again.
// - The job (one node at a time) sweeps the days that closed, then the device-days that received
//   readings since its last run (a reading committing while its day was being packed is caught
//   this way: `packedAt` is set OVERLAP_MS early), then the stale packs. Packing a day again
//   merges its pack with its rows, so it loses nothing when the rows are gone (retention).
// `telemetry` rows stay until retention removes them; `removePackedRows` removes the rows of
// device-days whose pack holds them.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../../db/client.ts';
import { uuidList } from '../../db/list.ts';
import { decodePack, encodePack, packRow, type PackRow } from './pack.ts';
import { DAY_MS, dayOf, dayStart, mergeDay, readRows } from './reader.ts';

/** `packedAt` is set this much before the pack was read, and the received window looks back as far. */
export const OVERLAP_MS = 60_000;
/** Most device-days one run packs. */
export const PACKS_PER_TICK = 2_000;
/** How long a run's lease lasts: a node that dies mid-run leaves the job to another after this. */
export const LEASE_MS = 5 * 60_000;

/**
 * Marks stale the packs of the closed days these readings belong to (called in the intake's
 * transaction, with the readings it stored). Readings of today cost nothing.
 */
export async function markStalePacks(q: Executor, stored: readonly { deviceRef: string; time: Date }[], now: Date): Promise<void> {
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
  await q.execute(sql`update reading_days d set stale = true from unnest(${uuidList(refs)}, ${`{${days.join(',')}}`}::date[]) as x(ref, day)
    where d.device_ref = x.ref and d.day = x.day and not d.stale`);
}

const toDb = (us: number) => new Date(Math.floor(us / 1000)).toISOString();
/** A microsecond time as a timestamptz literal that keeps the microseconds. */
const usLiteral = (us: number) => sql`(timestamptz 'epoch' + ${`${us} microseconds`}::interval)`;

/** Packs one device-day from its pack (if any) and its rows; answers the number of readings. */
export async function packDay(q: Executor, deviceRef: string, day: string, packedAt: Date): Promise<number> {
  const start = dayStart(day);
  const rows = await readRows(q, deviceRef, { from: start, to: start + DAY_MS }, { raw: true });
  const [old] = rowsOf<{ data: string; raw: string }>(
    await q.execute(sql`select encode(data, 'base64') as data, encode(raw, 'base64') as raw from reading_days where device_ref = ${deviceRef} and day = ${day}::date`),
  );
  let all: PackRow[] = rows;
  if (old) {
    const c = decodePack(Buffer.from(old.data, 'base64'), Buffer.from(old.raw, 'base64'));
    all = mergeDay(
      Array.from({ length: c.n }, (_, i) => packRow(c, i)),
      rows,
    );
  }
  if (all.length === 0) {
    await q.execute(sql`delete from reading_days where device_ref = ${deviceRef} and day = ${day}::date`);
    return 0;
  }
  const { data, raw } = encodePack(all);
  const last = all.at(-1)!;
  let rFrom = Infinity;
  let rTo = -Infinity;
  for (const r of all) {
    if (r.receivedUs < rFrom) rFrom = r.receivedUs;
    if (r.receivedUs > rTo) rTo = r.receivedUs;
  }
  await q.execute(sql`insert into reading_days (device_ref, day, org_id, readings, first_time, last_time, received_from, received_to, data, raw, packed_at, stale)
    values (${deviceRef}, ${day}::date, ${last.orgId}, ${all.length}, ${usLiteral(all[0]!.timeUs)}, ${usLiteral(last.timeUs)},
      ${toDb(rFrom)}::timestamptz, ${usLiteral(rTo)}, ${data}, ${raw}, ${packedAt.toISOString()}::timestamptz, false)
    on conflict (device_ref, day) do update set org_id = excluded.org_id, readings = excluded.readings, first_time = excluded.first_time,
      last_time = excluded.last_time, received_from = excluded.received_from, received_to = excluded.received_to, data = excluded.data,
      raw = excluded.raw, packed_at = excluded.packed_at, stale = false`);
  return all.length;
}

interface Candidate {
  device_ref: string;
  day: string;
}

/** Device-days among these whose pack is missing, stale, or older than a reading of theirs. */
const STALE = sql.raw(`not exists (select 1 from reading_days d where d.device_ref = c.device_ref and d.day = c.day and not d.stale and d.packed_at >= c.last_received)`);

export interface ArchiveTickResult {
  /** False when another node held the job. */
  ran: boolean;
  packed: number;
  readings: number;
  /** True when nothing is left to pack as of this tick. */
  caughtUp: boolean;
}

/**
 * One run of the archive job: sweeps the days that closed since the last run, oldest first,
 * then packs again the device-days of closed days that received readings since, then the stale
 * packs, at most `limit` packs in all. One node at a time holds the run's lease (a row of
 * `reading_archive_state`, so that each pack is written on its own and nothing waits on a long
 * transaction); a node that finds it held does nothing.
 */
export async function archiveTick(db: Db, opts: { limit?: number; node?: string } = {}): Promise<ArchiveTickResult> {
  let budget = opts.limit ?? PACKS_PER_TICK;
  let packed = 0;
  let readings = 0;
  const leaseId = `${opts.node ?? 'node'}-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await db.execute(sql`insert into reading_archive_state (id) values (1) on conflict (id) do nothing`);
  const [state] = rowsOf<{ closed_through: string | null; received_mark: Date | string | null; now: Date | string }>(
    await db.execute(sql`update reading_archive_state set lease = ${leaseId}, lease_until = now() + ${`${LEASE_MS} milliseconds`}::interval
      where id = 1 and (lease_until is null or lease_until < now())
      returning to_char(closed_through, 'YYYY-MM-DD') as closed_through, received_mark, now() as now`),
  );
  if (!state) return { ran: false, packed, readings, caughtUp: false };
  let caughtUp = false;
  let closedThrough = state.closed_through;
  const receivedMark = state.received_mark ? new Date(state.received_mark) : null;
  const now = new Date(state.now);
  try {
    const packedAt = new Date(now.getTime() - OVERLAP_MS);
    const today = dayOf(now.getTime());
    // By organisation, so that a day's readings are found through the (org_id, time) index.
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
        readings += await packDay(db, c.device_ref, c.day, packedAt);
        packed++;
        budget--;
      }
    };
    // 1. Days that closed: every device with readings that day, one day at a time.
    let swept = true;
    while (closedThrough < today) {
      const from = dayStart(closedThrough);
      const cands = rowsOf<Candidate>(
        await db.execute(sql`select c.device_ref, ${closedThrough} as day from (
            select device_ref, max(received_at) as last_received, ${closedThrough}::date as day from telemetry
            where org_id = any(${uuidList(orgIds)}) and time >= ${new Date(from).toISOString()}::timestamptz and time < ${new Date(from + DAY_MS).toISOString()}::timestamptz
            group by device_ref) c
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
    // 2. Closed days that received readings since the last run (late uploads), and stale packs.
    let lateDone = false;
    if (swept && budget > 0) {
      const since = new Date((receivedMark ?? now).getTime() - OVERLAP_MS);
      const cands = rowsOf<Candidate>(
        await db.execute(sql`select c.device_ref, to_char(c.day, 'YYYY-MM-DD') as day from (
            select device_ref, day, max(last_received) as last_received from (
              select device_ref, (time at time zone 'UTC')::date as day, max(received_at) as last_received from telemetry
              where received_at >= ${since.toISOString()}::timestamptz and received_at < ${now.toISOString()}::timestamptz
                and time < ${new Date(dayStart(closedThrough)).toISOString()}::timestamptz
              group by device_ref, (time at time zone 'UTC')::date
              union all
              select device_ref, day, packed_at from reading_days where stale) u
            group by device_ref, day) c
          where ${STALE} order by c.day, c.device_ref limit ${budget + 1}`),
      );
      const room = budget;
      await pack(cands.slice(0, room));
      lateDone = cands.length <= room;
    }
    caughtUp = swept && lateDone;
  } finally {
    await db.execute(sql`update reading_archive_state set lease = null, lease_until = null, closed_through = ${closedThrough}::date,
        received_mark = ${(caughtUp ? now : (receivedMark ?? now)).toISOString()}::timestamptz
      where id = 1 and lease = ${leaseId}`);
  }
  return { ran: true, packed, readings, caughtUp };
}

/**
 * Removes the rows of a device's packed days before `beforeDay` whose pack holds them (fresh,
 * packed after the last of them was received); answers the number of rows removed. What
 * retention calls once rows have served their term; a day not yet packed keeps its rows.
 */
export async function removePackedRows(q: Executor, deviceRef: string, beforeDay: string): Promise<number> {
  const res = await q.execute(sql`delete from telemetry t using reading_days d
    where t.device_ref = ${deviceRef} and d.device_ref = t.device_ref and t.time < ${beforeDay}::date
      and d.day = (t.time at time zone 'UTC')::date and not d.stale and d.packed_at >= t.received_at`);
  return (res as { rowCount?: number; affectedRows?: number }).rowCount ?? (res as { affectedRows?: number }).affectedRows ?? 0;
}

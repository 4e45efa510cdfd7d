// The one reader of stored readings (issue 24): everything that reads history (tracks, curves,
// reports, the GSP record, comparison, exports, the ledger's record checks) reads a device's
// readings through here, and gets the same answer whether a day is packed (reading_days), still
// in rows (telemetry), or both.
//
// A range is cut into days. A day with a pack that is not stale is read from the pack alone
// (its rows, if still there, are the same readings). A day with a stale pack (a reading came
// late) is the pack merged with the day's rows, the pack winning on a repeated time (as the
// first-stored reading wins when a report is repeated). A day without a pack is read from the
// rows. Rows and packs are read as the same PackRow (microsecond times, the JSON columns as the
// database prints them), so both ways give the same values by construction.
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.ts';
import { uuidList } from '../../db/list.ts';
import { decodePack, packRow, type PackColumns, type PackRow } from './pack.ts';

export const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) of an instant. */
export const dayOf = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** A stored reading as every reader gets it, the same from a pack and from a row. */
export interface Reading {
  orgId: string;
  deviceRef: string;
  /** Device time (the database keeps microseconds; `timeUs` has them). */
  time: Date;
  timeUs: number;
  receivedAt: Date;
  lat: number | null;
  lon: number | null;
  positioning: string | null;
  network: string | null;
  speed: number | null;
  course: number | null;
  /** Decoded sensor values ({} when not asked for). */
  sensors: Record<string, unknown>;
  /** The raw report (only when asked for). */
  raw?: unknown;
}

export interface ReadRange {
  /** Milliseconds: readings at or after. */
  from: number;
  /** Milliseconds: readings before (or at, with `toInclusive`). */
  to: number;
  toInclusive?: boolean;
}

export interface ReadOptions {
  /** Unpack the decoded sensors (default true). */
  sensors?: boolean;
  /** Unpack the raw reports (default false). */
  raw?: boolean;
  /** Newest first. */
  desc?: boolean;
  offset?: number;
  limit?: number;
  /** Only the readings this keeps count (before offset and limit). */
  filter?: (p: PackRow) => boolean;
  /**
   * Only these top-level sensor values, in each PackRow's `fields` (its `sensors` text left
   * empty): packs give them without printing the texts. What curves and reports ask for.
   */
  fields?: readonly string[];
}

/** A decoded sensor value as a number, as `(sensors->>key)::float8` reads it; else null. */
export function sensorNumber(s: Record<string, unknown>, key: string): number | null {
  const v = s[key];
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** A decoded sensor value as text, as `sensors->>key` reads it; else null. */
export function sensorText(s: Record<string, unknown>, key: string): string | null {
  const v = s[key];
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** A PackRow's decoded sensors: the fields asked for, else the whole text parsed ({} when not unpacked). */
export const sensorsOf = (p: PackRow): Record<string, unknown> => p.fields ?? (p.sensors === '' ? {} : (JSON.parse(p.sensors) as Record<string, unknown>));

/** Only the asked-for top-level keys of a sensors text, as a pack gives them (absent keys left out). */
function pickFields(text: string, keys: readonly string[]): Record<string, unknown> {
  const all = JSON.parse(text) as Record<string, unknown> | null;
  const out: Record<string, unknown> = {};
  if (all === null || typeof all !== 'object') return out;
  for (const k of keys) if (all[k] !== undefined) out[k] = all[k];
  return out;
}

/** Microseconds since the epoch, whole, as the database keeps a timestamptz. */
const US = (col: string) => sql.raw(`(extract(epoch from ${col}) * 1000000)::int8`);

type RowRecord = {
  org_id: string;
  t_us: string | number;
  r_us: string | number;
  lat: number | string | null;
  lon: number | string | null;
  positioning: string | null;
  network: string | null;
  speed: number | string | null;
  course: number | string | null;
  sensors: string | null;
  raw: string | null;
};

const num = (v: number | string | null) => (v === null ? null : Number(v));

const packRowOf = (r: RowRecord): PackRow => ({
  orgId: r.org_id,
  timeUs: Number(r.t_us),
  receivedUs: Number(r.r_us),
  lat: num(r.lat),
  lon: num(r.lon),
  positioning: r.positioning,
  network: r.network,
  speed: num(r.speed),
  course: num(r.course),
  sensors: r.sensors ?? '',
  raw: r.raw ?? '',
});

const ts = (ms: number) => new Date(ms).toISOString();

/** The columns of `telemetry` every row reader selects, as a PackRow takes them. */
const rowColumns = (o: { sensors?: boolean; raw?: boolean }) =>
  sql`org_id, ${US('time')} as t_us, ${US('received_at')} as r_us, lat, lon, positioning, network, speed, course,
    ${o.sensors === false ? sql`null` : sql`sensors::text`} as sensors, ${o.raw ? sql`raw::text` : sql`null`} as raw`;

/** Rows as PackRows; with `fields`, only those sensor values (as a pack gives them), the text left empty. */
function packRowsOf(rows: RowRecord[], fields?: readonly string[]): PackRow[] {
  const out = rows.map(packRowOf);
  if (fields) {
    for (const p of out) {
      p.fields = pickFields(p.sensors, fields);
      p.sensors = '';
    }
  }
  return out;
}

/** A device's rows of [from, to) (or [from, to]) as PackRows, in time order. */
export async function readRows(q: Executor, deviceRef: string, r: ReadRange, o: { sensors?: boolean; raw?: boolean; fields?: readonly string[] } = {}): Promise<PackRow[]> {
  const rows = rowsOf<RowRecord>(
    await q.execute(sql`select ${rowColumns(o)}
      from telemetry where device_ref = ${deviceRef} and time >= ${ts(r.from)}::timestamptz
        and ${r.toInclusive ? sql`time <= ${ts(r.to)}::timestamptz` : sql`time < ${ts(r.to)}::timestamptz`}
      order by time`),
  );
  return packRowsOf(rows, o.fields);
}

interface PackMeta {
  day: string;
  readings: number;
  stale: boolean;
}

/** A stretch of the range read one way: a pack's day (with that day's rows when stale), or rows alone. */
export type Segment = { kind: 'pack'; meta: PackMeta; from: number; to: number; whole: boolean } | { kind: 'rows'; from: number; to: number };

/** Cuts [from, to) into packed days and row stretches, in time order. */
export async function plan(q: Executor, deviceRef: string, r: ReadRange): Promise<Segment[]> {
  const end = r.toInclusive ? r.to + 1 : r.to;
  if (end <= r.from) return [];
  const metas = rowsOf<{ day: string; readings: number; stale: boolean }>(
    await q.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, readings, stale from reading_days
      where device_ref = ${deviceRef} and day >= ${dayOf(r.from)}::date and day <= ${dayOf(end - 1)}::date order by day`),
  );
  const out: Segment[] = [];
  let cursor = r.from;
  for (const m of metas) {
    const start = dayStart(m.day);
    const from = Math.max(start, r.from);
    const to = Math.min(start + DAY_MS, end);
    if (from > cursor) out.push({ kind: 'rows', from: cursor, to: from });
    out.push({ kind: 'pack', meta: { day: m.day, readings: Number(m.readings), stale: m.stale }, from, to, whole: from === start && to === start + DAY_MS });
    cursor = to;
  }
  if (cursor < end) out.push({ kind: 'rows', from: cursor, to: end });
  return out;
}

/** A pack's `data` and, when asked, `raw` (as base64 text: PGlite turns bytea hex into bytes slowly). */
export async function fetchPack(q: Executor, deviceRef: string, day: string, withRaw: boolean): Promise<{ data: Uint8Array; raw: Uint8Array | null }> {
  const [p] = rowsOf<{ data: string; raw: string | null }>(
    await q.execute(sql`select encode(data, 'base64') as data, ${withRaw ? sql`encode(raw, 'base64')` : sql`null`} as raw
      from reading_days where device_ref = ${deviceRef} and day = ${day}::date`),
  );
  if (!p) throw new Error(`the pack of ${deviceRef} on ${day} went away while it was read`);
  return { data: Buffer.from(p.data, 'base64'), raw: p.raw === null ? null : Buffer.from(p.raw, 'base64') };
}

/** Most packs one query of fetchPacks brings (a month: about 2.5 MB of a reefer's packs). */
const PACKS_PER_FETCH = 31;

/** The `data` of several packs of a device, by day, a query per PACKS_PER_FETCH days. */
async function fetchPacks(q: Executor, deviceRef: string, days: readonly string[]): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < days.length; i += PACKS_PER_FETCH) {
    const some = days.slice(i, i + PACKS_PER_FETCH);
    for (const p of rowsOf<{ day: string; data: string }>(
      await q.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, encode(data, 'base64') as data
        from reading_days where device_ref = ${deviceRef} and day = any(${`{${some.join(',')}}`}::date[])`),
    )) {
      out.set(p.day, Buffer.from(p.data, 'base64'));
    }
  }
  return out;
}

/** Merges a day's pack and rows (both in time order): the pack wins on a repeated time. */
export function mergeDay(packed: PackRow[], rows: PackRow[]): PackRow[] {
  if (rows.length === 0) return packed;
  const out: PackRow[] = [];
  let i = 0;
  let j = 0;
  while (i < packed.length || j < rows.length) {
    const a = packed[i];
    const b = rows[j];
    if (b === undefined || (a !== undefined && a.timeUs <= b.timeUs)) {
      if (b !== undefined && a!.timeUs === b.timeUs) j++;
      out.push(a!);
      i++;
    } else {
      out.push(b);
      j++;
    }
  }
  return out;
}

const packRows = (c: PackColumns, fromUs: number, toUs: number): PackRow[] => {
  const out: PackRow[] = [];
  for (let i = 0; i < c.n; i++) if (c.timeUs[i]! >= fromUs && c.timeUs[i]! < toUs) out.push(packRow(c, i));
  return out;
};

/** One segment's readings, in time order. */
export async function materialise(q: Executor, deviceRef: string, s: Segment, o: { sensors?: boolean; raw?: boolean; fields?: readonly string[] }): Promise<PackRow[]> {
  if (s.kind === 'rows') return readRows(q, deviceRef, { from: s.from, to: s.to }, o);
  const p = await fetchPack(q, deviceRef, s.meta.day, o.raw === true);
  const c = decodePack(p.data, p.raw, { sensors: o.sensors !== false, fields: o.fields });
  const packed = packRows(c, s.from * 1000, s.to * 1000);
  return s.meta.stale ? mergeDay(packed, await readRows(q, deviceRef, { from: s.from, to: s.to }, o)) : packed;
}

/** How many readings a segment holds; a whole fresh pack says so without being unpacked. */
async function countOf(q: Executor, deviceRef: string, s: Segment): Promise<number> {
  if (s.kind === 'pack' && s.whole && !s.meta.stale) return s.meta.readings;
  if (s.kind === 'rows') {
    const [c] = rowsOf<{ n: number | string }>(
      await q.execute(sql`select count(*) as n from telemetry where device_ref = ${deviceRef} and time >= ${ts(s.from)}::timestamptz and time < ${ts(s.to)}::timestamptz`),
    );
    return Number(c?.n ?? 0);
  }
  return (await materialise(q, deviceRef, s, { sensors: false })).length;
}

/** A device's readings in the range, packs and rows alike, in time order (or newest first). */
export async function readPackRows(q: Executor, deviceRef: string, r: ReadRange, o: ReadOptions = {}): Promise<PackRow[]> {
  const segments = await plan(q, deviceRef, r);
  if (o.desc) segments.reverse();
  let skip = o.offset ?? 0;
  const limit = o.limit ?? Number.POSITIVE_INFINITY;
  const out: PackRow[] = [];
  for (const s of segments) {
    if (out.length >= limit) break;
    // Whole segments before the offset are skipped by their count, unread.
    if (skip > 0 && !o.filter && s.kind === 'pack' && s.whole && !s.meta.stale && s.meta.readings <= skip) {
      skip -= s.meta.readings;
      continue;
    }
    let rows = await materialise(q, deviceRef, s, o);
    if (o.filter) rows = rows.filter(o.filter);
    if (o.desc) rows.reverse();
    if (skip > 0) {
      const dropped = Math.min(skip, rows.length);
      rows = rows.slice(dropped);
      skip -= dropped;
    }
    for (const row of rows) {
      if (out.length >= limit) break;
      out.push(row);
    }
  }
  return out;
}

/** The number of a device's readings in the range. */
export async function countReadings(q: Executor, deviceRef: string, r: ReadRange): Promise<number> {
  let n = 0;
  for (const s of await plan(q, deviceRef, r)) n += await countOf(q, deviceRef, s);
  return n;
}

/** A PackRow as a Reading: times as dates (to the millisecond, as the database driver gives them), JSON parsed. */
export function readingOf(deviceRef: string, p: PackRow): Reading {
  return {
    orgId: p.orgId,
    deviceRef,
    time: new Date(Math.floor(p.timeUs / 1000)),
    timeUs: p.timeUs,
    receivedAt: new Date(Math.floor(p.receivedUs / 1000)),
    lat: p.lat,
    lon: p.lon,
    positioning: p.positioning,
    network: p.network,
    speed: p.speed,
    course: p.course,
    sensors: sensorsOf(p),
    ...(p.raw === '' ? {} : { raw: JSON.parse(p.raw) as unknown }),
  };
}

/** A device's readings in the range as Readings (see readPackRows). */
export async function readReadings(q: Executor, deviceRef: string, r: ReadRange, o: ReadOptions = {}): Promise<Reading[]> {
  return (await readPackRows(q, deviceRef, r, o)).map((p) => readingOf(deviceRef, p));
}

/**
 * The readings of these devices received in [lo, hi) (the ledger's device-minutes), packs and
 * rows alike: a pack whose received times overlap is unpacked and filtered; a reading in both
 * is taken once, from the pack.
 */
export async function readReceived(q: Executor, deviceRefs: readonly string[], lo: number, hi: number): Promise<Reading[]> {
  if (deviceRefs.length === 0) return [];
  const packs = rowsOf<{ device_ref: string; data: string }>(
    await q.execute(sql`select device_ref, encode(data, 'base64') as data from reading_days
      where device_ref = any(${uuidList(deviceRefs)}) and received_from < ${ts(hi)}::timestamptz and received_to >= ${ts(lo)}::timestamptz`),
  );
  const seen = new Set<string>();
  const out: Reading[] = [];
  for (const p of packs) {
    const c = decodePack(Buffer.from(p.data, 'base64'));
    for (let i = 0; i < c.n; i++) {
      const r = c.receivedUs[i]!;
      if (r < lo * 1000 || r >= hi * 1000) continue;
      seen.add(`${p.device_ref}|${c.timeUs[i]}`);
      out.push(readingOf(p.device_ref, packRow(c, i)));
    }
  }
  const rows = rowsOf<RowRecord & { device_ref: string }>(
    await q.execute(sql`select device_ref, ${rowColumns({})}
      from telemetry where received_at >= ${ts(lo)}::timestamptz and received_at < ${ts(hi)}::timestamptz and device_ref = any(${uuidList(deviceRefs)})`),
  );
  for (const r of rows) {
    const p = packRowOf(r);
    if (!seen.has(`${r.device_ref}|${p.timeUs}`)) out.push(readingOf(r.device_ref, p));
  }
  // By device and device time, whichever way each came.
  return out.sort((a, b) => (a.deviceRef < b.deviceRef ? -1 : a.deviceRef > b.deviceRef ? 1 : a.timeUs - b.timeUs));
}

/**
 * The first reading of each bucket of `bucketMs` counted from `origin`, within the range (rows
 * only: a row stretch of the plan). One index probe per bucket (a LATERAL subquery with LIMIT 1
 * over generate_series), so the cost follows the number of buckets, not of readings.
 */
export async function firstRowPerBucket(
  q: Executor,
  deviceRef: string,
  r: { from: number; to: number },
  origin: number,
  bucketMs: number,
  o: { sensors?: boolean; fields?: readonly string[] } = {},
): Promise<PackRow[]> {
  if (r.to <= r.from) return [];
  const first = Math.floor((r.from - origin) / bucketMs);
  const last = Math.floor((r.to - 1 - origin) / bucketMs);
  const step = `${bucketMs} milliseconds`;
  const rows = rowsOf<RowRecord>(
    await q.execute(sql`select p.* from generate_series(${first}::int, ${last}::int) as g(i)
      cross join lateral (
        select ${rowColumns({ sensors: o.sensors })}
        from telemetry
        where device_ref = ${deviceRef}
          and time >= greatest(${ts(origin)}::timestamptz + g.i * ${step}::interval, ${ts(r.from)}::timestamptz)
          and time < least(${ts(origin)}::timestamptz + (g.i + 1) * ${step}::interval, ${ts(r.to)}::timestamptz)
        order by time limit 1
      ) p order by p.t_us`),
  );
  return packRowsOf(rows, o.fields);
}

/**
 * The first reading of each bucket of the range (buckets of `bucketMs` from `r.from`), packs and
 * rows alike, in time order: row stretches by index probes, packed days unpacked and picked.
 */
export async function firstPerBucket(
  q: Executor,
  deviceRef: string,
  r: { from: number; to: number },
  bucketMs: number,
  o: { sensors?: boolean; fields?: readonly string[] } = {},
): Promise<PackRow[]> {
  const picked = new Map<number, PackRow>();
  const originUs = r.from * 1000;
  for (const s of await plan(q, deviceRef, r)) {
    const rows = s.kind === 'rows' ? await firstRowPerBucket(q, deviceRef, s, r.from, bucketMs, o) : await materialise(q, deviceRef, s, o);
    for (const row of rows) {
      const b = Math.floor((row.timeUs - originUs) / (bucketMs * 1000));
      if (!picked.has(b)) picked.set(b, row);
    }
  }
  return [...picked.values()];
}

/** The device time (microseconds) of a device's first reading, packs and rows alike; null without one. */
export async function firstReadingUs(q: Executor, deviceRef: string): Promise<number | null> {
  const [r] = rowsOf<{ p: string | number | null; r: string | number | null }>(
    await q.execute(sql`select (select ${US('min(first_time)')} from reading_days where device_ref = ${deviceRef}) as p,
      (select ${US('min(time)')} from telemetry where device_ref = ${deviceRef}) as r`),
  );
  const all = [r?.p, r?.r].filter((v) => v !== null && v !== undefined).map(Number);
  return all.length ? Math.min(...all) : null;
}

/** The device time (microseconds) of a device's last reading before `to` (ms), packs and rows alike; null without one. */
export async function lastReadingUsBefore(q: Executor, deviceRef: string, to: number): Promise<number | null> {
  const [r] = rowsOf<{ p: string | number | null; r: string | number | null }>(
    await q.execute(sql`select (select ${US('max(last_time)')} from reading_days where device_ref = ${deviceRef} and last_time < ${ts(to)}::timestamptz) as p,
      (select ${US('max(time)')} from telemetry where device_ref = ${deviceRef} and time < ${ts(to)}::timestamptz) as r`),
  );
  const all = [r?.p, r?.r].filter((v) => v !== null && v !== undefined).map(Number);
  // The pack of the day `to` falls in may hold readings on both sides of it.
  const [inside] = await readPackRows(q, deviceRef, { from: dayStart(dayOf(to - 1)), to }, { sensors: false, desc: true, limit: 1 });
  if (inside) all.push(inside.timeUs);
  return all.length ? Math.max(...all) : null;
}

/**
 * Every `step`-th reading of the range (the first, each step after it, and the last of `total`),
 * in time order, packs and rows alike: a packed day gives only the kept readings' values, never
 * an object per reading. What thinned curves read (`total` from countReadings).
 */
export async function readEvery(q: Executor, deviceRef: string, r: ReadRange, step: number, total: number, o: { fields?: readonly string[] } = {}): Promise<PackRow[]> {
  const keep = (k: number) => k % step === 0 || k === total - 1;
  const out: PackRow[] = [];
  let g = 0;
  const segments = await plan(q, deviceRef, r);
  // The fresh packs in a query or a few, not one each.
  const packs = await fetchPacks(
    q,
    deviceRef,
    segments.flatMap((s) => (s.kind === 'pack' && !s.meta.stale ? [s.meta.day] : [])),
  );
  for (const s of segments) {
    if (s.kind === 'pack' && !s.meta.stale) {
      const data = packs.get(s.meta.day) ?? (await fetchPack(q, deviceRef, s.meta.day, false)).data;
      const fromUs = s.from * 1000;
      const toUs = s.to * 1000;
      // The kept readings of the day, marked once its times are read: only their values are made.
      let kept = new Uint8Array(0);
      let inRange = 0;
      const mark = (timeUs: Float64Array) => {
        kept = new Uint8Array(timeUs.length);
        inRange = 0;
        for (let i = 0; i < timeUs.length; i++) {
          const t = timeUs[i]!;
          if (t < fromUs || t >= toUs) continue;
          if (keep(g + inRange)) kept[i] = 1;
          inRange++;
        }
        return kept;
      };
      const c = decodePack(data, null, { fields: o.fields, sensors: o.fields !== undefined, keep: mark });
      for (let i = 0; i < c.n; i++) if (kept[i] === 1) out.push(packRow(c, i));
      g += inRange;
      continue;
    }
    for (const row of await materialise(q, deviceRef, s, { fields: o.fields, sensors: o.fields !== undefined })) {
      if (keep(g)) out.push(row);
      g++;
    }
  }
  return out;
}

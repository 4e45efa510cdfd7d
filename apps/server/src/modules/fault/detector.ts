// The fault detector: finds what is wrong with devices themselves (fault.ts) in what the intake
// stores and refuses. It is told of every stored batch (the readings, and when each device had
// last been heard of before them), of the refused reports of known devices, and opens a fault
// per device and kind, or counts another occurrence on the unresolved one.
//
// Cost: a stored batch is sorted into signals in memory; a report that is normal for every rule
// (the great majority) leaves no signal, so it costs a few property checks and no database work
// at all, read or write. A normal report still ends a run (sensor or GPS failures running): when
// the next bad report of the device comes, the stored readings between the run's last bad report
// and it are asked whether one of them was normal (one indexed query per batch for every gap),
// so the run ends wherever the normal report was taken, by any process, in device-time order.
// Only batches with signals open a transaction: the devices concerned are locked (advisory locks
// in one order, so several processes count one device one after the other), their counters read,
// advanced and written back, and the faults upserted on their partial unique index.
//
// Offline episodes: a device is heard of again after a silence longer than the offline time. The
// reading store reads when a device had last been heard of, in the transaction that replaces it,
// and only for devices its process has not itself written within the offline time (so nothing in
// steady reporting); two writes of one device racing each other (two processes) may both see the
// old silence, so an episode whose silence began before the end of the last counted one is not
// counted again.
//
// Runs and windows count per device and kind in `fault_counters`. A run counts bad reports
// running; at the threshold the fault fires and the run starts again (a failure that goes on
// fires again every threshold reports). A window counts events from its first one; an event
// after the window's end starts a new window; at the threshold the fault fires and counting
// starts again. Times: device times for readings, received times for silences, the intake's
// clock for refusals.
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { FAULT_THRESHOLDS, type FaultKind } from '@iotc/shared/fault';
import type { SensorValues } from '@iotc/shared/sensors';
import { LOCKS, rowsOf, xactLockKeys, type Db, type Tx } from '../../db/client.ts';
import { uuidList } from '../../db/list.ts';
import { batchQueue } from '../../lib/batch-queue.ts';
import type { Refusal } from '../../ingest/pipeline.ts';
import type { Reading, StoredState } from '../../ingest/stored-readings.ts';

const HOUR = 3_600_000;
const T = FAULT_THRESHOLDS;

type RunKind = 'sensor_failure' | 'gps_failure';
type WindowKind = 'offline_repeatedly' | 'bad_reports';

/** One thing seen that counts towards a fault. */
export interface Signal {
  kind: FaultKind;
  deviceRef: string;
  /** Epoch ms. */
  at: number;
  /** Events it stands for (several refused reports of one message); 1 otherwise. */
  n: number;
  /** offline_repeatedly: when the silence began (the previous received time). */
  before?: number;
  detail: Record<string, unknown>;
}

/** A counter as kept in `fault_counters` (times in epoch ms). */
export interface Counter {
  count: number;
  since: number;
  lastAt: number;
}

/** A fault to open or count on: `n` occurrences, the first and last at these times. */
export interface Fire {
  deviceRef: string;
  kind: FaultKind;
  n: number;
  firstAt: number;
  lastAt: number;
  detail: Record<string, unknown>;
}

// ---- what one reading says

/** The temperature / humidity sensor: 'bad' (no reading, or humidity above 100 %), 'ok', or null when the report has no such block. */
export function sensorVerdict(sensors: SensorValues): 'ok' | 'bad' | null {
  if (sensors.temperature === undefined && sensors.humidity === undefined) return null;
  return sensors.temperature === null || (sensors.humidity ?? 0) > 100 ? 'bad' : 'ok';
}

/** GPS: 'bad' when the report claims a GPS fix without a usable position (missing, or 0,0), 'ok' with one, null when it claims no GPS fix. */
export function gpsVerdict(r: { lat?: number | null; lon?: number | null; positioning?: string | null }): 'ok' | 'bad' | null {
  if (r.positioning !== 'GPS') return null;
  const lat = r.lat ?? null;
  const lon = r.lon ?? null;
  return lat === null || lon === null || (lat === 0 && lon === 0) ? 'bad' : 'ok';
}

// The same "normal" as SQL over stored readings, for the gaps between a run's bad reports.
const NORMAL_SQL: Record<RunKind, ReturnType<typeof sql.raw>> = {
  sensor_failure: sql.raw(
    `((t.sensors ? 'temperature' or t.sensors ? 'humidity') and jsonb_typeof(t.sensors -> 'temperature') is distinct from 'null'
      and coalesce((t.sensors ->> 'humidity')::float8, 0) <= 100)`,
  ),
  gps_failure: sql.raw(`(t.positioning = 'GPS' and t.lat is not null and t.lon is not null and not (t.lat = 0 and t.lon = 0))`),
};

/** The signals of stored readings: bad sensor or GPS reports and low batteries; normal reports give none. */
export function readingSignals(readings: readonly Reading[]): Signal[] {
  const out: Signal[] = [];
  for (const r of readings) {
    const s = (r.sensors ?? {}) as SensorValues;
    const at = r.time.getTime();
    if (sensorVerdict(s) === 'bad') {
      const detail: Record<string, unknown> =
        s.temperature === null ? { reason: 'temperature sensor gives no reading', temperature: null } : { reason: 'humidity above 100 percent', humidity: s.humidity };
      out.push({ kind: 'sensor_failure', deviceRef: r.deviceRef, at, n: 1, detail });
    }
    if (gpsVerdict(r) === 'bad') {
      out.push({ kind: 'gps_failure', deviceRef: r.deviceRef, at, n: 1, detail: { reason: 'GPS fix without a usable position', lat: r.lat ?? null, lon: r.lon ?? null } });
    }
    if (s.battery !== undefined && s.battery < T.lowBatteryPercent) {
      out.push({ kind: 'low_battery', deviceRef: r.deviceRef, at, n: 1, detail: { reason: `battery below ${T.lowBatteryPercent} percent`, value: s.battery, limit: T.lowBatteryPercent } });
    }
  }
  return out;
}

/** Devices heard of again after a silence longer than `offlineAfterMs`. */
export function silenceSignals(states: readonly StoredState[], heardBefore: ReadonlyMap<string, Date>, offlineAfterMs: number): Signal[] {
  const out: Signal[] = [];
  for (const s of states) {
    const before = heardBefore.get(s.deviceRef)?.getTime();
    const at = s.receivedAt.getTime();
    if (before === undefined || at - before <= offlineAfterMs) continue;
    out.push({ kind: 'offline_repeatedly', deviceRef: s.deviceRef, at, n: 1, before, detail: { reason: 'silent longer than the offline time', silentS: Math.round((at - before) / 1000) } });
  }
  return out;
}

// ---- counting (pure: the transaction below feeds them what is stored)

/**
 * A run of bad reports of one device and kind, oldest first. `normalBetween(a, b)` says whether a
 * normal report was stored between two bad ones (exclusive): it ends the run.
 */
export function advanceRun(
  counter: Counter | null,
  signals: readonly Signal[],
  threshold: number,
  normalBetween: (after: number, before: number) => boolean,
): { counter: Counter | null; fires: { at: number; detail: Record<string, unknown> }[] } {
  let count = counter?.count ?? 0;
  let since = counter?.since ?? 0;
  let last: number | null = counter?.lastAt ?? null;
  const fires: { at: number; detail: Record<string, unknown> }[] = [];
  for (const s of signals) {
    if (last !== null && s.at > last && normalBetween(last, s.at)) count = 0;
    if (count === 0) since = s.at;
    count++;
    if (count >= threshold) {
      fires.push({ at: s.at, detail: { ...s.detail, reports: count, since: new Date(since).toISOString() } });
      count = 0;
    }
    last = last === null ? s.at : Math.max(last, s.at);
  }
  return { counter: count > 0 ? { count, since, lastAt: last! } : null, fires };
}

/**
 * Events of one device and kind within a window that begins at its first event, oldest first.
 * An offline episode whose silence began before the end of the last one counted is that one,
 * seen again by a racing write: it is not counted twice. The counter is kept at zero after a fire
 * so that this holds across fires.
 */
export function advanceWindow(
  counter: Counter | null,
  signals: readonly Signal[],
  threshold: number,
  windowMs: number,
): { counter: Counter | null; fires: { at: number; detail: Record<string, unknown> }[] } {
  let count = counter?.count ?? 0;
  let since = counter?.since ?? 0;
  let last: number | null = counter?.lastAt ?? null;
  const fires: { at: number; detail: Record<string, unknown> }[] = [];
  for (const s of signals) {
    if (s.before !== undefined && last !== null && s.before < last) continue;
    if (count === 0 || s.at - since > windowMs) {
      count = 0;
      since = s.at;
    }
    count += s.n;
    last = last === null ? s.at : Math.max(last, s.at);
    if (count >= threshold) {
      for (let k = Math.floor(count / threshold); k > 0; k--) fires.push({ at: s.at, detail: { ...s.detail, times: threshold } });
      count %= threshold;
      since = s.at;
    }
  }
  return { counter: last === null ? counter : { count, since, lastAt: last }, fires };
}

const RUNS: Record<RunKind, number> = { sensor_failure: T.sensorFailureReports, gps_failure: T.gpsFailureReports };
const WINDOWS: Record<WindowKind, { threshold: number; windowMs: number; extra: Record<string, unknown> }> = {
  offline_repeatedly: { threshold: T.offlineTimes, windowMs: T.offlineWindowHours * HOUR, extra: { hours: T.offlineWindowHours } },
  bad_reports: { threshold: T.badReports, windowMs: T.badReportsWindowMinutes * 60_000, extra: { minutes: T.badReportsWindowMinutes } },
};
const isRun = (k: FaultKind): k is RunKind => k in RUNS;
const isWindow = (k: FaultKind): k is WindowKind => k in WINDOWS;

/** Locks the fault counting of devices until the transaction ends (in one order, so two lockers never wait on each other). */
export async function lockFaultCounters(tx: Tx, refs: string[]) {
  await xactLockKeys(tx, LOCKS.faultDevice, refs);
}

export function faultDetector(db: Db, opts: { log: FastifyBaseLogger; offlineAfterMs: number }) {
  async function countersOf(tx: Tx, refs: string[]): Promise<Map<string, Counter>> {
    const rows = rowsOf<{ device_ref: string; kind: string; count: number; since: Date | string; last_at: Date | string }>(
      await tx.execute(sql`select device_ref, kind, count, since, last_at from fault_counters where device_ref = any(${uuidList(refs)})`),
    );
    return new Map(rows.map((r) => [`${r.device_ref}|${r.kind}`, { count: Number(r.count), since: new Date(r.since).getTime(), lastAt: new Date(r.last_at).getTime() }]));
  }

  /** Which of the gaps (device, kind, after, before) hold a normal stored reading: one query for all. */
  async function normalGaps(tx: Tx, gaps: { deviceRef: string; kind: RunKind; after: number; before: number }[]): Promise<Set<number>> {
    if (gaps.length === 0) return new Set();
    const json = JSON.stringify(gaps.map((g, i) => ({ i, device_ref: g.deviceRef, kind: g.kind, after: new Date(g.after).toISOString(), before: new Date(g.before).toISOString() })));
    const rows = rowsOf<{ i: number }>(
      await tx.execute(sql`select x.i from jsonb_to_recordset(${json}::jsonb) as x(i int, device_ref uuid, kind text, after timestamptz, before timestamptz)
        where exists (select 1 from telemetry t where t.device_ref = x.device_ref and t.time > x.after and t.time < x.before
          and case x.kind when 'sensor_failure' then ${NORMAL_SQL.sensor_failure} else ${NORMAL_SQL.gps_failure} end)`),
    );
    return new Set(rows.map((r) => Number(r.i)));
  }

  /** Counts one batch of signals; answers how many faults were opened or counted on. */
  async function detect(signals: Signal[]): Promise<number> {
    const groups = new Map<string, Signal[]>();
    for (const s of signals) {
      const key = `${s.deviceRef}|${s.kind}`;
      (groups.get(key) ?? groups.set(key, []).get(key)!).push(s);
    }
    for (const g of groups.values()) g.sort((a, b) => a.at - b.at);
    const fires: Fire[] = [];
    const fire = (deviceRef: string, kind: FaultKind, shots: { at: number; detail: Record<string, unknown> }[]) => {
      if (shots.length === 0) return;
      fires.push({ deviceRef, kind, n: shots.length, firstAt: shots[0]!.at, lastAt: shots.reduce((m, s) => Math.max(m, s.at), -Infinity), detail: shots.at(-1)!.detail });
    };
    // A low battery needs no counting: each report below the limit is an occurrence.
    for (const g of groups.values()) if (g[0]!.kind === 'low_battery') fire(g[0]!.deviceRef, 'low_battery', g);

    const counted = [...groups.values()].filter((g) => g[0]!.kind !== 'low_battery');
    return db.transaction(async (tx) => {
      if (counted.length) {
        const refs = [...new Set(counted.map((g) => g[0]!.deviceRef))];
        await lockFaultCounters(tx, refs);
        const counters = await countersOf(tx, refs);
        // The gaps between a run's bad reports (and from its last stored one) that a normal report may have ended it in.
        const gaps: { deviceRef: string; kind: RunKind; after: number; before: number }[] = [];
        const gapIndex = new Map<string, number>();
        for (const g of counted) {
          const { deviceRef, kind } = g[0]!;
          if (!isRun(kind)) continue;
          let last = counters.get(`${deviceRef}|${kind}`)?.lastAt ?? null;
          for (const s of g) {
            if (last !== null && s.at > last) {
              gapIndex.set(`${deviceRef}|${kind}|${last}|${s.at}`, gaps.length);
              gaps.push({ deviceRef, kind, after: last, before: s.at });
            }
            last = last === null ? s.at : Math.max(last, s.at);
          }
        }
        const normal = await normalGaps(tx, gaps);

        const keep: { device_ref: string; kind: string; count: number; since: string; last_at: string }[] = [];
        const drop: { device_ref: string; kind: string }[] = [];
        for (const g of counted) {
          const { deviceRef, kind } = g[0]!;
          const before = counters.get(`${deviceRef}|${kind}`) ?? null;
          let out: ReturnType<typeof advanceRun>;
          if (isRun(kind)) {
            out = advanceRun(before, g, RUNS[kind], (a, b) => normal.has(gapIndex.get(`${deviceRef}|${kind}|${a}|${b}`) ?? -1));
          } else if (isWindow(kind)) {
            const w = WINDOWS[kind];
            out = advanceWindow(before, g, w.threshold, w.windowMs);
            out.fires = out.fires.map((f) => ({ at: f.at, detail: { ...f.detail, ...w.extra } }));
            // A window at zero is kept for the check of racing episodes (advanceWindow); refusals need no such memory.
            if (kind === 'bad_reports' && out.counter?.count === 0) out.counter = null;
          } else continue;
          fire(deviceRef, kind, out.fires);
          if (out.counter) {
            keep.push({ device_ref: deviceRef, kind, count: out.counter.count, since: new Date(out.counter.since).toISOString(), last_at: new Date(out.counter.lastAt).toISOString() });
          } else if (before) {
            drop.push({ device_ref: deviceRef, kind });
          }
        }
        if (keep.length) {
          // A device deleted meanwhile is skipped rather than failing the batch on its foreign key.
          await tx.execute(sql`insert into fault_counters (device_ref, kind, count, since, last_at)
            select x.device_ref, x.kind, x.count, x.since, x.last_at
            from jsonb_to_recordset(${JSON.stringify(keep)}::jsonb) as x(device_ref uuid, kind text, count int, since timestamptz, last_at timestamptz)
            where exists (select 1 from devices d where d.id = x.device_ref)
            on conflict (device_ref, kind) do update set count = excluded.count, since = excluded.since, last_at = excluded.last_at`);
        }
        if (drop.length) {
          await tx.execute(sql`delete from fault_counters c using jsonb_to_recordset(${JSON.stringify(drop)}::jsonb) as x(device_ref uuid, kind text)
            where c.device_ref = x.device_ref and c.kind = x.kind`);
        }
      }
      if (fires.length === 0) return 0;
      // One unresolved fault per device and kind: a new one, or the occurrences counted on the one there.
      // Resolving it concurrently takes it off the index, and the insert then opens a new one.
      const json = JSON.stringify(
        fires.map((f) => ({ device_ref: f.deviceRef, kind: f.kind, n: f.n, first_at: new Date(f.firstAt).toISOString(), last_at: new Date(f.lastAt).toISOString(), detail: f.detail })),
      );
      await tx.execute(sql`insert into faults (org_id, device_ref, kind, status, first_at, last_at, count, detail)
        select d.org_id, x.device_ref, x.kind, 'open', x.first_at, x.last_at, x.n, x.detail
        from jsonb_to_recordset(${json}::jsonb) as x(device_ref uuid, kind text, n int, first_at timestamptz, last_at timestamptz, detail jsonb)
        join devices d on d.id = x.device_ref
        on conflict (device_ref, kind) where status <> 'resolved' do update set
          last_at = greatest(faults.last_at, excluded.last_at),
          count = faults.count + excluded.count,
          detail = excluded.detail`);
      return fires.length;
    });
  }

  // One batch at a time per process, in the order the intake handed them over.
  const batches = batchQueue<Signal>(
    async (batch) => {
      await detect(batch);
    },
    (err, size) => opts.log.error({ err, signals: size }, 'fault detection failed'),
  );

  /** Never throws into the intake: a failure is logged and the intake goes on. */
  const guarded = (what: string, make: () => Signal[]) => {
    try {
      batches.push(make());
    } catch (err) {
      opts.log.error({ err }, `fault detection failed (${what})`);
    }
  };

  return {
    /** A stored batch (the reading store's onStored): its readings, and silences that ended with it. */
    stored(states: readonly StoredState[], readings: readonly Reading[], heardBefore: ReadonlyMap<string, Date>) {
      guarded('readings', () => [...readingSignals(readings), ...silenceSignals(states, heardBefore, opts.offlineAfterMs)]);
    },
    /** Refused reports of a known device (the intake pipeline's onRefused). */
    refused(r: Refusal) {
      guarded('refusals', () => [{ kind: 'bad_reports', deviceRef: r.deviceRef, at: r.at.getTime(), n: r.count, detail: { reason: 'reports refused by the intake', lastRefusal: r.reason.slice(0, 200) } }]);
    },
    /** Resolves when everything handed over so far is counted. */
    settled: () => batches.settled(),
  };
}
export type FaultDetector = ReturnType<typeof faultDetector>;

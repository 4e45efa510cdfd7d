// Automatic start and end of transport tasks, from what the intake stores. A pending task starts
// when its main device (the first of its devices) leaves the origin area and moves; a task in
// transit arrives when that device stops inside the destination area for the task's dwell time.
// Both are judged on the device's history with the trip detection of packages/shared/src/trips.ts
// (distance and duration thresholds of the task, 200 m and 180 s by default), so GPS jumps, LBS
// positions and data gaps do not start or end a task. The move itself is the task service's
// `recognised()`, which checks the status again under the task's lock: several processes may
// recognise the same thing, one of them moves it.
//
// Cheap for the intake: the devices with a live task are kept in memory (read at most every
// TASK_DEVICES_CACHE_MS, at once after invalidate()); a batch without them costs nothing. A
// device's history is read only when its newest fix is outside the origin (pending) or inside
// the destination (in transit), and at most once per RECHECK_AFTER_MS of device time per task.
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { distanceM } from '@iotc/shared/alarm-rules';
import type { TaskDetection, TaskPlace } from '@iotc/shared/transport';
import { detectTrips, taskProgress, type Track } from '@iotc/shared/trips';
import { rowsOf, type Db } from '../../db/client.ts';
import { batchQueue } from '../../lib/batch-queue.ts';
import { readPackRows } from '../archive/reader.ts';

export const TASK_DEVICES_CACHE_MS = 5_000;
/** A task's history is read again only when its device's newest reading is this much newer than at the last read. */
export const RECHECK_AFTER_MS = 30_000;
/** History read before a pending task was created (a task planned just after the vehicle left still starts). */
const LOOK_BACK_MS = 3_600_000;
/** Most readings read for one judgement (the newest ones). */
const MAX_HISTORY = 100_000;

export interface RecognizerReading {
  deviceRef: string;
  time: Date;
  lat?: number | null;
  lon?: number | null;
  positioning?: string | null;
}

interface LiveTask {
  id: string;
  status: 'pending' | 'in_transit';
  deviceRef: string;
  origin: TaskPlace;
  destination: TaskPlace;
  detection: TaskDetection;
  createdAt: Date;
  startedAt: Date | null;
}

type Move = (taskId: string, to: 'in_transit' | 'arrived', at: Date) => Promise<boolean>;

export function taskRecognizer(db: Db, opts: { log: FastifyBaseLogger; move: Move; now?: () => number }) {
  const now = opts.now ?? (() => Date.now());
  let cache: { until: number; byDevice: Map<string, LiveTask[]> } | null = null;
  let loading: Promise<Map<string, LiveTask[]>> | null = null;
  let generation = 0;
  /** Per task: device time of the newest reading at its last judgement. */
  const judgedAt = new Map<string, number>();

  async function liveTasks(): Promise<Map<string, LiveTask[]>> {
    if (cache && cache.until > now()) return cache.byDevice;
    const started = generation;
    loading ??= (async () => {
      const rows = rowsOf<{
        id: string;
        status: 'pending' | 'in_transit';
        device_ref: string;
        origin_lat: number;
        origin_lon: number;
        origin_radius_m: number;
        origin_name: string;
        destination_lat: number;
        destination_lon: number;
        destination_radius_m: number;
        destination_name: string;
        settings: { detection?: TaskDetection };
        created_at: Date | string;
        started_at: Date | string | null;
      }>(
        await db.execute(sql`select t.id, t.status, d.device_ref, t.origin_lat, t.origin_lon, t.origin_radius_m, t.origin_name,
            t.destination_lat, t.destination_lon, t.destination_radius_m, t.destination_name, t.settings, t.created_at, t.started_at
          from transport_tasks t join transport_task_devices d on d.task_id = t.id and d.position = 0
          where t.status in ('pending', 'in_transit')`),
      );
      const byDevice = new Map<string, LiveTask[]>();
      for (const r of rows) {
        const detection = r.settings.detection;
        if (!detection?.auto) continue;
        const task: LiveTask = {
          id: r.id,
          status: r.status,
          deviceRef: r.device_ref,
          origin: { name: r.origin_name, address: '', lat: Number(r.origin_lat), lon: Number(r.origin_lon), radiusM: Number(r.origin_radius_m) },
          destination: { name: r.destination_name, address: '', lat: Number(r.destination_lat), lon: Number(r.destination_lon), radiusM: Number(r.destination_radius_m) },
          detection,
          createdAt: new Date(r.created_at),
          startedAt: r.started_at ? new Date(r.started_at) : null,
        };
        (byDevice.get(task.deviceRef) ?? byDevice.set(task.deviceRef, []).get(task.deviceRef)!).push(task);
      }
      if (started === generation) cache = { until: now() + TASK_DEVICES_CACHE_MS, byDevice };
      return byDevice;
    })().finally(() => (loading = null));
    return loading;
  }

  /** The device's GPS/LBS history from `since`, oldest first, at most MAX_HISTORY of the newest readings. */
  async function history(deviceRef: string, since: Date): Promise<Track> {
    const newest = await readPackRows(db, deviceRef, { from: since.getTime(), to: Number.MAX_SAFE_INTEGER / 1000 }, { sensors: false, desc: true, limit: MAX_HISTORY, filter: (p) => p.lat !== null && p.lon !== null });
    const rows = newest.reverse();
    return {
      t: Float64Array.from(rows, (r) => Math.floor(r.timeUs / 1000)),
      lat: Float64Array.from(rows, (r) => r.lat!),
      lon: Float64Array.from(rows, (r) => r.lon!),
      lbs: Uint8Array.from(rows, (r) => (r.positioning === 'LBS' ? 1 : 0)),
    };
  }

  const tripOptions = (d: TaskDetection) => ({ stopRadiusM: d.moveM, stopMinS: d.moveS });

  /** When the device arrived: the first stop since `from` inside the destination lasting the dwell time. */
  function arrival(track: Track, task: LiveTask, from: number): number | null {
    const r = detectTrips(track, tripOptions(task.detection));
    const dwellS = Math.max(task.detection.dwellS, task.detection.moveS);
    for (const stop of r.stops) {
      if (stop.endT < from || stop.durationS < dwellS) continue;
      if (distanceM(stop.lat, stop.lon, task.destination.lat, task.destination.lon) <= task.destination.radiusM) return Math.max(stop.startT, from);
    }
    return null;
  }

  /**
   * The history from which a departure counts: from the first fix inside the origin (arriving
   * there on the way in is not leaving it), or, when the device was never there, from the task's
   * creation (planned while on its way: it starts at once).
   */
  function fromOrigin(track: Track, task: LiveTask): Track {
    const n = track.t.length;
    let from = -1;
    for (let i = 0; i < n && from < 0; i++) {
      if (!track.lbs?.[i] && distanceM(track.lat[i]!, track.lon[i]!, task.origin.lat, task.origin.lon) <= task.origin.radiusM) from = i;
    }
    if (from < 0) {
      const created = task.createdAt.getTime();
      from = 0;
      while (from < n && track.t[from]! < created) from++;
    }
    const cut = <T extends Float64Array | Uint8Array>(a: T) => a.subarray(from) as T;
    return { t: cut(track.t as Float64Array), lat: cut(track.lat as Float64Array), lon: cut(track.lon as Float64Array), lbs: cut(track.lbs as Uint8Array) };
  }

  /** Answers whether the task moved. */
  async function judge(task: LiveTask): Promise<boolean> {
    if (task.status === 'pending') {
      const track = fromOrigin(await history(task.deviceRef, new Date(task.createdAt.getTime() - LOOK_BACK_MS)), task);
      const plan = { origin: task.origin, destination: task.destination, dwellS: Math.max(task.detection.dwellS, task.detection.moveS) };
      const p = taskProgress(track, plan, tripOptions(task.detection));
      if (!p.start) return false;
      const started = await opts.move(task.id, 'in_transit', new Date(p.start.t));
      if (started && p.end) await opts.move(task.id, 'arrived', new Date(p.end.t));
      return started;
    }
    const since = task.startedAt ?? task.createdAt;
    const at = arrival(await history(task.deviceRef, since), task, since.getTime());
    return at !== null && (await opts.move(task.id, 'arrived', new Date(at)));
  }

  async function run(readings: RecognizerReading[]) {
    const tasks = await liveTasks();
    if (tasks.size === 0) return;
    // The newest fix of each device with a live task.
    const newest = new Map<string, RecognizerReading>();
    for (const r of readings) {
      if (!tasks.has(r.deviceRef) || r.lat == null || r.lon == null || r.positioning === 'LBS') continue;
      const seen = newest.get(r.deviceRef);
      if (!seen || seen.time < r.time) newest.set(r.deviceRef, r);
    }
    let moved = false;
    for (const [ref, r] of newest) {
      for (const task of tasks.get(ref)!) {
        const t = r.time.getTime();
        const last = judgedAt.get(task.id);
        if (last !== undefined && t - last < RECHECK_AFTER_MS) continue;
        const area = task.status === 'pending' ? task.origin : task.destination;
        const inside = distanceM(r.lat!, r.lon!, area.lat, area.lon) <= area.radiusM;
        // A pending task can only start once the device is out of the origin; one in transit only arrive inside the destination.
        if (task.status === 'pending' ? inside : !inside) continue;
        judgedAt.set(task.id, t);
        if (judgedAt.size > 100_000) judgedAt.clear();
        try {
          if (await judge(task)) {
            moved = true;
            // In transit now: its arrival is judged from the next reading on.
            judgedAt.delete(task.id);
          }
        } catch (err) {
          opts.log.warn({ err, taskId: task.id }, 'task recognition failed');
        }
      }
    }
    if (moved) invalidate();
  }

  const queue = batchQueue<RecognizerReading>(run, (err, size) => opts.log.warn({ err, size }, 'task recognition batch failed'));

  function invalidate() {
    generation++;
    cache = null;
  }

  return {
    /** Readings just stored (any order). */
    stored(readings: readonly RecognizerReading[]) {
      queue.push(readings);
    },
    /** A task was created, changed or moved: read the live tasks again before the next batch. */
    invalidate,
    async settled() {
      await queue.settled();
    },
  };
}

export type TaskRecognizer = ReturnType<typeof taskRecognizer>;

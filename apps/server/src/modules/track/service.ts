// History tracks of a device or of a transport task (its first device over its journey), for the
// map, the playback and the curves (packages/shared/src/track.ts).
//
// A month at one point per second is 2.6 million readings: reading them all takes seconds, so
// the track answers at most `maxPoints`. It first reads up to maxPoints + 1 readings of the
// range in time order (the primary key (device_ref, time) serves them); if there are no more,
// that is the full detail. Otherwise the range is cut into maxPoints buckets and the first
// reading of each is fetched with one index probe per bucket (a loose index scan: a LATERAL
// subquery with LIMIT 1 over generate_series), so the cost follows the number of buckets, not
// of readings. The client asks again for the window it zooms into.
//
// The summary (trips, stops, statistics, alarm markers) needs the shape of the whole range: the
// whole closed days come in full from the readings archive (modules/archive); any other span is read
// in full when it has at most SUMMARY_FULL_POINTS readings, else one per bucket of at least
// SUMMARY_BUCKET_S seconds; then the trip detection of packages/shared/src/trips.ts runs.
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import { detectTrips } from '@iotc/shared/trips';
import { MAX_TRACK_DAYS, SUMMARY_BUCKET_S, type TrackAnswer, type TrackPoints, type TrackQuery, type TrackSummary } from '@iotc/shared/track';
import type { Db } from '../../db/client.ts';
import { alarmLevels, alarms, devices, transportTaskDevices, transportTasks } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { isUsableFix, readFixes, type Fixes } from '../archive/fixes.ts';
import { firstPerBucket, readPackRows, sensorNumber, sensorsOf } from '../archive/reader.ts';
import type { PackRow } from '../archive/pack.ts';
import type { Caller } from '../../lib/caller.ts';
import type { Lang } from '@iotc/shared/i18n';

/** The summary reads every position up to this many; past it, one per bucket. */
export const SUMMARY_FULL_POINTS = 100_000;
/** Most alarm markers of one track. */
const MAX_ALARM_MARKERS = 500;
const DAY_MS = 86_400_000;

interface Target {
  device: { id: string; deviceId: string; name: string };
  task: { id: string; code: string } | null;
  from: Date;
  to: Date;
  limits: TrackAnswer['limits'];
}

interface RawPoint {
  t: number;
  lat: number | null;
  lon: number | null;
  positioning: string | null;
  speed: number | null;
  temp: number | null;
  humidity: number | null;
  door: number | null;
}

/** The sensor values the track's curves show. */
const CURVE_FIELDS = ['temperature', 'humidity', 'door'];

/** A reading as a point (its sensors: the curve fields only). */
const toPoint = (p: PackRow): RawPoint => {
  const s = sensorsOf(p);
  return {
    t: Math.floor(p.timeUs / 1000),
    lat: p.lat,
    lon: p.lon,
    positioning: p.positioning,
    speed: p.speed,
    temp: sensorNumber(s, 'temperature'),
    humidity: sensorNumber(s, 'humidity'),
    door: s.door === 'open' ? 1 : s.door === 'closed' ? 0 : null,
  };
};

function columns(points: RawPoint[]): TrackPoints {
  const usable = (p: RawPoint) => p.lat !== null && p.lon !== null && Number.isFinite(p.lat) && Number.isFinite(p.lon) && !(p.lat === 0 && p.lon === 0);
  return {
    t: points.map((p) => p.t),
    lat: points.map((p) => (usable(p) ? p.lat : null)),
    lon: points.map((p) => (usable(p) ? p.lon : null)),
    lbs: points.map((p) => (p.positioning === 'LBS' ? 1 : 0)),
    speed: points.map((p) => p.speed),
    temp: points.map((p) => p.temp),
    humidity: points.map((p) => p.humidity),
    door: points.map((p) => p.door),
  };
}

export function trackService(db: Db) {
  /** The device (or the task's first device) and the range, when the caller's tree holds it; else 404. */
  async function target(caller: Caller, q: TrackQuery): Promise<Target> {
    const scope = caller.scope.orgs;
    let device: Target['device'] | undefined;
    let task: Target['task'] = null;
    let limits: Target['limits'] = null;
    let from = q.from ? new Date(q.from) : undefined;
    let to = q.to ? new Date(q.to) : undefined;
    if (q.taskId) {
      const [row] = await db
        .select({ t: transportTasks, deviceRef: transportTaskDevices.deviceRef })
        .from(transportTasks)
        .innerJoin(transportTaskDevices, and(eq(transportTaskDevices.taskId, transportTasks.id), eq(transportTaskDevices.position, 0)))
        .where(eq(transportTasks.id, q.taskId));
      if (!row || !scope.includes(row.t.orgId)) throw new AppError(404, 'NOT_FOUND');
      const t = row.t;
      task = { id: t.id, code: t.code };
      const settings = t.settings as { tempMin?: number | null; tempMax?: number | null; humidityMin?: number | null; humidityMax?: number | null };
      limits = { tempMin: settings.tempMin ?? null, tempMax: settings.tempMax ?? null, humidityMin: settings.humidityMin ?? null, humidityMax: settings.humidityMax ?? null };
      from ??= t.startedAt ?? t.plannedStart ?? t.createdAt;
      to ??= t.completedAt ?? t.cancelledAt ?? (t.status === 'arrived' || t.status === 'in_transit' || t.status === 'pending' ? new Date() : (t.arrivedAt ?? new Date()));
      if (!q.deviceId) {
        const [d] = await db.select({ id: devices.id, deviceId: devices.deviceId, name: devices.name }).from(devices).where(eq(devices.id, row.deviceRef));
        device = d;
      }
    }
    if (q.deviceId) {
      const [d] = await db.select({ id: devices.id, deviceId: devices.deviceId, name: devices.name, orgId: devices.orgId }).from(devices).where(eq(devices.id, q.deviceId));
      if (!d || !scope.includes(d.orgId)) throw new AppError(404, 'NOT_FOUND');
      device = { id: d.id, deviceId: d.deviceId, name: d.name };
    }
    if (!device) throw new AppError(404, 'NOT_FOUND');
    to ??= new Date();
    from ??= new Date(to.getTime() - DAY_MS);
    if (to.getTime() <= from.getTime()) throw new AppError(400, 'TRACK_RANGE_INVERTED');
    if (to.getTime() - from.getTime() > MAX_TRACK_DAYS * DAY_MS) throw new AppError(400, 'TRACK_RANGE_TOO_LONG');
    return { device, task, from, to, limits };
  }

  /** Up to `limit` readings of the range in time order. */
  async function firstReadings(ref: string, from: Date, to: Date, limit: number, withSensors: boolean): Promise<RawPoint[]> {
    return (await readPackRows(db, ref, { from: from.getTime(), to: to.getTime() }, { sensors: withSensors, fields: withSensors ? CURVE_FIELDS : undefined, limit })).map(toPoint);
  }

  /** The first reading of each of `buckets` equal slices of the range. */
  async function bucketed(ref: string, from: Date, to: Date, bucketMs: number, withSensors: boolean): Promise<RawPoint[]> {
    return (await firstPerBucket(db, ref, { from: from.getTime(), to: to.getTime() }, bucketMs, { sensors: withSensors, fields: withSensors ? CURVE_FIELDS : undefined })).map(toPoint);
  }

  return {
    async track(caller: Caller, q: TrackQuery): Promise<TrackAnswer> {
      const tg = await target(caller, q);
      const head = await firstReadings(tg.device.id, tg.from, tg.to, q.maxPoints + 1, true);
      let points = head;
      let bucketS: number | null = null;
      if (head.length > q.maxPoints) {
        // Whole seconds, so that the client can say "one point per N s".
        bucketS = Math.ceil((tg.to.getTime() - tg.from.getTime()) / q.maxPoints / 1000);
        points = await bucketed(tg.device.id, tg.from, tg.to, bucketS * 1000, true);
      }
      return {
        device: tg.device,
        task: tg.task,
        from: tg.from.toISOString(),
        to: tg.to.toISOString(),
        simplified: bucketS !== null,
        bucketS,
        points: columns(points),
        limits: tg.limits,
      };
    },

    async summary(caller: Caller, q: TrackQuery, lang: Lang): Promise<TrackSummary> {
      const tg = await target(caller, q);
      // Whole closed days come packed from the archive; a span without a pack is read in full up
      // to SUMMARY_FULL_POINTS readings, else thinned to one per bucket.
      const readSpan = async (a: number, b: number): Promise<Fixes> => {
        let points = await firstReadings(tg.device.id, new Date(a), new Date(b), SUMMARY_FULL_POINTS + 1, false);
        if (points.length > SUMMARY_FULL_POINTS) {
          const bucketMs = Math.max(SUMMARY_BUCKET_S * 1000, Math.ceil((b - a) / SUMMARY_FULL_POINTS));
          points = await bucketed(tg.device.id, new Date(a), new Date(b), bucketMs, false);
        }
        const withFix = points.filter((p) => isUsableFix(p.lat, p.lon));
        return {
          t: Float64Array.from(withFix, (p) => p.t),
          lat: Float64Array.from(withFix, (p) => p.lat!),
          lon: Float64Array.from(withFix, (p) => p.lon!),
          lbs: Uint8Array.from(withFix, (p) => (p.positioning === 'LBS' ? 1 : 0)),
          speed: Float64Array.from(withFix, (p) => p.speed ?? Number.NaN),
        };
      };
      const { fixes: track } = await readFixes(db, tg.device.id, tg.from.getTime(), tg.to.getTime(), readSpan);
      const n = track.t.length;
      const r = detectTrips(track);
      const trips = r.trips.map((t) => ({ startT: t.startT, endT: t.endT, durationS: t.durationS, distanceM: t.distanceM, maxSpeedKmh: t.maxSpeedKmh, avgSpeedKmh: t.avgSpeedKmh }));
      const distanceM = r.trips.reduce((s, t) => s + t.distanceM, 0);
      const movingS = r.trips.reduce((s, t) => s + t.movingS, 0);
      const alarmRows = await db
        .select({ id: alarms.id, type: alarms.type, startedAt: alarms.startedAt, lat: alarms.lat, lon: alarms.lon, value: alarms.value, nameZh: alarmLevels.nameZh, nameEn: alarmLevels.nameEn, color: alarmLevels.color })
        .from(alarms)
        .innerJoin(alarmLevels, eq(alarmLevels.id, alarms.levelId))
        .where(and(eq(alarms.deviceRef, tg.device.id), gte(alarms.startedAt, tg.from), lt(alarms.startedAt, tg.to)))
        .orderBy(asc(alarms.startedAt))
        .limit(MAX_ALARM_MARKERS);
      return {
        trips,
        stops: r.stops.map((s) => ({ startT: s.startT, endT: s.endT, durationS: s.durationS, lat: s.lat, lon: s.lon, open: s.open })),
        alarms: alarmRows.map((a) => ({
          id: a.id,
          type: a.type,
          startedAt: a.startedAt.toISOString(),
          lat: a.lat,
          lon: a.lon,
          levelName: lang === 'zh' ? a.nameZh : a.nameEn,
          levelColor: a.color,
          value: a.value,
        })),
        stats: {
          distanceM: Math.round(distanceM),
          durationS: n > 1 ? Math.round((track.t[n - 1]! - track.t[0]!) / 1000) : 0,
          movingS: Math.round(movingS),
          maxSpeedKmh: r.trips.reduce((m, t) => Math.max(m, t.maxSpeedKmh), 0),
          avgSpeedKmh: movingS > 0 ? (distanceM / 1000) / (movingS / 3600) : 0,
          stopCount: r.stops.length,
          points: n,
          jumps: r.ignored.length,
        },
      };
    },
  };
}

export type TrackService = ReturnType<typeof trackService>;

// History tracks: a device's (or a transport task's) positions and sensor values over a time
// range, for the map, the playback and the curves below it. A month at one point per second is
// millions of points, so the server answers at most `maxPoints`: the full detail when the range
// holds no more, otherwise one point per time bucket (the first of each), which draws at once; the
// client asks again for the window it zooms into. The summary (trips, stops, statistics, alarm
// markers) is a second call, computed from a sample no coarser than SUMMARY_BUCKET_S.
import { z } from 'zod';
import { blankAsUndefined, isoInstant } from './list.ts';

/** Longest range of one track query. */
export const MAX_TRACK_DAYS = 31;
export const DEFAULT_TRACK_POINTS = 5000;
export const MAX_TRACK_POINTS = 20_000;
/** The summary reads at least one point per this many seconds. */
export const SUMMARY_BUCKET_S = 30;

export const trackQuerySchema = z
  .object({
    /** The device (uuid), or the task (its first device over its start to its end or now). */
    deviceId: z.preprocess(blankAsUndefined, z.uuid().optional()),
    taskId: z.preprocess(blankAsUndefined, z.uuid().optional()),
    /** [from, to); with a task, default its start and its end (or now). */
    from: z.preprocess(blankAsUndefined, isoInstant.optional()),
    to: z.preprocess(blankAsUndefined, isoInstant.optional()),
    maxPoints: z.coerce.number().int().min(100).max(MAX_TRACK_POINTS).default(DEFAULT_TRACK_POINTS),
  })
  .refine((q) => q.deviceId || q.taskId, { message: 'TRACK_TARGET_REQUIRED', path: ['deviceId'] });
export type TrackQuery = z.infer<typeof trackQuerySchema>;

const nullableNumbers = z.array(z.number().nullable());

/**
 * Columnar points in time order: `t` epoch milliseconds; `lat`/`lon` null for a report without a
 * usable position; `lbs` 1 for a cell-tower (LBS) position, which the map does not draw as a fix.
 */
export const trackPointsSchema = z.object({
  t: z.array(z.number()),
  lat: nullableNumbers,
  lon: nullableNumbers,
  lbs: z.array(z.number().int()),
  speed: nullableNumbers,
  temp: nullableNumbers,
  humidity: nullableNumbers,
  /** 1 open, 0 closed, null unknown. */
  door: nullableNumbers,
});
export type TrackPoints = z.infer<typeof trackPointsSchema>;

export const trackSchema = z.object({
  device: z.object({ id: z.string(), deviceId: z.string(), name: z.string() }),
  task: z.object({ id: z.string(), code: z.string() }).nullable(),
  from: z.string(),
  to: z.string(),
  /** True when the range held more than maxPoints points and one per bucket was taken. */
  simplified: z.boolean(),
  /** The bucket length in seconds when simplified, else null. */
  bucketS: z.number().nullable(),
  points: trackPointsSchema,
  /** The task's limits (for the curves), when the track is a task's. */
  limits: z.object({ tempMin: z.number().nullable(), tempMax: z.number().nullable(), humidityMin: z.number().nullable(), humidityMax: z.number().nullable() }).nullable(),
});
export type TrackAnswer = z.infer<typeof trackSchema>;

export const trackStopSchema = z.object({
  startT: z.number(),
  endT: z.number(),
  durationS: z.number(),
  lat: z.number(),
  lon: z.number(),
  /** Still stopped at the end of the range. */
  open: z.boolean(),
});
export type TrackStop = z.infer<typeof trackStopSchema>;

export const trackTripSchema = z.object({
  startT: z.number(),
  endT: z.number(),
  durationS: z.number(),
  distanceM: z.number(),
  maxSpeedKmh: z.number(),
  avgSpeedKmh: z.number(),
});
export type TrackTrip = z.infer<typeof trackTripSchema>;

export const trackAlarmMarkerSchema = z.object({
  id: z.string(),
  type: z.string(),
  startedAt: z.string(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  levelName: z.string(),
  levelColor: z.string(),
  value: z.number().nullable(),
});
export type TrackAlarmMarker = z.infer<typeof trackAlarmMarkerSchema>;

export const trackSummarySchema = z.object({
  trips: z.array(trackTripSchema),
  stops: z.array(trackStopSchema),
  alarms: z.array(trackAlarmMarkerSchema),
  stats: z.object({
    distanceM: z.number(),
    /** First to last point of the range, seconds. */
    durationS: z.number(),
    movingS: z.number(),
    maxSpeedKmh: z.number(),
    /** Distance over moving time. */
    avgSpeedKmh: z.number(),
    stopCount: z.number().int(),
    /** Points read for the summary, and GPS jumps left out. */
    points: z.number().int(),
    jumps: z.number().int(),
  }),
});
export type TrackSummary = z.infer<typeof trackSummarySchema>;

export const TRACK_API = {
  track: '/api/iot/v2/tracks',
  summary: '/api/iot/v2/tracks/summary',
} as const;

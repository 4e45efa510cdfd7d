// Live device state: the status categories of the spec (section 4), how a status is decided,
// the shapes of the latest-state calls, the telemetry history calls and the WebSocket messages.
import { z } from 'zod';
import { blankAsUndefined, isoInstant, listQuerySchema } from './list.ts';
import type { AlarmRow } from './alarm.ts';
import type { TaskStatus } from './transport.ts';

/** Vehicle / device status categories (spec section 4), in the order the console lists them. */
export const DEVICE_STATUSES = ['unused', 'shutdown', 'offline', 'parked', 'driving'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** Status colours shared by the map markers, the table badges and the home counters. */
export const STATUS_COLORS: Record<DeviceStatus, string> = {
  unused: '#bfbfbf',
  shutdown: '#8c8c8c',
  offline: '#ff4d4f',
  parked: '#0958d9',
  driving: '#52c41a',
};

/** Silence after which a device counts as offline, unless OFFLINE_AFTER_SECONDS says otherwise. */
export const DEFAULT_OFFLINE_AFTER_MS = 10 * 60_000;
/** A device moving slower than this (km/h) is parked. */
export const PARKED_BELOW_KMH = 3;

export interface StatusInput {
  /** When the platform last took a report from the device (null: never). */
  lastSeenAt: Date | null;
  speed: number | null;
  /** Ignition / power: false when the last report said the engine or device is off. */
  acc: boolean | null;
}

/**
 * The status of a device at `now`: unused (never reported), offline (silent longer than
 * `offlineAfterMs`), shutdown (the last report said ignition off), parked (slower than
 * PARKED_BELOW_KMH or no speed), driving.
 */
export function deviceStatus(s: StatusInput, now: number, offlineAfterMs: number): DeviceStatus {
  if (!s.lastSeenAt) return 'unused';
  if (now - s.lastSeenAt.getTime() > offlineAfterMs) return 'offline';
  if (s.acc === false) return 'shutdown';
  if (s.speed === null || s.speed < PARKED_BELOW_KMH) return 'parked';
  return 'driving';
}

const sensorValuesSchema = z.record(z.string(), z.union([z.number(), z.string(), z.null()]));

/** The asset a device is mounted on, as the live views show it. */
export const boundAssetSchema = z.object({
  id: z.string(),
  kind: z.string(),
  code: z.string(),
  name: z.string(),
  tempMin: z.number().nullable(),
  tempMax: z.number().nullable(),
  humidityMin: z.number().nullable(),
  humidityMax: z.number().nullable(),
});
export type BoundAsset = z.infer<typeof boundAssetSchema>;

/** A device's latest state (DESIGN.md: `latest` of GET /devices/:id; rows of /device-states). */
export const deviceStateSchema = z.object({
  /** The device row's id (uuid). */
  id: z.string(),
  deviceId: z.string(),
  name: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  status: z.enum(DEVICE_STATUSES),
  /** Device time of the newest report. */
  time: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  positioning: z.string().nullable(),
  network: z.string().nullable(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
  acc: z.boolean().nullable(),
  sensors: sensorValuesSchema,
  asset: boundAssetSchema.nullable(),
});
export type DeviceState = z.infer<typeof deviceStateSchema>;


export const deviceStateQuerySchema = listQuerySchema.extend({
  status: z.preprocess(blankAsUndefined, z.enum(DEVICE_STATUSES).optional()),
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  /** Only devices mounted on assets of this kind, or of these kinds separated by commas (the scenario variants of the monitoring screen). */
  assetKind: z.preprocess(blankAsUndefined, z.string().trim().max(32).optional()),
});
export type DeviceStateQuery = z.infer<typeof deviceStateQuerySchema>;

export const statusCountsSchema = z.object({
  all: z.number().int(),
  unused: z.number().int(),
  shutdown: z.number().int(),
  offline: z.number().int(),
  parked: z.number().int(),
  driving: z.number().int(),
});
export type StatusCounts = z.infer<typeof statusCountsSchema>;

/** One point of the map layer: every device of the caller's scope with a position. */
export const mapPointSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  name: z.string(),
  status: z.enum(DEVICE_STATUSES),
  lat: z.number(),
  lon: z.number(),
});
export type MapPoint = z.infer<typeof mapPointSchema>;

export const telemetryQuerySchema = listQuerySchema.extend({
  /** The device row's id. */
  device: z.uuid(),
  from: isoInstant,
  to: isoInstant,
});
export type TelemetryQuery = z.infer<typeof telemetryQuerySchema>;

export const telemetryRowSchema = z.object({
  time: z.string(),
  receivedAt: z.string(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  positioning: z.string().nullable(),
  network: z.string().nullable(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
  sensors: sensorValuesSchema,
  raw: z.record(z.string(), z.unknown()),
});
export type TelemetryRow = z.infer<typeof telemetryRowSchema>;

export const seriesQuerySchema = z.object({
  device: z.uuid(),
  from: isoInstant,
  to: isoInstant,
  /** At most this many points come back (evenly thinned, first and last kept). */
  maxPoints: z.coerce.number().int().min(10).max(20_000).default(2000),
});
export type SeriesQuery = z.infer<typeof seriesQuerySchema>;

/** Curves: one time axis and, per sensor key, the values (null where the report had none). */
export const seriesSchema = z.object({
  times: z.array(z.string()),
  values: z.record(z.string(), z.array(z.union([z.number(), z.null()]))),
  /** Readings in the window before thinning. */
  total: z.number().int(),
});
export type Series = z.infer<typeof seriesSchema>;

export const intakeLogRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  channel: z.string(),
  reason: z.string(),
  payload: z.string().nullable(),
});
export type IntakeLogRow = z.infer<typeof intakeLogRowSchema>;

/**
 * A transport task was created, edited or moved (by a person or the recogniser). `id` null:
 * several tasks of the organisation at once (an import); the screen reads its page again.
 */
export interface TaskChange {
  id: string | null;
  orgId: string;
  /** The task's status after the change (null with `id` null). */
  status: TaskStatus | null;
}

/** Server to browser over the WebSocket. */
export type LiveMessage =
  | { type: 'hello'; data: { offlineAfterMs: number } }
  | { type: 'device-states'; data: DeviceState[] }
  /** Alarms opened, changed (repeats, acknowledged) or ended; only to users with alarm:read. */
  | { type: 'alarms'; data: AlarmRow[] }
  /** Transport tasks that changed; only to users with transport:read. */
  | { type: 'task-changes'; data: TaskChange[] }
  /** Something arrived in the user's inbox (shared/inbox.ts): the bell reads its count again. To that user's sockets only. */
  | { type: 'inbox'; data: { at: string } }
  /** An admitted socket's subscription `id` is in force: events from now on follow it. */
  | { type: 'subscribed'; data: { id: number } };

/** Most devices one subscription may name (a screen's page of devices, not a fleet). */
export const LIVE_MAX_DEVICES = 1000;

/**
 * What a socket wants: device states (all of the caller's organisations, or only these device
 * row ids), alarms, transport task changes and the user's inbox news. A topic left out is not sent. A socket that never subscribes gets
 * everything it may read (the channel as it was before subscriptions).
 */
export const liveTopicsSchema = z.object({
  states: z.union([z.literal(true), z.object({ devices: z.array(z.string().min(1).max(64)).max(LIVE_MAX_DEVICES) })]).optional(),
  alarms: z.literal(true).optional(),
  tasks: z.literal(true).optional(),
  inbox: z.literal(true).optional(),
});
export type LiveTopics = z.infer<typeof liveTopicsSchema>;

/** Browser to server: replaces the socket's subscription; `id` comes back in 'subscribed'. */
export const liveSubscribeSchema = z.object({
  type: z.literal('subscribe'),
  id: z.number().int().nonnegative().optional(),
  topics: liveTopicsSchema,
});
export type LiveSubscribe = z.infer<typeof liveSubscribeSchema>;

/** Close codes of the live socket after which reconnecting cannot help. */
export const CLOSE_BAD_MESSAGE = 4400;
/** No or expired session. */
export const CLOSE_UNAUTHORISED = 4401;
/** The user may not read devices. */
export const CLOSE_FORBIDDEN = 4403;

export const LIVE_API = {
  ws: '/api/iot/v2/live',
  states: '/api/iot/v2/device-states',
  summary: '/api/iot/v2/device-states/summary',
  points: '/api/iot/v2/device-states/points',
  telemetry: '/api/iot/v2/telemetry',
  series: '/api/iot/v2/telemetry/series',
  telemetryExport: '/api/iot/v2/telemetry/export',
  intakeLog: '/api/iot/v2/intake-logs',
  mapConfig: '/api/iot/v2/map-config',
} as const;

/** The base map the console draws: tiles (when configured) over the offline vector layer. */
export const mapConfigSchema = z.object({
  tileUrl: z.string().nullable(),
  tileSubdomains: z.string().nullable(),
  tileAttribution: z.string().nullable(),
  /** The tiles' coordinate system: Chinese providers (AutoNavi, Tencent) draw in GCJ-02. */
  tileCrs: z.enum(['wgs84', 'gcj02']),
  tileMaxZoom: z.number().int(),
});
export type MapConfig = z.infer<typeof mapConfigSchema>;

/** What the home screen's message alerts list: conditions read off the devices' latest states. */
export const HOME_ALERT_KINDS = ['offline', 'lowBattery', 'tempHigh', 'tempLow', 'humidityHigh', 'humidityLow', 'doorOpen'] as const;
export type HomeAlertKind = (typeof HOME_ALERT_KINDS)[number];

export const homeAlertSchema = z.object({
  /** The device row's id. */
  device: z.string(),
  deviceId: z.string(),
  name: z.string(),
  kind: z.enum(HOME_ALERT_KINDS),
  /** The reading behind the alert (battery percent, temperature, humidity); null for offline and door. */
  value: z.number().nullable(),
  /** The limit it broke (range bound of the bound asset, or the low-battery threshold). */
  limit: z.number().nullable(),
  /** Device time of the reading, or when the device was last heard of (offline). */
  time: z.string(),
});
export type HomeAlert = z.infer<typeof homeAlertSchema>;

/** The home alerts' list call: optionally only alerts whose time falls in [from, to]. */
export const homeAlertQuerySchema = listQuerySchema.extend({
  from: z.preprocess(blankAsUndefined, isoInstant.optional()),
  to: z.preprocess(blankAsUndefined, isoInstant.optional()),
});
export type HomeAlertQuery = z.infer<typeof homeAlertQuerySchema>;

/** A platform notification (announcement) shown on the home screen; `body` may be empty. */
export const noticeSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  level: z.enum(['info', 'warning', 'important']),
  publishedAt: z.string(),
});
export type Notice = z.infer<typeof noticeSchema>;

export const HOME_API = {
  alerts: '/api/iot/v2/home/alerts',
  notices: '/api/iot/v2/notifications',
} as const;

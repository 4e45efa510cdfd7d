// The cockpit (wall display) summary: one call answers every number the screen shows at
// start (KPIs, alarms by level, today's temperature compliance, warehouses by province, the
// vehicles' positions, trends and the newest alarms); the screen then follows the live channel.
import { z } from 'zod';
import { ASSET_KINDS } from './asset.ts';
import { alarmRowSchema } from './alarm.ts';
import { DEVICE_STATUSES } from './live.ts';

export const COCKPIT_API = { summary: '/api/iot/v2/cockpit' } as const;

/** Newest alarms the summary carries for the ticker. */
export const COCKPIT_TICKER_SIZE = 30;
/** Hours of the hourly trends, days of the daily one. */
export const COCKPIT_TREND_HOURS = 24;
export const COCKPIT_TREND_DAYS = 7;

export const cockpitAssetKindSchema = z.object({
  kind: z.enum(ASSET_KINDS),
  total: z.number().int(),
  /** Assets with at least one mounted device heard within the offline window. */
  online: z.number().int(),
});
export type CockpitAssetKind = z.infer<typeof cockpitAssetKindSchema>;

export const cockpitLevelSchema = z.object({
  code: z.string(),
  /** In the request's language. */
  name: z.string(),
  color: z.string(),
  priority: z.number().int(),
  count: z.number().int(),
});
export type CockpitLevel = z.infer<typeof cockpitLevelSchema>;

export const cockpitProvinceSchema = z.object({
  /** The province dictionary's code (region.ts) of what the warehouses name; null when they name no province. */
  code: z.string().nullable(),
  /** The dictionary's name in the request's language; the text as written when it names no province. */
  name: z.string(),
  warehouses: z.number().int(),
  /** Cold rooms and refrigerators inside those warehouses. */
  coldRooms: z.number().int(),
});
export type CockpitProvince = z.infer<typeof cockpitProvinceSchema>;

export const cockpitVehicleSchema = z.object({
  /** The device's row id (what the live channel's states carry as `id`). */
  id: z.string(),
  deviceId: z.string(),
  code: z.string(),
  name: z.string(),
  status: z.enum(DEVICE_STATUSES),
  lat: z.number(),
  lon: z.number(),
  time: z.string().nullable(),
});
export type CockpitVehicle = z.infer<typeof cockpitVehicleSchema>;

/** What the ticker shows of an alarm; live alarm rows are a superset. */
export const cockpitTickerItemSchema = alarmRowSchema.pick({
  id: true,
  type: true,
  status: true,
  level: true,
  device: true,
  asset: true,
  startedAt: true,
  value: true,
  threshold: true,
  unit: true,
});
export type CockpitTickerItem = z.infer<typeof cockpitTickerItemSchema>;

export const cockpitSummarySchema = z.object({
  generatedAt: z.string(),
  /** The time zone "today" and the days were counted in (the request's, else UTC). */
  timezone: z.string(),
  assets: z.array(cockpitAssetKindSchema),
  devices: z.object({ total: z.number().int(), online: z.number().int() }),
  tasks: z.object({ inTransit: z.number().int(), abnormal: z.number().int() }),
  alarms: z.object({ active: z.number().int(), byLevel: z.array(cockpitLevelSchema) }),
  compliance: z.object({
    /** Local midnight of today in `timezone`. */
    since: z.string(),
    readings: z.number().int(),
    inRange: z.number().int(),
    /** inRange / readings, 0..1; null without readings. */
    rate: z.number().nullable(),
  }),
  provinces: z.array(cockpitProvinceSchema),
  vehicles: z.array(cockpitVehicleSchema),
  trends: z.object({
    /** Starts of the last COCKPIT_TREND_HOURS hours, oldest first (ISO). */
    hours: z.array(z.string()),
    alarmsByLevel: z.array(z.object({ code: z.string(), name: z.string(), color: z.string(), counts: z.array(z.number().int()) })),
    readings: z.array(z.number().int()),
    /** The last COCKPIT_TREND_DAYS local days, oldest first (YYYY-MM-DD). */
    days: z.array(z.string()),
    tasksStarted: z.array(z.number().int()),
    tasksArrived: z.array(z.number().int()),
  }),
  ticker: z.array(cockpitTickerItemSchema),
});
export type CockpitSummary = z.infer<typeof cockpitSummarySchema>;

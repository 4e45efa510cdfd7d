// Fault management: what is wrong with a device itself (not with the goods it watches), found by
// the intake from what the device sends or fails to send, and the repair records that close it.
// The detector and service are apps/server/src/modules/fault.
import { z } from 'zod';
import { BATTERY_LOW_PERCENT } from './constants.ts';
import { blankAsUndefined, csvFilter, isoInstant, listQuerySchema } from './list.ts';

/**
 * sensor_failure: the temperature sensor sends "no reading" (sensors.ts TEMP_NO_READING_C) or an
 * impossible value (humidity above 100 percent) in several reports running; gps_failure: reports
 * that claim a GPS fix carry no usable position (missing, or 0,0) several times running;
 * low_battery: the battery is below BATTERY_LOW_PERCENT; offline_repeatedly: the device went
 * silent longer than the offline time several times within a day; bad_reports: the intake refused
 * several of its reports within an hour.
 */
export const FAULT_KINDS = ['sensor_failure', 'gps_failure', 'low_battery', 'offline_repeatedly', 'bad_reports'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** open: found, nobody on it yet; repairing: a repair is under way; resolved: repaired (a new occurrence opens a new fault). */
export const FAULT_STATUSES = ['open', 'repairing', 'resolved'] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** When the detector opens a fault. */
export const FAULT_THRESHOLDS = {
  /** Reports running with a failed temperature or humidity sensor. */
  sensorFailureReports: 3,
  /** Reports running that claim GPS without a usable position. */
  gpsFailureReports: 3,
  /** Percent: below it the battery is low (as the alarm rule's default). */
  lowBatteryPercent: BATTERY_LOW_PERCENT,
  /** Silences longer than the offline time within the window. */
  offlineTimes: 3,
  offlineWindowHours: 24,
  /** Refused reports within the window. */
  badReports: 5,
  badReportsWindowMinutes: 60,
} as const;

/** What a repair record says happened. `in_progress` keeps the fault open (repairing); the others resolve it. */
export const REPAIR_RESULTS = ['in_progress', 'repaired', 'replaced', 'no_fault_found'] as const;
export type RepairResult = (typeof REPAIR_RESULTS)[number];

export const repairBodySchema = z.object({
  action: z.string().trim().min(1, { message: 'REPAIR_ACTION_REQUIRED' }).max(500),
  result: z.enum(REPAIR_RESULTS),
  note: z.string().trim().max(1000).default(''),
});
export type RepairBody = z.infer<typeof repairBodySchema>;
export type RepairInput = z.input<typeof repairBodySchema>;

export const repairRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  /** The account that recorded it. */
  by: z.string(),
  action: z.string(),
  result: z.enum(REPAIR_RESULTS),
  note: z.string(),
});
export type RepairRow = z.infer<typeof repairRowSchema>;

export const faultRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  kind: z.enum(FAULT_KINDS),
  status: z.enum(FAULT_STATUSES),
  device: z.object({ id: z.string(), deviceId: z.string(), name: z.string() }),
  asset: z.object({ id: z.string(), kind: z.string(), code: z.string(), name: z.string() }).nullable(),
  /** First and latest occurrence, and how many occurrences were seen while it was not resolved. */
  firstAt: z.string(),
  lastAt: z.string(),
  count: z.number().int(),
  /** What the detector saw last: { reason, value?, reports?, times? }; reason is a short English text for the log. */
  detail: z.record(z.string(), z.unknown()),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  repairCount: z.number().int(),
});
export type FaultRow = z.infer<typeof faultRowSchema>;

export const faultDetailSchema = faultRowSchema.extend({ repairs: z.array(repairRowSchema) });
export type FaultDetail = z.infer<typeof faultDetailSchema>;

export const faultQuerySchema = listQuerySchema.extend({
  kind: csvFilter(z.enum(FAULT_KINDS), 10),
  status: csvFilter(z.enum(FAULT_STATUSES), 10),
  deviceId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** Last seen in [from, to). */
  from: z.preprocess(blankAsUndefined, isoInstant.optional()),
  to: z.preprocess(blankAsUndefined, isoInstant.optional()),
  /** Device id or name, or asset code or name, contains. */
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type FaultQuery = z.infer<typeof faultQuerySchema>;

/** How many faults of each kind and of each status the same filters match (every kind and status, zeros too, in the orders above). */
export const faultStatsSchema = z.object({
  byKind: z.array(z.object({ kind: z.enum(FAULT_KINDS), count: z.number().int() })),
  byStatus: z.array(z.object({ status: z.enum(FAULT_STATUSES), count: z.number().int() })),
});
export type FaultStats = z.infer<typeof faultStatsSchema>;

export const FAULT_API = { faults: '/api/iot/v2/faults' } as const;

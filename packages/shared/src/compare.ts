// Operational data comparison: two to six warehouses, vehicles or routes side by side on one
// metric over two periods (A and B). The definitions of the metrics live here, once, for the
// server that computes them, the screen that shows them and the export.
//
// Per target and period [from, to):
// - compliance (%): the share of the period's temperature readings of the target's devices that
//   lie inside the range of the asset the device is bound to (a cold room's or refrigerator's own
//   range, else the warehouse's or vehicle's); readings of a device without any range do not count.
// - alarmRate (alarms per 1,000 h): for a warehouse or vehicle, alarms of its devices started in
//   the period / (hours of the period × devices) × 1,000; for a route, alarms of its tasks /
//   hours the tasks ran (start to arrival or completion, or to the period's end) × 1,000.
// - avgTemp (°C): the mean of the temperature readings of the target's devices in the period; for
//   a route, of the readings of its tasks' devices while the tasks ran.
// - doorOpen (minutes): for every reading that says the door is open, the time to the device's
//   next reading (or the period's end), each interval capped at 30 minutes; summed over devices.
// - onTime (%): of the delivered tasks (of the vehicle, or on the route) that started in the
//   period and had a planned arrival, the share that arrived no later than it.
// - mileage (km): for a vehicle, the odometer (`mileage` sensor) of each device at its last
//   reading of the period minus at its first, summed over devices; for a route, the planned
//   distance of the delivered tasks that started in the period.
// A warehouse's devices are those now bound to it or to its cold rooms and refrigerators; a
// vehicle's, those now bound to it. A route is "origin → destination" of transport tasks, as in
// the production reports. A value is null when nothing in the period tells it.
import { z } from 'zod';
import { isoInstant } from './list.ts';

export const COMPARE_KINDS = ['warehouse', 'vehicle', 'route'] as const;
export type CompareKind = (typeof COMPARE_KINDS)[number];

export const COMPARE_METRICS = ['compliance', 'alarmRate', 'avgTemp', 'doorOpen', 'onTime', 'mileage'] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/** The metrics each kind of target can be compared on, in the order the screen offers them. */
export const METRICS_BY_KIND: Record<CompareKind, readonly CompareMetric[]> = {
  warehouse: ['compliance', 'alarmRate', 'avgTemp', 'doorOpen'],
  vehicle: ['compliance', 'alarmRate', 'avgTemp', 'doorOpen', 'onTime', 'mileage'],
  route: ['onTime', 'alarmRate', 'avgTemp', 'mileage'],
};

export const METRIC_UNITS: Record<CompareMetric, string> = {
  compliance: '%',
  alarmRate: '/1000h',
  avgTemp: '°C',
  doorOpen: 'min',
  onTime: '%',
  mileage: 'km',
};

/** The permission that reads each kind of target. */
export const COMPARE_PERMISSION = { warehouse: 'device:read', vehicle: 'device:read', route: 'transport:read' } as const satisfies Record<CompareKind, string>;

export const MIN_COMPARE_TARGETS = 2;
export const MAX_COMPARE_TARGETS = 6;
/** Longest period of a comparison. */
export const MAX_COMPARE_DAYS = 92;

/** A route's key, as the production reports group tasks. */
export const routeKey = (origin: string, destination: string) => `${origin} → ${destination}`;

/**
 * The targets in a query value: a JSON array of strings (route keys may hold commas), or
 * comma-separated ids.
 */
const idList = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim();
    if (s.startsWith('[')) {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        return v;
      }
    }
    return s === '' ? [] : s.split(',');
  },
  z.array(z.string().trim().min(1).max(300)).min(MIN_COMPARE_TARGETS).max(MAX_COMPARE_TARGETS),
);

export const compareQuerySchema = z.object({
  kind: z.enum(COMPARE_KINDS),
  /** Asset ids of warehouses or vehicles, or route keys ("origin → destination"). */
  ids: idList,
  metric: z.enum(COMPARE_METRICS),
  /** Period A: [aFrom, aTo); period B: [bFrom, bTo); each at most MAX_COMPARE_DAYS. */
  aFrom: isoInstant,
  aTo: isoInstant,
  bFrom: isoInstant,
  bTo: isoInstant,
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

export const compareRowSchema = z.object({
  /** The asset id, or the route key. */
  id: z.string(),
  name: z.string(),
  a: z.number().nullable(),
  b: z.number().nullable(),
  /** a − b in the metric's unit (percentage points for a rate); null when either is null. */
  change: z.number().nullable(),
});
export type CompareRow = z.infer<typeof compareRowSchema>;

export const compareAnswerSchema = z.object({
  metric: z.enum(COMPARE_METRICS),
  unit: z.string(),
  rows: z.array(compareRowSchema),
});
export type CompareAnswer = z.infer<typeof compareAnswerSchema>;

export const compareRoutesSchema = z.array(z.object({ key: z.string(), tasks: z.number().int() }));
export type CompareRoutes = z.infer<typeof compareRoutesSchema>;

export const COMPARE_API = {
  /** GET compareQuerySchema → CompareAnswer. */
  compare: '/api/iot/v2/compare',
  /** GET compareQuerySchema & format=xlsx|csv. */
  export: '/api/iot/v2/compare/export',
  /** GET → the route keys of the caller's organisations, most tasks first. */
  routes: '/api/iot/v2/compare/routes',
} as const;

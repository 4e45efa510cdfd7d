// Reports of the transport scenario: the shipment report of one task (temperature statistics with
// the mean kinetic temperature, time out of range, alarms, the track and the curve; as JSON for
// the screen, a PDF in the user's language and an Excel file with the raw readings) and the
// production reports (tasks per period, on-time rate, alarm rate, by customer, route or vehicle).
import { z } from 'zod';
import { taskBatchSchema, tripBudgetSchema } from './product.ts';
import { blankAsUndefined, isoInstant } from './list.ts';
import { shipmentTempStatsSchema } from './shipment.ts';
import { TASK_STATUSES } from './transport.ts';

export const SHIPMENT_FORMATS = ['json', 'pdf', 'xlsx'] as const;
export type ShipmentFormat = (typeof SHIPMENT_FORMATS)[number];
export const shipmentQuerySchema = z.object({ format: z.enum(SHIPMENT_FORMATS).default('json') });

/** Most readings one shipment report reads (a month at one every 10 s is 260,000). */
export const MAX_SHIPMENT_READINGS = 1_000_000;

/**
 * A position the shipment report names (issue 26 item 3): its coordinates and, where known, its
 * address (the task's own for the origin and destination; the files add the geocoder's; the
 * screen asks the geocoder itself). Without an address the coordinates stand alone.
 */
export const shipmentPositionSchema = z.object({ lat: z.number(), lon: z.number(), address: z.string().nullable() });
export type ShipmentPosition = z.infer<typeof shipmentPositionSchema>;

export const shipmentAlarmSchema = z.object({
  id: z.string(),
  type: z.string(),
  levelName: z.string(),
  levelColor: z.string(),
  status: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  value: z.number().nullable(),
  peak: z.number().nullable(),
  threshold: z.number(),
  deviceId: z.string(),
  /** Where it began: the alarm's own position, else the task device's fix nearest its start; null when neither is known. */
  position: shipmentPositionSchema.nullable().optional(),
});
export type ShipmentAlarm = z.infer<typeof shipmentAlarmSchema>;

export const shipmentReportSchema = z.object({
  task: z.object({
    id: z.string(),
    code: z.string(),
    orgName: z.string(),
    status: z.enum(TASK_STATUSES),
    goodsName: z.string(),
    goodsQuantity: z.number().nullable(),
    goodsUnit: z.string(),
    goodsValue: z.number().nullable(),
    highValue: z.boolean(),
    customer: z.string(),
    asset: z.string().nullable(),
    devices: z.array(z.object({ deviceId: z.string(), name: z.string() })),
    originName: z.string(),
    destinationName: z.string(),
    driverName: z.string(),
    plannedStart: z.string().nullable(),
    plannedArrival: z.string().nullable(),
    startedAt: z.string().nullable(),
    arrivedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    onTime: z.boolean().nullable(),
  }),
  /** The period reported: the task's start (or planned start, or creation) to its arrival (or completion, cancellation, now). */
  from: z.string(),
  to: z.string(),
  limits: z.object({ tempMin: z.number().nullable(), tempMax: z.number().nullable(), humidityMin: z.number().nullable(), humidityMax: z.number().nullable() }),
  /** Of the task's first device. */
  temperature: shipmentTempStatsSchema,
  humidity: z.object({ min: z.number(), max: z.number(), average: z.number() }).nullable(),
  /** Distance driven, from the positions (GPS jumps left out). */
  distanceM: z.number(),
  readings: z.number().int(),
  alarms: z.array(shipmentAlarmSchema),
  /** The batches the task carries, each with its profile and excursion budget over its whole life (product.ts). */
  batches: z.array(taskBatchSchema).optional(),
  /** This trip against the task's product profile (none without one). */
  tripBudget: tripBudgetSchema.nullable().optional(),
  /** The origin's and destination's positions with the task's own addresses. */
  places: z.object({ origin: shipmentPositionSchema, destination: shipmentPositionSchema }).optional(),
  /** Where the longest excursion began (the fix nearest its start); null without one or without fixes. */
  longestExcursionAt: shipmentPositionSchema.nullable().optional(),
  generatedAt: z.string(),
});
export type ShipmentReport = z.infer<typeof shipmentReportSchema>;

export const PRODUCTION_GROUPS = ['period', 'customer', 'route', 'vehicle'] as const;
export type ProductionGroup = (typeof PRODUCTION_GROUPS)[number];
export const PRODUCTION_PERIODS = ['day', 'week', 'month'] as const;
export type ProductionPeriod = (typeof PRODUCTION_PERIODS)[number];
/** Longest range of one production report. */
export const MAX_PRODUCTION_DAYS = 366;

export const productionQuerySchema = z.object({
  /** Tasks whose start (actual, else planned, else creation) falls in [from, to). */
  from: isoInstant,
  to: isoInstant,
  groupBy: z.enum(PRODUCTION_GROUPS).default('period'),
  /** With groupBy period: days, weeks (from Monday) or months, in the request's time zone. */
  period: z.enum(PRODUCTION_PERIODS).default('day'),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type ProductionQuery = z.infer<typeof productionQuerySchema>;

export const productionRowSchema = z.object({
  /** The group: a period start (YYYY-MM-DD), a customer, "origin → destination", or a vehicle/container code; '' for none. */
  key: z.string(),
  tasks: z.number().int(),
  pending: z.number().int(),
  inTransit: z.number().int(),
  /** Arrived or completed. */
  delivered: z.number().int(),
  cancelled: z.number().int(),
  /** Delivered with a planned arrival, no later than it / later. */
  onTime: z.number().int(),
  late: z.number().int(),
  /** onTime / (onTime + late); null when none can be told. */
  onTimeRate: z.number().nullable(),
  /** Tasks (not cancelled) with at least one alarm, and all their alarms. */
  withAlarms: z.number().int(),
  alarms: z.number().int(),
  /** withAlarms / tasks not cancelled; null with none. */
  alarmRate: z.number().nullable(),
  /** Planned distance of the delivered tasks, metres. */
  distanceM: z.number(),
  goodsValue: z.number(),
});
export type ProductionRow = z.infer<typeof productionRowSchema>;

export const productionReportSchema = z.object({ rows: z.array(productionRowSchema), totals: productionRowSchema });
export type ProductionReport = z.infer<typeof productionReportSchema>;

export const REPORT_API = {
  /** GET ?format=json|pdf|xlsx */
  shipment: (taskId: string) => `/api/iot/v2/reports/shipment/${taskId}`,
  /** GET productionQuerySchema → ProductionReport; /export?format=xlsx|csv */
  production: '/api/iot/v2/reports/production',
} as const;

// Transport tasks (scenario 101): goods carried from an origin to a destination by a vehicle or a
// container with devices on it. A task is planned (pending), starts when its device leaves the
// origin and moves (or by hand), arrives when it stops inside the destination long enough (or by
// hand), and is completed or cancelled by a person. Templates keep the settings used again and
// again. While a task is in transit its alarm settings run through the alarm engine as a policy of
// its own, so its alarms carry the task. The service is apps/server/src/modules/transport.
import { z } from 'zod';
import { TRIP_DEFAULTS } from './trips.ts';
import { blankAsUndefined, csvFilter, isoInstant, listQuerySchema } from './list.ts';

/** Stored lifecycle. `abnormal` is shown on top of it (see TASK_VIEW_STATUSES). */
export const TASK_STATUSES = ['pending', 'in_transit', 'arrived', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The status tabs: the lifecycle plus `abnormal` (in transit or arrived, with an open alarm or late). */
export const TASK_VIEW_STATUSES = ['pending', 'in_transit', 'arrived', 'completed', 'cancelled', 'abnormal'] as const;
export type TaskViewStatus = (typeof TASK_VIEW_STATUSES)[number];

/** Why a task is abnormal: an alarm of the task is open, or it is past its planned arrival and not there. */
export const TASK_ABNORMAL_REASONS = ['alarm', 'late'] as const;
export type TaskAbnormalReason = (typeof TASK_ABNORMAL_REASONS)[number];

/** Moves a person may make. Completed and cancelled are final; cancelling needs a reason. */
export const TASK_TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  pending: ['in_transit', 'cancelled'],
  in_transit: ['arrived', 'completed', 'cancelled'],
  arrived: ['in_transit', 'completed', 'cancelled'],
  completed: [],
  cancelled: [],
};

export function canMoveTask(from: TaskStatus, to: TaskStatus): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

/** Statuses in which the task's devices are watched (automatic recognition, alarms). */
export const TASK_LIVE_STATUSES: readonly TaskStatus[] = ['pending', 'in_transit', 'arrived'];

/** Most devices one task carries; the first is the one whose position is the task's. */
export const MAX_TASK_DEVICES = 10;
/** Most points of a planned route. */
export const MAX_ROUTE_POINTS = 5000;
/** Most contacts and recipients of a task or a template. */
export const MAX_TASK_CONTACTS = 10;
/** Default radius of an origin or a destination, metres. */
export const DEFAULT_AREA_RADIUS_M = 500;
/** Default time the device must stop inside the destination for the task to arrive, seconds. */
export const DEFAULT_ARRIVAL_DWELL_S = 600;

const name = z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(100);
const optionalText = (max: number) => z.string().trim().max(max).default('');
const optionalUuid = z.preprocess((v) => (v === '' ? null : v), z.uuid().nullable().default(null));
const optionalInstant = z.preprocess((v) => (v === '' ? null : v), isoInstant.nullable().default(null));
const optionalNumber = (min: number, max: number) => z.preprocess((v) => (v === '' ? null : v), z.number().min(min).max(max).nullable().default(null));
const lat = z.number({ message: 'LAT_REQUIRED' }).min(-90, { message: 'LAT_RANGE' }).max(90, { message: 'LAT_RANGE' });
const lon = z.number({ message: 'LON_REQUIRED' }).min(-180, { message: 'LON_RANGE' }).max(180, { message: 'LON_RANGE' });

/** An origin or a destination: a named place and the circle around it that counts as being there. */
export const taskPlaceSchema = z.object({
  /** The place library's place it was taken from (place.ts); a change to that place is copied here. */
  placeId: z.uuid().nullable().optional(),
  name: name,
  address: optionalText(200),
  lat,
  lon,
  radiusM: z.number().int().min(50, { message: 'TASK_RADIUS_RANGE' }).max(50_000, { message: 'TASK_RADIUS_RANGE' }).default(DEFAULT_AREA_RADIUS_M),
});
export type TaskPlace = z.infer<typeof taskPlaceSchema>;

/** Most stops between the origin and the destination of a task or a template. */
export const MAX_TASK_STOPS = 10;

/**
 * A stop on the way, in order between the origin and the destination: a place of the place
 * library (its id is required) with its name, centre and radius copied, as an origin's are; a
 * change to the place is copied here (place module's propagate).
 */
export const taskStopSchema = taskPlaceSchema.extend({
  placeId: z.uuid({ message: 'TASK_STOP_PLACE_REQUIRED' }),
});
export type TaskStop = z.infer<typeof taskStopSchema>;
export const taskStopsSchema = z.array(taskStopSchema).max(MAX_TASK_STOPS, { message: 'TASK_STOPS_TOO_MANY' });

export const ROUTE_SOURCES = ['none', 'drawn', 'routing'] as const;
export type RouteSource = (typeof ROUTE_SOURCES)[number];
/** [lat, lon] points. */
export const routeSchema = z.array(z.tuple([lat, lon])).max(MAX_ROUTE_POINTS, { message: 'ROUTE_TOO_LONG' });

export const contactSchema = z
  .object({
    name: z.string().trim().max(50).default(''),
    phone: z.string().trim().max(30).default(''),
    email: z.union([z.literal(''), z.email({ message: 'EMAIL_FORMAT' })]).default(''),
  })
  .refine((c) => c.name || c.phone || c.email, { message: 'CONTACT_EMPTY' });
export type Contact = z.infer<typeof contactSchema>;

/**
 * What the task watches while in transit, through the alarm engine at the level `levelId`: the
 * temperature and humidity ranges of the task, the door opening outside the origin and the
 * destination, leaving the planned route by more than `yawM`, standing still longer than
 * `stayTimeoutS` outside them, driving faster than `overspeedKmh`. A condition must hold
 * `durationS` before it alarms.
 */
export const taskAlarmSchema = z.object({
  levelId: optionalUuid,
  temperature: z.boolean().default(true),
  humidity: z.boolean().default(false),
  door: z.boolean().default(false),
  yawM: optionalNumber(10, 100_000),
  stayTimeoutS: optionalNumber(60, 7 * 86_400),
  overspeedKmh: optionalNumber(1, 300),
  durationS: z.number().int().min(0).max(86_400).default(60),
});
export type TaskAlarm = z.infer<typeof taskAlarmSchema>;
/** The alarm settings as answers carry them (the same shape without the input's preprocessing, which a response cannot be encoded through). */
export const taskAlarmRowSchema = z.object({
  levelId: z.string().nullable(),
  temperature: z.boolean(),
  humidity: z.boolean(),
  door: z.boolean(),
  yawM: z.number().nullable(),
  stayTimeoutS: z.number().nullable(),
  overspeedKmh: z.number().nullable(),
  durationS: z.number().int(),
});

/** How the start and the end are recognised: the trip thresholds (a leading tracker's 200 m and 180 s) and the dwell at the destination. */
export const taskDetectionSchema = z.object({
  auto: z.boolean().default(true),
  moveM: z.number().int().min(10).max(5000).default(TRIP_DEFAULTS.stopRadiusM),
  moveS: z.number().int().min(10).max(86_400).default(TRIP_DEFAULTS.stopMinS),
  dwellS: z.number().int().min(10).max(7 * 86_400).default(DEFAULT_ARRIVAL_DWELL_S),
});
export type TaskDetection = z.infer<typeof taskDetectionSchema>;

/** The settings a template keeps and a task has too. */
const settingsFields = {
  origin: taskPlaceSchema,
  destination: taskPlaceSchema,
  /** Ordered places between the origin and the destination. */
  stops: taskStopsSchema.default([]),
  routeSource: z.enum(ROUTE_SOURCES).default('none'),
  route: routeSchema.default([]),
  tempMin: optionalNumber(-100, 100),
  tempMax: optionalNumber(-100, 100),
  humidityMin: optionalNumber(0, 100),
  humidityMax: optionalNumber(0, 100),
  alarm: taskAlarmSchema.default(taskAlarmSchema.parse({})),
  recipients: z.array(contactSchema).max(MAX_TASK_CONTACTS).default([]),
  detection: taskDetectionSchema.default(taskDetectionSchema.parse({})),
};

type SettingsShape = {
  route: [number, number][];
  routeSource: RouteSource;
  tempMin: number | null;
  tempMax: number | null;
  humidityMin: number | null;
  humidityMax: number | null;
  alarm: TaskAlarm;
};

function checkSettings(s: SettingsShape, ctx: z.RefinementCtx) {
  if (s.tempMin !== null && s.tempMax !== null && s.tempMin > s.tempMax) ctx.addIssue({ code: 'custom', path: ['tempMax'], message: 'RANGE_INVERTED' });
  if (s.humidityMin !== null && s.humidityMax !== null && s.humidityMin > s.humidityMax) ctx.addIssue({ code: 'custom', path: ['humidityMax'], message: 'RANGE_INVERTED' });
  if (s.route.length === 1) ctx.addIssue({ code: 'custom', path: ['route'], message: 'ROUTE_TOO_SHORT' });
  if (s.routeSource !== 'none' && s.route.length === 0) ctx.addIssue({ code: 'custom', path: ['route'], message: 'ROUTE_TOO_SHORT' });
  if (s.alarm.yawM !== null && s.route.length < 2) ctx.addIssue({ code: 'custom', path: ['alarm', 'yawM'], message: 'TASK_YAW_NEEDS_ROUTE' });
  const watches = (s.alarm.temperature && (s.tempMin !== null || s.tempMax !== null)) || (s.alarm.humidity && (s.humidityMin !== null || s.humidityMax !== null)) || s.alarm.door || s.alarm.yawM !== null || s.alarm.stayTimeoutS !== null || s.alarm.overspeedKmh !== null;
  if (watches && !s.alarm.levelId) ctx.addIssue({ code: 'custom', path: ['alarm', 'levelId'], message: 'ALARM_LEVEL_REQUIRED' });
}

export const templateBodySchema = z
  .object({
    orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
    name,
    description: optionalText(500),
    ...settingsFields,
  })
  .superRefine(checkSettings);
export type TemplateBody = z.infer<typeof templateBodySchema>;
export type TemplateInput = z.input<typeof templateBodySchema>;

export const templateRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  name: z.string(),
  description: z.string(),
  origin: taskPlaceSchema,
  destination: taskPlaceSchema,
  stops: z.array(taskStopSchema),
  routeSource: z.enum(ROUTE_SOURCES),
  route: routeSchema,
  tempMin: z.number().nullable(),
  tempMax: z.number().nullable(),
  humidityMin: z.number().nullable(),
  humidityMax: z.number().nullable(),
  alarm: taskAlarmRowSchema,
  recipients: z.array(contactSchema),
  detection: taskDetectionSchema,
  /** Tasks created from it. */
  taskCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TemplateRow = z.infer<typeof templateRowSchema>;

export const templateQuerySchema = listQuerySchema.extend({
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type TemplateQuery = z.infer<typeof templateQuerySchema>;

export const taskBodySchema = z
  .object({
    orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
    /** The template it was made from, if any (kept for the record; the settings are copied). */
    templateId: optionalUuid,
    goodsName: z.string().trim().min(1, { message: 'TASK_GOODS_REQUIRED' }).max(100),
    goodsQuantity: optionalNumber(0, 1e9),
    goodsUnit: optionalText(20),
    /** Declared value of the goods. */
    goodsValue: optionalNumber(0, 1e12),
    highValue: z.boolean().default(false),
    customer: optionalText(100),
    /** The vehicle or container carrying the goods. */
    assetId: optionalUuid,
    /** Devices on the goods, the vehicle or the container; the first one's position is the task's. */
    deviceIds: z.array(z.uuid()).min(1, { message: 'TASK_DEVICES_REQUIRED' }).max(MAX_TASK_DEVICES, { message: 'TASK_DEVICES_TOO_MANY' }),
    plannedStart: optionalInstant,
    plannedArrival: optionalInstant,
    driverName: optionalText(50),
    driverPhone: optionalText(30),
    contacts: z.array(contactSchema).max(MAX_TASK_CONTACTS).default([]),
    remark: optionalText(500),
    /** The product profile the trip is judged against (issue 27 item 3; product_task_profiles); its batches without their own take it. */
    profileId: optionalUuid,
    ...settingsFields,
  })
  .superRefine((t, ctx) => {
    checkSettings(t, ctx);
    if (t.plannedStart && t.plannedArrival && Date.parse(t.plannedStart) >= Date.parse(t.plannedArrival)) {
      ctx.addIssue({ code: 'custom', path: ['plannedArrival'], message: 'TASK_ARRIVAL_BEFORE_START' });
    }
    if (new Set(t.deviceIds).size !== t.deviceIds.length) ctx.addIssue({ code: 'custom', path: ['deviceIds'], message: 'TASK_DEVICES_REPEATED' });
  });
export type TaskBody = z.infer<typeof taskBodySchema>;
export type TaskInput = z.input<typeof taskBodySchema>;

export const taskTransitionSchema = z.object({
  to: z.enum(TASK_STATUSES),
  /** Why (required to cancel). */
  note: z.string().trim().max(500).default(''),
});
export type TaskTransition = z.infer<typeof taskTransitionSchema>;

/** Statuses in which the goods may be handed over from one party to another. */
export const TASK_HANDOVER_STATUSES: readonly TaskStatus[] = ['in_transit', 'arrived'];
/** Most seal numbers one hand-over records. */
export const MAX_HANDOVER_SEALS = 20;
/** How far ahead of the server's clock a hand-over time may be (clocks of phones and PCs drift). */
export const HANDOVER_CLOCK_SKEW_MS = 5 * 60_000;

const party = z.string().trim().min(1, { message: 'TASK_HANDOVER_PARTY_REQUIRED' }).max(64);

/**
 * The goods change hands (e.g. from the carrier's driver to the receiving warehouse): who gave,
 * who took, when and where, the seals found intact, the temperature read, and whether the
 * receiver signed the delivery note. Written into the task's story as a `handover` event and
 * logged by the ledger as `task.handover`. `at` defaults to the time of the request.
 */
export const taskHandoverSchema = z.object({
  from: party,
  to: party,
  at: z.preprocess(
    blankAsUndefined,
    isoInstant.refine((v) => Date.parse(v) <= Date.now() + HANDOVER_CLOCK_SKEW_MS, { message: 'TASK_HANDOVER_IN_FUTURE' }).optional(),
  ),
  place: optionalText(128),
  seals: z.array(z.string().trim().min(1).max(32)).max(MAX_HANDOVER_SEALS).default([]),
  /** °C read at the hand-over. */
  temperature: optionalNumber(-100, 100),
  /** The receiver signed the delivery note. */
  signed: z.boolean().default(false),
  note: optionalText(500),
});
export type TaskHandover = z.infer<typeof taskHandoverSchema>;
export type TaskHandoverInput = z.input<typeof taskHandoverSchema>;

const deviceRef = z.object({ id: z.string(), deviceId: z.string(), name: z.string() });

/** The task's position and goods now (the first device's latest state). */
export const taskLiveSchema = z.object({
  time: z.string().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  speed: z.number().nullable(),
  temp: z.number().nullable(),
  humidity: z.number().nullable(),
  /** Door open (true), closed (false), unknown (null). */
  doorOpen: z.boolean().nullable(),
  /** Share of the planned way done, 0..1 (along the route when there is one, else straight). */
  progress: z.number().nullable(),
  /** Metres still to go (along the route or straight). */
  remainingM: z.number().nullable(),
  /** Estimated arrival (ISO), from the remaining way and the recent average speed. */
  eta: z.string().nullable(),
});
export type TaskLive = z.infer<typeof taskLiveSchema>;

export const taskRowSchema = z.object({
  id: z.string(),
  /** `TT` + the creation day in UTC + a number of the day in the organisation, e.g. TT-20261124-0001. */
  code: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  templateId: z.string().nullable(),
  status: z.enum(TASK_STATUSES),
  abnormal: z.boolean(),
  abnormalReasons: z.array(z.enum(TASK_ABNORMAL_REASONS)),
  /** Open alarms of the task. */
  activeAlarms: z.number().int(),
  goodsName: z.string(),
  goodsQuantity: z.number().nullable(),
  goodsUnit: z.string(),
  goodsValue: z.number().nullable(),
  highValue: z.boolean(),
  customer: z.string(),
  asset: z.object({ id: z.string(), kind: z.string(), code: z.string(), name: z.string() }).nullable(),
  devices: z.array(deviceRef),
  origin: taskPlaceSchema,
  destination: taskPlaceSchema,
  stops: z.array(taskStopSchema),
  routeSource: z.enum(ROUTE_SOURCES),
  route: routeSchema,
  /** Length of the planned route, or the straight distance without one (origin, the stops in order, destination), metres. */
  plannedDistanceM: z.number(),
  plannedStart: z.string().nullable(),
  plannedArrival: z.string().nullable(),
  driverName: z.string(),
  driverPhone: z.string(),
  contacts: z.array(contactSchema),
  remark: z.string(),
  /** The product profile the trip is judged against, or none. */
  profile: z.object({ id: z.string(), name: z.string() }).nullable(),
  tempMin: z.number().nullable(),
  tempMax: z.number().nullable(),
  humidityMin: z.number().nullable(),
  humidityMax: z.number().nullable(),
  alarm: taskAlarmRowSchema,
  recipients: z.array(contactSchema),
  detection: taskDetectionSchema,
  startedAt: z.string().nullable(),
  /** `auto`: recognised from the track; `manual`: a person. */
  startMode: z.enum(['auto', 'manual']).nullable(),
  arrivedAt: z.string().nullable(),
  arriveMode: z.enum(['auto', 'manual']).nullable(),
  completedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string(),
  /** Arrived (or completed without arriving) no later than planned; null while it cannot be told. */
  onTime: z.boolean().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TaskRow = z.infer<typeof taskRowSchema>;

/** One task with where it is now. */
export const taskDetailSchema = taskRowSchema.extend({ live: taskLiveSchema });
export type TaskDetail = z.infer<typeof taskDetailSchema>;

export const TASK_EVENT_KINDS = ['created', 'updated', 'status_changed', 'started', 'arrived', 'copied', 'handover'] as const;
export type TaskEventKind = (typeof TASK_EVENT_KINDS)[number];

export const taskEventRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  kind: z.enum(TASK_EVENT_KINDS),
  actor: z.string().nullable(),
  /** created: { templateId, copiedFrom }; updated: { changed }; status_changed: { from, to, note, mode }; handover: { from, to, place, seals, temperature, signed, note } (`at` is the hand-over's time). */
  detail: z.record(z.string(), z.unknown()),
});
export type TaskEventRow = z.infer<typeof taskEventRowSchema>;

export const taskQuerySchema = listQuerySchema.extend({
  status: csvFilter(z.enum(TASK_VIEW_STATUSES), 10),
  highValue: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  /** Code, goods, customer, driver or place contains. */
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  deviceId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  assetId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  templateId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** Planned start in [from, to). */
  from: z.preprocess(blankAsUndefined, isoInstant.optional()),
  to: z.preprocess(blankAsUndefined, isoInstant.optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type TaskQuery = z.infer<typeof taskQuerySchema>;

/** Counts per status tab for the same filters (without the status filter). */
export const taskCountsSchema = z.record(z.enum(['all', ...TASK_VIEW_STATUSES]), z.number().int());
export type TaskCounts = z.infer<typeof taskCountsSchema>;

/** The status monitor: tasks in transit or arrived (and abnormal ones), with where they are now. */
export const taskMonitorQuerySchema = z.object({
  /** Only abnormal tasks. */
  abnormal: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type TaskMonitorQuery = z.infer<typeof taskMonitorQuerySchema>;
/** Most tasks the monitor shows at once. */
export const MAX_MONITOR_TASKS = 500;

export const TRANSPORT_API = {
  /** GET list, POST create; /:id GET, PUT; /:id/transition|copy|handover POST; /:id/events GET; /counts, /export, /import, /import-template. */
  tasks: '/api/iot/v2/transport-tasks',
  /** GET → TaskDetail[] (taskMonitorQuerySchema). */
  monitor: '/api/iot/v2/transport-tasks/monitor',
  /** GET list, POST create; /:id GET, PUT, DELETE. */
  templates: '/api/iot/v2/transport-templates',
  /** POST → RoadRoute (roadRouteBodySchema): the road route through the points from the routing service. */
  roadRoute: '/api/iot/v2/transport-routes',
  /** GET → RoutingConfig: whether a routing service is configured. */
  routingConfig: '/api/iot/v2/transport-routes/config',
} as const;

/** Most points a road route is asked through: origin, up to 23 via points, destination. */
export const MAX_ROUTING_POINTS = 25;

/** The road route asked of the routing service (ROUTING_URL): [lat, lon] points in order. */
export const roadRouteBodySchema = z.object({
  points: z.array(z.tuple([lat, lon])).min(2).max(MAX_ROUTING_POINTS),
});
export type RoadRouteBody = z.infer<typeof roadRouteBodySchema>;

/** The road route found: its [lat, lon] points (thinned to MAX_ROUTE_POINTS), length and driving time. */
export const roadRouteSchema = z.object({
  route: routeSchema,
  distanceM: z.number().nonnegative(),
  durationS: z.number().nonnegative(),
});
export type RoadRoute = z.infer<typeof roadRouteSchema>;

/** Whether the server has a routing service; without one routes are drawn by hand. */
export const routingConfigSchema = z.object({ enabled: z.boolean() });
export type RoutingConfig = z.infer<typeof routingConfigSchema>;

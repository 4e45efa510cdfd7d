// Alarms: the levels, the policies and their rules (what is abnormal, for how long, when, and
// when it is over), the alarm records the engine keeps, and the calls and live messages around
// them. The rule evaluation itself is in alarm-rules.ts.
import { z } from 'zod';
import { blankAsUndefined, csvFilter, isoInstant, listQuerySchema } from './list.ts';
import { BATTERY_LOW_PERCENT } from './constants.ts';
import { isTimeZone } from './validation.ts';
import { TERMINAL_ALARM_TYPES } from './terminal-alarms.ts';

/** Alarm types (the `alarm_type` dictionary), in the order forms list them. */
export const ALARM_TYPES = [
  'temp_high',
  'temp_low',
  'humidity_high',
  'humidity_low',
  'vibration',
  'light',
  'pressure',
  'low_battery',
  'door_abnormal',
  'overspeed',
  'yaw',
  'stay_timeout',
  'offline',
  'battery_temp',
  ...TERMINAL_ALARM_TYPES,
] as const;
export type AlarmType = (typeof ALARM_TYPES)[number];

/**
 * How each type compares its threshold: `above` fires when the value is over it, `below` under
 * it; `door` fires on an open door outside the allowed places or times; `silence` and `stay`
 * are time-based (seconds without a report, seconds stopped) and are also checked by the
 * scheduler when no report arrives.
 */
export type RuleKind = 'above' | 'below' | 'door' | 'route' | 'stay' | 'silence' | 'terminal';

export interface AlarmTypeInfo {
  kind: RuleKind;
  /** Unit of the threshold (and of the alarm's value and peak). */
  unit: string;
  /** Default threshold a new rule starts with. */
  threshold: number;
  /** Default clear margin (hysteresis) in the threshold's unit. */
  hysteresis: number;
  /** Smallest and largest threshold accepted. */
  min: number;
  max: number;
}

export const ALARM_TYPE_INFO: Record<AlarmType, AlarmTypeInfo> = {
  temp_high: { kind: 'above', unit: '°C', threshold: 8, hysteresis: 0.5, min: -40, max: 100 },
  temp_low: { kind: 'below', unit: '°C', threshold: 2, hysteresis: 0.5, min: -40, max: 100 },
  humidity_high: { kind: 'above', unit: '%', threshold: 80, hysteresis: 2, min: 0, max: 100 },
  humidity_low: { kind: 'below', unit: '%', threshold: 20, hysteresis: 2, min: 0, max: 100 },
  vibration: { kind: 'above', unit: 'g', threshold: 2, hysteresis: 0.2, min: 0, max: 100 },
  light: { kind: 'above', unit: 'LUX', threshold: 50, hysteresis: 10, min: 0, max: 200_000 },
  pressure: { kind: 'below', unit: 'kPa', threshold: 80, hysteresis: 1, min: 0, max: 2000 },
  low_battery: { kind: 'below', unit: '%', threshold: BATTERY_LOW_PERCENT, hysteresis: 2, min: 0, max: 100 },
  door_abnormal: { kind: 'door', unit: '', threshold: 0, hysteresis: 0, min: 0, max: 0 },
  overspeed: { kind: 'above', unit: 'km/h', threshold: 100, hysteresis: 5, min: 1, max: 300 },
  yaw: { kind: 'route', unit: 'm', threshold: 500, hysteresis: 100, min: 10, max: 100_000 },
  stay_timeout: { kind: 'stay', unit: 's', threshold: 1800, hysteresis: 0, min: 60, max: 7 * 86_400 },
  offline: { kind: 'silence', unit: 's', threshold: 1800, hysteresis: 0, min: 60, max: 30 * 86_400 },
  battery_temp: { kind: 'above', unit: '°C', threshold: 55, hysteresis: 2, min: -40, max: 150 },
  // A terminal alarm is raised while the terminal's own alarm bit is set: no threshold.
  ...(Object.fromEntries(TERMINAL_ALARM_TYPES.map((t) => [t, { kind: 'terminal', unit: '', threshold: 0, hysteresis: 0, min: 0, max: 0 }])) as Record<
    (typeof TERMINAL_ALARM_TYPES)[number],
    AlarmTypeInfo
  >),
};

/** Longest a condition may be required to hold before its alarm opens. */
export const MAX_RULE_DURATION_S = 86_400;
/** Most rules in one policy, and most devices, assets or kinds a policy may name. */
export const MAX_RULES_PER_POLICY = 30;
export const MAX_SCOPE_IDS = 1000;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * When a rule is active: on the given weekdays (1 Monday ... 7 Sunday, ISO), from `start` to
 * `end` (HH:mm, local time of `timezone`). An `end` at or before `start` runs past midnight into
 * the next day; the weekday is the one the window starts on. Equal start and end: all day.
 */
export const scheduleSchema = z.object({
  days: z.array(z.number().int().min(1).max(7)).min(1, { message: 'SCHEDULE_DAYS_REQUIRED' }).max(7),
  start: z.string().regex(HHMM, { message: 'TIME_OF_DAY_FORMAT' }),
  end: z.string().regex(HHMM, { message: 'TIME_OF_DAY_FORMAT' }),
  timezone: z.string().trim().refine(isTimeZone, { message: 'TIMEZONE_UNKNOWN' }),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/**
 * A place (a depot, a customer's yard): where a door may open or a vehicle may stay. A circle, or
 * with `polygon` ([lat, lon] corners) that polygon (lat/lon/radiusM are then its centroid and the
 * circle around it). `placeId`: the place library's place it was copied from (place.ts); a change
 * to that place is written into this copy.
 */
export const placeSchema = z.object({
  placeId: z.uuid().optional(),
  name: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(100),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  radiusM: z.number().min(10).max(100_000),
  polygon: z.array(z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)])).min(3).max(200).optional(),
});
export type Place = z.infer<typeof placeSchema>;

const ruleIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/);

const ruleBaseSchema = z.object({
  /** Stable within the policy; the engine keeps its state per device under it. */
  id: ruleIdSchema,
  type: z.enum(ALARM_TYPES),
  enabled: z.boolean().default(true),
  threshold: z.number(),
  /** Seconds the condition must hold before the alarm opens. */
  durationS: z.number().int().min(0).max(MAX_RULE_DURATION_S).default(0),
  /** Margin past the threshold the value must return by before the alarm clears. */
  hysteresis: z.number().min(0).default(0),
  levelId: z.uuid({ message: 'ALARM_LEVEL_REQUIRED' }),
  /** Absent: always active. */
  schedule: scheduleSchema.nullable().default(null),
  /** door_abnormal and stay_timeout: where it is allowed. */
  places: z.array(placeSchema).max(50).default([]),
  /** door_abnormal: when opening is allowed anywhere (absent: never). */
  allowedTimes: scheduleSchema.nullable().default(null),
  /**
   * yaw: the planned route as [lat, lon] points (a task's route replaces it in the transport
   * scenario). 5,002: a task's planned path is its 5,000 route points with the origin and the
   * destination around them.
   */
  route: z.array(z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)])).max(5002).default([]),
});

function checkRule(r: { type: AlarmType; threshold: number; route: unknown[] }, ctx: z.RefinementCtx) {
  const info = ALARM_TYPE_INFO[r.type];
  if (info.kind !== 'door' && (r.threshold < info.min || r.threshold > info.max)) {
    ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'ALARM_THRESHOLD_RANGE', params: { min: info.min, max: info.max } });
  }
  if (r.type === 'yaw' && r.route.length === 1) ctx.addIssue({ code: 'custom', path: ['route'], message: 'ROUTE_TOO_SHORT' });
}

export const ruleSchema = ruleBaseSchema.superRefine(checkRule);
export type AlarmRule = z.infer<typeof ruleSchema>;
export type AlarmRuleInput = z.input<typeof ruleSchema>;

export const POLICY_SCOPES = ['all', 'devices', 'assets', 'asset_kinds'] as const;
export type PolicyScope = (typeof POLICY_SCOPES)[number];

const policyFields = {
  name: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(100),
  description: z.string().trim().max(500).default(''),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  enabled: z.boolean().default(true),
  /** all: every device of the organisation tree; else the devices, assets or asset kinds named in `targets`. */
  scope: z.enum(POLICY_SCOPES),
  targets: z.array(z.string().trim().min(1).max(64)).max(MAX_SCOPE_IDS).default([]),
};

function checkPolicy(p: { scope: PolicyScope; targets: string[]; rules: { id: string }[] }, ctx: z.RefinementCtx) {
  if (p.scope !== 'all' && p.targets.length === 0) ctx.addIssue({ code: 'custom', path: ['targets'], message: 'POLICY_TARGETS_REQUIRED' });
  const ids = new Set<string>();
  p.rules.forEach((r, i) => {
    if (ids.has(r.id)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'id'], message: 'RULE_ID_REPEATED' });
    ids.add(r.id);
  });
}

export const policyBodySchema = z
  .object({ ...policyFields, rules: z.array(ruleSchema).min(1, { message: 'ALARM_RULES_REQUIRED' }).max(MAX_RULES_PER_POLICY) })
  .superRefine(checkPolicy);
export type PolicyBody = z.infer<typeof policyBodySchema>;
export type PolicyInput = z.input<typeof policyBodySchema>;

export const policyRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  scope: z.enum(POLICY_SCOPES),
  targets: z.array(z.string()),
  rules: z.array(z.custom<AlarmRule>()),
  /** Alarms of the policy open now. */
  activeAlarms: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PolicyRow = z.infer<typeof policyRowSchema>;

export const policyQuerySchema = listQuerySchema.extend({
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  enabled: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type PolicyQuery = z.infer<typeof policyQuerySchema>;

/** The JSON file of policies an export writes and an import reads. */
export const POLICY_FILE_FORMAT = 'iotc-alarm-policies/1';
export const policyFileSchema = z.object({
  format: z.literal(POLICY_FILE_FORMAT, { message: 'POLICY_FILE_FORMAT' }),
  /** Levels are named by their code, so a file moves between organisations. */
  policies: z
    .array(
      z
        .object({
          ...policyFields,
          rules: z
            .array(ruleBaseSchema.extend({ levelId: z.string().optional(), levelCode: z.string() }).superRefine(checkRule))
            .min(1, { message: 'ALARM_RULES_REQUIRED' })
            .max(MAX_RULES_PER_POLICY),
        })
        .superRefine(checkPolicy),
    )
    .min(1)
    .max(500),
});

// ---- levels

export const LEVEL_CODE_PATTERN = /^[a-z0-9_-]{2,32}$/;

export const levelBodySchema = z.object({
  code: z.string().trim().regex(LEVEL_CODE_PATTERN, { message: 'LEVEL_CODE_FORMAT' }),
  nameZh: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(40),
  nameEn: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(40),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'COLOR_FORMAT' }),
  /** 1 is the most important. */
  priority: z.number().int().min(1).max(99),
  sound: z.boolean(),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type LevelBody = z.infer<typeof levelBodySchema>;

export const levelRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  code: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  color: z.string(),
  priority: z.number().int(),
  sound: z.boolean(),
  /** Rules of policies that raise alarms at this level. */
  rulesUsing: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LevelRow = z.infer<typeof levelRowSchema>;

/** The four levels every organisation starts with. */
export const DEFAULT_LEVELS: Omit<LevelBody, 'orgId'>[] = [
  { code: 'urgent', nameZh: '紧急', nameEn: 'Urgent', color: '#f5222d', priority: 1, sound: true },
  { code: 'important', nameZh: '重要', nameEn: 'Important', color: '#fa8c16', priority: 2, sound: true },
  { code: 'minor', nameZh: '次要', nameEn: 'Minor', color: '#fadb14', priority: 3, sound: false },
  { code: 'reminder', nameZh: '提醒', nameEn: 'Reminder', color: '#1677ff', priority: 4, sound: false },
];

// ---- alarms

/** active: the condition holds; cleared: it no longer does; closed: closed by hand with a reason. */
export const ALARM_STATUSES = ['active', 'cleared', 'closed'] as const;
export type AlarmStatus = (typeof ALARM_STATUSES)[number];

/** A rule behind an alarm: rules that see the same condition (type) on a device make one alarm. */
export const alarmSourceSchema = z.object({
  policyId: z.string().nullable(),
  policyName: z.string(),
  /** The transport task whose policy it is. */
  taskId: z.string().nullable(),
  ruleId: z.string(),
  levelId: z.string(),
  openedAt: z.string(),
  /** Null while this rule still sees the condition. */
  clearedAt: z.string().nullable(),
});
export type AlarmSource = z.infer<typeof alarmSourceSchema>;

export const alarmRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  type: z.enum(ALARM_TYPES),
  status: z.enum(ALARM_STATUSES),
  level: z.object({ id: z.string(), code: z.string(), nameZh: z.string(), nameEn: z.string(), color: z.string(), priority: z.number(), sound: z.boolean() }),
  policyId: z.string().nullable(),
  policyName: z.string(),
  ruleId: z.string(),
  device: z.object({ id: z.string(), deviceId: z.string(), name: z.string() }),
  asset: z.object({ id: z.string(), kind: z.string(), code: z.string(), name: z.string() }).nullable(),
  taskId: z.string().nullable(),
  /** The transport task whose policy raised it (null once the task is gone). */
  task: z.object({ id: z.string(), code: z.string() }).nullable(),
  startedAt: z.string(),
  lastAt: z.string(),
  endedAt: z.string().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  threshold: z.number(),
  unit: z.string(),
  /** The value when it opened, and the worst seen while it was open. */
  value: z.number().nullable(),
  peak: z.number().nullable(),
  /** Reports that confirmed it while open. */
  count: z.number().int(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  closedBy: z.string().nullable(),
  closeReason: z.string().nullable(),
  /** Who handles it. */
  assignee: z.object({ id: z.string(), account: z.string(), name: z.string() }).nullable(),
  /** The work order that holds it. */
  workOrder: z.object({ id: z.string(), code: z.string(), status: z.enum(['open', 'in_progress', 'resolved', 'closed']) }).nullable(),
  /** The rules behind it, first first: its level is the highest of theirs, and it clears when all of them have. */
  sources: z.array(alarmSourceSchema),
});
export type AlarmRow = z.infer<typeof alarmRowSchema>;

export const alarmQuerySchema = listQuerySchema.extend({
  from: z.preprocess(blankAsUndefined, isoInstant.optional()),
  to: z.preprocess(blankAsUndefined, isoInstant.optional()),
  type: csvFilter(z.enum(ALARM_TYPES), 50),
  levelId: csvFilter(z.uuid(), 50),
  status: csvFilter(z.enum(ALARM_STATUSES), 50),
  acknowledged: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  deviceId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  assetId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  taskId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** 'true': raised by a transport task's policy; 'false': by none. */
  inTask: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  policyId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** Handled by this user. */
  assigneeId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** 'true': handled by the caller. */
  mine: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  /** 'true': in a work order; 'false': in none. */
  inWorkOrder: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type AlarmQuery = z.infer<typeof alarmQuerySchema>;

export const alarmStatsQuerySchema = alarmQuerySchema.omit({ page: true, size: true, sort: true }).extend({
  bucket: z.enum(['hour', 'day', 'week', 'month']).default('day'),
});
export type AlarmStatsQuery = z.infer<typeof alarmStatsQuerySchema>;

export const alarmStatsSchema = z.object({
  byType: z.array(z.object({ type: z.enum(ALARM_TYPES), count: z.number().int() })),
  byLevel: z.array(z.object({ levelId: z.string(), code: z.string(), nameZh: z.string(), nameEn: z.string(), color: z.string(), count: z.number().int() })),
  /** Alarms started per bucket (bucket start as ISO, in the request's time zone), split by level. */
  overTime: z.array(z.object({ bucket: z.string(), levelId: z.string(), count: z.number().int() })),
});
export type AlarmStats = z.infer<typeof alarmStatsSchema>;

export const closeBodySchema = z.object({ reason: z.string().trim().min(1, { message: 'CLOSE_REASON_REQUIRED' }).max(500) });
export const commentBodySchema = z.object({ text: z.string().trim().min(1, { message: 'COMMENT_REQUIRED' }).max(1000) });
export const assignBodySchema = z.object({ userId: z.uuid() });

/**
 * What an alarm's timeline records; nothing in it is ever changed or removed. `notified`: a push
 * delivery was sent, kept in the outbox or failed for good (detail: channel, target, step, status);
 * `work_order_opened`: the alarm went into a work order (detail: workOrderId, code).
 */
export const ALARM_EVENT_KINDS = ['created', 'merged', 'acknowledged', 'assigned', 'commented', 'work_order_opened', 'cleared', 'closed', 'notified'] as const;
export type AlarmEventKind = (typeof ALARM_EVENT_KINDS)[number];

export const alarmEventRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  kind: z.string(),
  /** The user's account, or null for the platform. */
  actor: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type AlarmEventRow = z.infer<typeof alarmEventRowSchema>;

export const ALARM_API = {
  levels: '/api/iot/v2/alarm-levels',
  policies: '/api/iot/v2/alarm-policies',
  alarms: '/api/iot/v2/alarms',
} as const;

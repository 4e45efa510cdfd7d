// The policy form's values and how they become the body of the shared contract (and back): the
// form mirrors the body field by field, except where the screen shows a value another way (the
// time-based thresholds in minutes, the planned route as text lines, a schedule behind a switch),
// so that each problem the shared schema finds lands beside the field it is about.
import type { z } from 'zod';
import {
  ALARM_TYPE_INFO,
  policyBodySchema,
  type AlarmRule,
  type AlarmType,
  type PolicyBody,
  type PolicyRow,
  type PolicyScope,
  type Schedule,
} from '@iotc/shared/alarm';
import { ASSET_KINDS, type AssetKind } from '@iotc/shared/asset';
import { isErrorCode, type ErrorCode } from '@iotc/shared/errors';

/** Types whose threshold is a time in seconds, entered in minutes. */
const MINUTE_TYPES: ReadonlySet<AlarmType> = new Set<AlarmType>(['offline', 'stay_timeout']);
const SECONDS_PER_MINUTE = 60;

export const inMinutes = (type: AlarmType) => MINUTE_TYPES.has(type);
/** A door and a terminal's own alarm have no threshold. */
export const showsThreshold = (type: AlarmType) => ALARM_TYPE_INFO[type].kind !== 'door' && ALARM_TYPE_INFO[type].kind !== 'terminal';
/** Offline and stay timeout are times already: no extra time the condition must hold. */
export const showsDuration = (type: AlarmType) => !MINUTE_TYPES.has(type);
export const showsHysteresis = (type: AlarmType) => ALARM_TYPE_INFO[type].hysteresis > 0;
export const showsPlaces = (type: AlarmType) => type === 'door_abnormal' || type === 'stay_timeout';
export const showsAllowedTimes = (type: AlarmType) => type === 'door_abnormal';
export const showsRoute = (type: AlarmType) => type === 'yaw';

/** The threshold as the form shows it (minutes for the time-based types). */
export function thresholdToForm(type: AlarmType, seconds: number): number {
  return inMinutes(type) ? Number((seconds / SECONDS_PER_MINUTE).toFixed(2)) : seconds;
}

export function thresholdFromForm(type: AlarmType, shown: number): number {
  return inMinutes(type) ? Math.round(shown * SECONDS_PER_MINUTE) : shown;
}

/** The threshold's allowed range in the form's unit. */
export function thresholdRange(type: AlarmType): { min: number; max: number } {
  const info = ALARM_TYPE_INFO[type];
  return { min: thresholdToForm(type, info.min), max: thresholdToForm(type, info.max) };
}

/** The browser's time zone: a new schedule's default. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A schedule as the form holds it: times 'HH:mm' (absent until picked). */
export interface ScheduleValues {
  days: number[];
  start?: string | null;
  end?: string | null;
  timezone: string;
}

export interface PlaceValues {
  /** The place library's place it was picked from (a change to that place is copied here). */
  placeId?: string;
  /** A library polygon's corners ([lat, lon]). */
  polygon?: [number, number][];
  name?: string;
  lat?: number | null;
  lon?: number | null;
  radiusM?: number | null;
}

export interface RuleValues {
  id: string;
  type: AlarmType;
  enabled: boolean;
  /** In minutes for offline and stay timeout. */
  threshold?: number | null;
  durationS?: number | null;
  hysteresis?: number | null;
  levelId?: string;
  scheduleOn: boolean;
  schedule: ScheduleValues;
  places: PlaceValues[];
  allowedOn: boolean;
  allowedTimes: ScheduleValues;
  /** yaw: one 'lat,lon' point per line. */
  routeText: string;
}

export interface PolicyFormValues {
  name: string;
  description: string;
  orgId?: string;
  enabled: boolean;
  scope: PolicyScope;
  targets: string[];
  rules: RuleValues[];
}

export const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];

export function defaultSchedule(timezone = browserTimeZone()): ScheduleValues {
  return { days: [...ALL_DAYS], start: '08:00', end: '18:00', timezone };
}

function scheduleToForm(s: Schedule | null | undefined): { on: boolean; values: ScheduleValues } {
  return s ? { on: true, values: { days: [...s.days], start: s.start, end: s.end, timezone: s.timezone } } : { on: false, values: defaultSchedule() };
}

/** `r1`, `r2`, ...: the first such id the policy does not use yet. */
export function nextRuleId(ids: readonly string[]): string {
  const taken = new Set(ids);
  let n = 1;
  for (const id of ids) {
    const m = /^r(\d+)$/.exec(id);
    if (m) n = Math.max(n, Number(m[1]) + 1);
  }
  while (taken.has(`r${n}`)) n += 1;
  return `r${n}`;
}

/** A new rule of `type` with the type's default threshold and clear margin. */
export function newRule(type: AlarmType, existingIds: readonly string[], levelId: string | undefined): RuleValues {
  const info = ALARM_TYPE_INFO[type];
  return {
    id: nextRuleId(existingIds),
    type,
    enabled: true,
    threshold: thresholdToForm(type, info.threshold),
    durationS: 0,
    hysteresis: info.hysteresis,
    levelId,
    scheduleOn: false,
    schedule: defaultSchedule(),
    places: [],
    allowedOn: false,
    allowedTimes: defaultSchedule(),
    routeText: '',
  };
}

/** The fields a change of type resets to the new type's defaults. */
export function typeDefaults(type: AlarmType): Pick<RuleValues, 'threshold' | 'hysteresis'> {
  const info = ALARM_TYPE_INFO[type];
  return { threshold: thresholdToForm(type, info.threshold), hysteresis: info.hysteresis };
}

export function ruleToForm(r: AlarmRule): RuleValues {
  const schedule = scheduleToForm(r.schedule);
  const allowed = scheduleToForm(r.allowedTimes);
  return {
    id: r.id,
    type: r.type,
    enabled: r.enabled,
    threshold: thresholdToForm(r.type, r.threshold),
    durationS: r.durationS,
    hysteresis: r.hysteresis,
    levelId: r.levelId,
    scheduleOn: schedule.on,
    schedule: schedule.values,
    places: r.places.map((p) => ({ ...p })),
    allowedOn: allowed.on,
    allowedTimes: allowed.values,
    routeText: r.route.map(([lat, lon]) => `${lat},${lon}`).join('\n'),
  };
}

export function emptyPolicy(orgId: string | undefined): PolicyFormValues {
  return { name: '', description: '', orgId, enabled: true, scope: 'all', targets: [], rules: [] };
}

export function policyToForm(p: PolicyRow): PolicyFormValues {
  return {
    name: p.name,
    description: p.description,
    orgId: p.orgId,
    enabled: p.enabled,
    scope: p.scope,
    targets: [...p.targets],
    rules: p.rules.map(ruleToForm),
  };
}

// ---- to the body

/** A form name path: ['rules', 0, 'threshold']. */
export type FieldName = (string | number)[];

/** What a problem says: a shared error code, or a text of this screen with its values. */
export type IssueText =
  | { code: ErrorCode }
  | {
      key: 'alarmConfig.form.required' | 'alarmConfig.form.integer' | 'alarmConfig.form.tooSmall' | 'alarmConfig.form.tooBig' | 'alarmConfig.form.tooLong' | 'alarmConfig.form.tooMany' | 'alarmConfig.rule.routeLine';
      params?: Record<string, string | number>;
    };

export interface FormIssue {
  /** The field it is about; null: the rules as a whole. */
  name: FieldName | null;
  text: IssueText;
}

type ParsedRoute = { points: [number, number][] } | { badLine: number };

/** 'lat,lon' per line (blank lines ignored); the number of the first line that is no point. */
export function parseRoute(text: string): ParsedRoute {
  const points: [number, number][] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const m = /^(-?\d+(?:\.\d+)?)\s*[,，]\s*(-?\d+(?:\.\d+)?)$/.exec(line);
    if (!m) return { badLine: i + 1 };
    points.push([Number(m[1]), Number(m[2])]);
  }
  return { points };
}

const numberOrNull = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function scheduleBody(on: boolean, s: ScheduleValues | undefined) {
  if (!on || !s) return null;
  return { days: [...(s.days ?? [])].sort((a, b) => a - b), start: s.start ?? '', end: s.end ?? '', timezone: s.timezone ?? '' };
}

/** The rule's body as the schema takes it (not yet checked); the route already read. */
function ruleBody(r: RuleValues, route: [number, number][]) {
  const info = ALARM_TYPE_INFO[r.type];
  const shown = numberOrNull(r.threshold);
  return {
    id: r.id,
    type: r.type,
    enabled: r.enabled !== false,
    threshold: showsThreshold(r.type) ? (shown === null ? null : thresholdFromForm(r.type, shown)) : info.threshold,
    durationS: showsDuration(r.type) ? numberOrNull(r.durationS) : 0,
    hysteresis: showsHysteresis(r.type) ? numberOrNull(r.hysteresis) : 0,
    levelId: r.levelId ?? '',
    schedule: scheduleBody(r.scheduleOn, r.schedule),
    places: showsPlaces(r.type)
      ? (r.places ?? []).map((p) => ({
          ...(p.placeId ? { placeId: p.placeId } : {}),
          name: p.name ?? '',
          lat: numberOrNull(p.lat),
          lon: numberOrNull(p.lon),
          radiusM: numberOrNull(p.radiusM),
          ...(p.polygon ? { polygon: p.polygon } : {}),
        }))
      : [],
    allowedTimes: showsAllowedTimes(r.type) ? scheduleBody(r.allowedOn, r.allowedTimes) : null,
    route: showsRoute(r.type) ? route : [],
  };
}

/** Where a problem of the body shows in the form. */
export function formNameOf(path: readonly PropertyKey[]): FieldName | null {
  const p = path.filter((k): k is string | number => typeof k !== 'symbol');
  if (p[0] === 'targets') return ['targets'];
  if (p[0] === 'rules') {
    if (p.length < 3 || p[2] === 'id') return null;
    if (p[2] === 'route') return ['rules', p[1]!, 'routeText'];
    return p;
  }
  return p.length ? p : null;
}

/** What a problem of the schema says, in this screen's words when it carries no error code. */
export function issueText(issue: z.core.$ZodIssue): IssueText {
  if (isErrorCode(issue.message)) return { code: issue.message };
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return { key: 'alarmConfig.form.required' };
      if (issue.origin === 'array') return { code: 'VALIDATION' };
      return { key: 'alarmConfig.form.tooSmall', params: { min: Number(issue.minimum) } };
    case 'too_big':
      if (issue.origin === 'string') return { key: 'alarmConfig.form.tooLong', params: { max: Number(issue.maximum) } };
      if (issue.origin === 'array') return { key: 'alarmConfig.form.tooMany', params: { max: Number(issue.maximum) } };
      return { key: 'alarmConfig.form.tooBig', params: { max: Number(issue.maximum) } };
    case 'invalid_type':
      return issue.expected === 'int' ? { key: 'alarmConfig.form.integer' } : { key: 'alarmConfig.form.required' };
    default:
      return { code: 'VALIDATION' };
  }
}

export type BuildResult = { ok: true; body: PolicyBody } | { ok: false; issues: FormIssue[] };

/**
 * The body of the policy the form holds, checked by the schema the server parses it with; else
 * its problems, the first one per field. `creating`: the organisation is sent (a change keeps
 * the policy where it is).
 */
export function buildPolicyBody(values: PolicyFormValues, creating: boolean): BuildResult {
  const issues: FormIssue[] = [];
  const rules = (values.rules ?? []).map((r, i) => {
    const route = showsRoute(r.type) ? parseRoute(r.routeText ?? '') : { points: [] };
    if ('badLine' in route) {
      issues.push({ name: ['rules', i, 'routeText'], text: { key: 'alarmConfig.rule.routeLine', params: { line: route.badLine } } });
      return ruleBody(r, []);
    }
    return ruleBody(r, route.points);
  });
  const input = {
    name: values.name ?? '',
    description: values.description ?? '',
    orgId: creating ? values.orgId : undefined,
    enabled: values.enabled !== false,
    scope: values.scope,
    targets: values.scope === 'all' ? [] : (values.targets ?? []),
    rules,
  };
  const parsed = policyBodySchema.safeParse(input);
  if (!parsed.success) for (const issue of parsed.error.issues) issues.push({ name: formNameOf(issue.path), text: issueText(issue) });
  if (issues.length || !parsed.success) {
    const seen = new Set<string>();
    return {
      ok: false,
      issues: issues.filter((i) => {
        const key = JSON.stringify(i.name);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      }),
    };
  }
  return { ok: true, body: parsed.data };
}

// ---- list summaries

export const KIND_LABELS: Record<AssetKind, 'asset.kind.vehicle' | 'asset.kind.container' | 'asset.kind.warehouse' | 'asset.kind.coldRoom' | 'asset.kind.refrigerator' | 'asset.kind.gateway'> = {
  vehicle: 'asset.kind.vehicle',
  container: 'asset.kind.container',
  warehouse: 'asset.kind.warehouse',
  cold_room: 'asset.kind.coldRoom',
  refrigerator: 'asset.kind.refrigerator',
  gateway: 'asset.kind.gateway',
};

export function isAssetKind(value: string): value is AssetKind {
  return (ASSET_KINDS as readonly string[]).includes(value);
}

/** The distinct rule types of a policy, in the order forms list them. */
export function ruleTypes(rules: readonly Pick<AlarmRule, 'type'>[]): AlarmType[] {
  const present = new Set(rules.map((r) => r.type));
  return (Object.keys(ALARM_TYPE_INFO) as AlarmType[]).filter((t) => present.has(t));
}

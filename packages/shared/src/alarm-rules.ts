// Rule evaluation: one rule, the state the engine kept for it on one device, and one report (or
// a tick of the scheduler) give the next state and what happened to the alarm: opened,
// confirmed again, or cleared. Pure functions; the engine (server, modules/alarm) keeps the
// states in the database and writes the alarms.
//
// A condition must hold `durationS` seconds before the alarm opens (the alarm's start is when it
// began to hold); it clears when the clear condition holds: the value back past the threshold by
// the hysteresis, the door closed, the vehicle moving or inside an allowed place, a report after
// silence. Outside the rule's schedule no alarm starts and a waiting one is dropped; an open one
// still clears. A report older than the last one evaluated changes nothing.
import { ALARM_TYPE_INFO, type AlarmRule, type Place, type Schedule } from './alarm.ts';
import { pointInPolygon } from './place.ts';
import { PARKED_BELOW_KMH } from './live.ts';
import type { SensorValues } from './sensors.ts';
import { terminalAlarmBit } from './terminal-alarms.ts';

/** One report as the rules see it. Times are epoch milliseconds. */
export interface RuleSample {
  time: number;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  sensors: SensorValues;
  /** The JT/T 808 terminal's alarm word (bit n set: its alarm n is on); absent or null when the report carries none. */
  terminalAlarm?: number | null;
}

export interface RuleState {
  /** pending: the condition holds, not yet for long enough; active: its alarm is open (or was closed by hand while the condition still holds). */
  phase: 'pending' | 'active';
  /** When the condition began to hold. */
  since: number;
  /** Time of the last sample or tick evaluated. */
  lastAt: number;
  /** The worst value since `since` (highest, or lowest for rules that fire below). */
  peak: number | null;
}

export type RuleEvent =
  | { kind: 'open'; startedAt: number; at: number; value: number | null; peak: number | null }
  | { kind: 'repeat'; at: number; value: number | null; peak: number | null }
  /** A time-based alarm that is still on (a silence, a stay) has lasted longer: its value and peak grow, no repeat is counted. */
  | { kind: 'grow'; at: number; value: number | null; peak: number | null }
  | { kind: 'clear'; at: number; value: number | null };

export interface RuleResult {
  state: RuleState | null;
  event: RuleEvent | null;
}

/** What the rule needs besides the report: the planned route of the device's task, when it has one. */
export interface RuleContext {
  route?: [number, number][];
}

const unchanged = (state: RuleState | null): RuleResult => ({ state, event: null });

// ---- time of day in a time zone

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** ISO weekday (1 Monday ... 7 Sunday) and minute of the day of an instant in a time zone. */
export function localClock(time: number, timezone: string): { weekday: number; minute: number } {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timezone, f);
  }
  let weekday = 0;
  let hour = 0;
  let minute = 0;
  for (const p of f.formatToParts(time)) {
    if (p.type === 'weekday') weekday = WEEKDAYS[p.value] ?? 0;
    else if (p.type === 'hour') hour = Number(p.value);
    else if (p.type === 'minute') minute = Number(p.value);
  }
  return { weekday, minute: hour * 60 + minute };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether an instant falls in the schedule (see scheduleSchema: a window may run past midnight). */
export function inSchedule(s: Schedule, time: number): boolean {
  const { weekday, minute } = localClock(time, s.timezone);
  const start = minutesOf(s.start);
  const end = minutesOf(s.end);
  const on = (d: number) => s.days.includes(d);
  if (start === end) return on(weekday);
  if (start < end) return on(weekday) && minute >= start && minute < end;
  const yesterday = weekday === 1 ? 7 : weekday - 1;
  return (on(weekday) && minute >= start) || (on(yesterday) && minute < end);
}

// ---- geometry

const EARTH_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in metres. */
export function distanceM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Distance in metres from a point to a polyline (locally flat: routes are checked within kilometres of the point). */
export function distanceToRouteM(lat: number, lon: number, route: [number, number][]): number {
  if (route.length === 0) return Infinity;
  if (route.length === 1) return distanceM(lat, lon, route[0]![0], route[0]![1]);
  const kx = Math.cos(rad(lat)) * (Math.PI / 180) * EARTH_M;
  const ky = (Math.PI / 180) * EARTH_M;
  let best = Infinity;
  for (let i = 1; i < route.length; i++) {
    const [aLat, aLon] = route[i - 1]!;
    const [bLat, bLon] = route[i]!;
    const ax = (aLon - lon) * kx;
    const ay = (aLat - lat) * ky;
    const bx = (bLon - lon) * kx;
    const by = (bLat - lat) * ky;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
    const d = Math.hypot(ax + t * dx, ay + t * dy);
    if (d < best) best = d;
  }
  return best;
}

export function inPlaces(places: Place[], lat: number | null, lon: number | null): boolean {
  if (lat === null || lon === null) return false;
  return places.some((p) => (p.polygon ? pointInPolygon(lat, lon, p.polygon) : distanceM(lat, lon, p.lat, p.lon) <= p.radiusM));
}

// ---- conditions

/** The value a threshold rule compares, or null when the report does not carry it. */
export function metricOf(rule: AlarmRule, s: RuleSample): number | null {
  const v = (x: number | null | undefined) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  switch (rule.type) {
    case 'temp_high':
    case 'temp_low':
      return v(s.sensors.temperature);
    case 'humidity_high':
    case 'humidity_low':
      return v(s.sensors.humidity);
    case 'vibration':
      return v(s.sensors.vibration);
    case 'light':
      return v(s.sensors.light);
    case 'pressure':
      return v(s.sensors.pressure);
    case 'low_battery':
      return v(s.sensors.battery);
    case 'battery_temp':
      return v(s.sensors.batteryTemperature);
    case 'overspeed':
      return v(s.speed);
    default:
      return null;
  }
}

/**
 * For one sample: whether the alarm condition holds (`fire`), whether the clear condition holds
 * (`clear`; between the two an open alarm stays as it is), and the value; null when the sample
 * says nothing about this rule.
 */
function judge(rule: AlarmRule, s: RuleSample, ctx: RuleContext, state: RuleState | null): { fire: boolean; clear: boolean; value: number | null } | null {
  const kind = ALARM_TYPE_INFO[rule.type].kind;
  switch (kind) {
    case 'above':
    case 'below': {
      const value = metricOf(rule, s);
      if (value === null) return null;
      return kind === 'above'
        ? { fire: value > rule.threshold, clear: value <= rule.threshold - rule.hysteresis, value }
        : { fire: value < rule.threshold, clear: value >= rule.threshold + rule.hysteresis, value };
    }
    case 'door': {
      const door = s.sensors.door;
      if (door === undefined) return null;
      if (door === 'closed') return { fire: false, clear: true, value: null };
      const allowed = inPlaces(rule.places, s.lat, s.lon) || (rule.allowedTimes !== null && inSchedule(rule.allowedTimes, s.time));
      return { fire: !allowed, clear: allowed, value: null };
    }
    case 'route': {
      const route = ctx.route && ctx.route.length >= 2 ? ctx.route : rule.route;
      if (route.length < 2 || s.lat === null || s.lon === null) return null;
      const value = Math.round(distanceToRouteM(s.lat, s.lon, route));
      return { fire: value > rule.threshold, clear: value <= rule.threshold - rule.hysteresis, value };
    }
    case 'stay': {
      if (s.speed === null) return null;
      const stopped = s.speed < PARKED_BELOW_KMH && !inPlaces(rule.places, s.lat, s.lon);
      // The value is how long it has been stopped; the threshold is compared in advance().
      const value = stopped && state ? Math.round((s.time - state.since) / 1000) : 0;
      return { fire: stopped, clear: !stopped, value };
    }
    case 'silence':
      // Any report ends a silence.
      return { fire: false, clear: true, value: null };
    case 'terminal': {
      // A report without the word (a JSON report, another protocol) says nothing about it.
      if (s.terminalAlarm === undefined || s.terminalAlarm === null) return null;
      const on = ((s.terminalAlarm >>> terminalAlarmBit(rule.type)) & 1) === 1;
      return { fire: on, clear: !on, value: null };
    }
  }
}

const worse = (rule: AlarmRule, a: number | null, b: number | null): number | null => {
  if (a === null) return b;
  if (b === null) return a;
  return ALARM_TYPE_INFO[rule.type].kind === 'below' ? Math.min(a, b) : Math.max(a, b);
};

/** How long (ms) the condition must hold before the alarm opens. */
function holdMs(rule: AlarmRule): number {
  // A stay is its threshold (seconds stopped); the others their duration.
  return (ALARM_TYPE_INFO[rule.type].kind === 'stay' ? rule.threshold : rule.durationS) * 1000;
}

function advance(rule: AlarmRule, state: RuleState | null, at: number, fire: boolean, clear: boolean, value: number | null, scheduled: boolean): RuleResult {
  if (state?.phase === 'active') {
    if (clear) return { state: null, event: { kind: 'clear', at, value } };
    if (!fire) return { state: { ...state, lastAt: at }, event: null };
    const peak = worse(rule, state.peak, value);
    return { state: { ...state, lastAt: at, peak }, event: { kind: 'repeat', at, value, peak } };
  }
  // Idle or waiting: outside the schedule nothing starts.
  if (!fire || !scheduled) return { state: null, event: null };
  const since = state?.since ?? at;
  const peak = worse(rule, state?.peak ?? null, value);
  if (at - since >= holdMs(rule)) {
    return { state: { phase: 'active', since, lastAt: at, peak }, event: { kind: 'open', startedAt: since, at, value, peak } };
  }
  return { state: { phase: 'pending', since, lastAt: at, peak }, event: null };
}

/** The next state of one rule on one device after a report. */
export function evaluateRule(rule: AlarmRule, state: RuleState | null, sample: RuleSample, ctx: RuleContext = {}): RuleResult {
  // A silence is ended by any report, whatever its device time (a tick set lastAt by the server's clock).
  if (state && sample.time < state.lastAt && ALARM_TYPE_INFO[rule.type].kind !== 'silence') return unchanged(state);
  const j = judge(rule, sample, ctx, state);
  if (!j) return unchanged(state);
  const scheduled = rule.schedule === null || inSchedule(rule.schedule, sample.time);
  return advance(rule, state, sample.time, j.fire, j.clear, j.value, scheduled);
}

/**
 * The scheduler's check at `now` of the time-based rules, with no report: an offline rule
 * opens once the device has been silent `threshold` seconds (its start is when the silence
 * passed the threshold); a stay opens once a vehicle stopped outside the allowed places has
 * stayed `threshold` seconds. `lastSeenAt` is when the platform last took a report from the device.
 */
export function evaluateTick(rule: AlarmRule, state: RuleState | null, now: number, lastSeenAt: number | null): RuleResult {
  const kind = ALARM_TYPE_INFO[rule.type].kind;
  if (kind === 'silence') {
    if (lastSeenAt === null) return unchanged(state);
    const silentS = Math.round((now - lastSeenAt) / 1000);
    if (state?.phase === 'active') {
      // Still silent: how long keeps counting on the open alarm.
      const peak = Math.max(state.peak ?? 0, silentS);
      return { state: { ...state, lastAt: now, peak }, event: { kind: 'grow', at: now, value: silentS, peak } };
    }
    // Compared in milliseconds: the rounded seconds would open up to half a second early.
    if (now - lastSeenAt < rule.threshold * 1000) return unchanged(state);
    const scheduled = rule.schedule === null || inSchedule(rule.schedule, now);
    if (!scheduled) return unchanged(state);
    const since = lastSeenAt + rule.threshold * 1000;
    return { state: { phase: 'active', since, lastAt: now, peak: silentS }, event: { kind: 'open', startedAt: since, at: now, value: silentS, peak: silentS } };
  }
  if (kind === 'stay' && state && now > state.lastAt) {
    const stayedS = Math.round((now - state.since) / 1000);
    const scheduled = rule.schedule === null || inSchedule(rule.schedule, now);
    const out = advance(rule, state, now, true, false, stayedS, scheduled);
    // A tick confirms nothing (no repeat is counted): an open stay only grows.
    return out.event?.kind === 'repeat' ? { ...out, event: { ...out.event, kind: 'grow' } } : out;
  }
  return unchanged(state);
}

/** Types the scheduler must look at even when no report arrives. */
export const TICKED_KINDS: ReadonlySet<string> = new Set(['silence', 'stay']);

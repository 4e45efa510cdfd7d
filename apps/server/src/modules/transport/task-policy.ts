// The alarm policy a transport task runs through the alarm engine: one alarm_policies row with
// task_id set, scoped to the task's devices, its rules derived from the task's ranges and alarm
// settings. While in transit everything is watched; once arrived only the goods (temperature,
// humidity, door) until the task is completed; completed or cancelled: the policy is disabled
// and its open alarms end the way a retired policy rule's do.
// Next to the policy, one push rule of the task (push_rules.task_id) sends the policy's alarms,
// opened and cleared, to the task's recipients by e-mail and SMS while the policy is enabled.
import { and, eq } from 'drizzle-orm';
import { emailSchema } from '@iotc/shared/account';
import { ALARM_TYPE_INFO, ruleSchema, type AlarmRule, type AlarmType } from '@iotc/shared/alarm';
import { pushRuleBodySchema, type PushChannel } from '@iotc/shared/alarm-push';
import type { Contact, TaskAlarm, TaskPlace, TaskStatus, TaskStop } from '@iotc/shared/transport';
import { plannedPath } from '@iotc/shared/transport-progress';
import { PATTERNS } from '@iotc/shared/validation';
import type { Tx } from '../../db/client.ts';
import { alarmPolicies, pushRules } from '../../db/schema.ts';
import { retireRules } from '../alarm/policies.ts';

export interface PolicySource {
  id: string;
  orgId: string;
  code: string;
  status: TaskStatus;
  deviceRefs: string[];
  origin: TaskPlace;
  destination: TaskPlace;
  /** The stops on the way (in order); places where the goods may be opened and the vehicle stand. */
  stops?: TaskStop[];
  route: [number, number][];
  tempMin: number | null;
  tempMax: number | null;
  humidityMin: number | null;
  humidityMax: number | null;
  alarm: TaskAlarm;
}

/** The rules that keep watching the goods after arrival. */
const GOODS_RULES: ReadonlySet<AlarmType> = new Set(['temp_high', 'temp_low', 'humidity_high', 'humidity_low', 'door_abnormal']);

/**
 * The task's rules in its status (none outside in transit and arrived). Rule ids are the types,
 * so the engine's state and an open alarm survive an edit of the task.
 */
export function taskRules(t: PolicySource): AlarmRule[] {
  if (!t.alarm.levelId || (t.status !== 'in_transit' && t.status !== 'arrived')) return [];
  const a = t.alarm;
  const places = [t.origin, ...(t.stops ?? []), t.destination].map((p) => ({ ...(p.placeId ? { placeId: p.placeId } : {}), name: p.name, lat: p.lat, lon: p.lon, radiusM: p.radiusM }));
  const out: { type: AlarmType; threshold: number; places?: typeof places; route?: [number, number][] }[] = [];
  if (a.temperature && t.tempMax !== null) out.push({ type: 'temp_high', threshold: t.tempMax });
  if (a.temperature && t.tempMin !== null) out.push({ type: 'temp_low', threshold: t.tempMin });
  if (a.humidity && t.humidityMax !== null) out.push({ type: 'humidity_high', threshold: t.humidityMax });
  if (a.humidity && t.humidityMin !== null) out.push({ type: 'humidity_low', threshold: t.humidityMin });
  // Opening is allowed at the origin, the stops and the destination.
  if (a.door) out.push({ type: 'door_abnormal', threshold: 0, places });
  // Off route: away from the planned path, which runs from the origin through the route's points to the destination.
  const path = plannedPath(t);
  if (a.yawM !== null && path.length >= 2) out.push({ type: 'yaw', threshold: a.yawM, route: path });
  if (a.stayTimeoutS !== null) out.push({ type: 'stay_timeout', threshold: a.stayTimeoutS, places });
  if (a.overspeedKmh !== null) out.push({ type: 'overspeed', threshold: a.overspeedKmh });
  return out
    .filter((r) => t.status === 'in_transit' || GOODS_RULES.has(r.type))
    .map((r) => {
      const info = ALARM_TYPE_INFO[r.type];
      // A task's range may reach past what a rule takes (below -40 °C); sensors read no colder
      // than -30 °C, so the clamped threshold alarms on exactly the same readings.
      const threshold = info.kind === 'door' ? 0 : Math.min(info.max, Math.max(info.min, r.threshold));
      // A small yaw distance or speed limit must still be able to clear.
      const hysteresis = r.type === 'yaw' || r.type === 'overspeed' ? Math.min(info.hysteresis, threshold / 2) : info.hysteresis;
      return ruleSchema.parse({
        id: r.type,
        type: r.type,
        threshold,
        hysteresis,
        durationS: a.durationS,
        levelId: a.levelId,
        places: r.places ?? [],
        route: r.route ?? [],
      });
    });
}

/**
 * Brings the task's policy in line with the task (in the caller's transaction): upserts it with
 * the rules of the status, or disables it when there are none. Answers the ids of the alarms it
 * ended (rules that stopped), for the caller to publish after the commit.
 */
export async function syncTaskPolicy(tx: Tx, t: PolicySource, actor: string | null): Promise<string[]> {
  const rules = taskRules(t);
  const [existing] = await tx.select({ id: alarmPolicies.id }).from(alarmPolicies).where(eq(alarmPolicies.taskId, t.id)).for('update');
  const now = new Date();
  if (rules.length === 0) {
    if (!existing) return [];
    await tx.update(alarmPolicies).set({ enabled: false, updatedAt: now }).where(and(eq(alarmPolicies.id, existing.id), eq(alarmPolicies.taskId, t.id)));
    return retireRules(tx, existing.id, [], actor);
  }
  const values = { orgId: t.orgId, name: t.code, enabled: true, scope: 'devices' as const, targets: [...t.deviceRefs], rules, updatedAt: now };
  if (!existing) {
    await tx.insert(alarmPolicies).values({ ...values, taskId: t.id, description: '' });
    return [];
  }
  await tx.update(alarmPolicies).set(values).where(eq(alarmPolicies.id, existing.id));
  return retireRules(tx, existing.id, rules, actor);
}

/** A recipient's phone as an SMS target: a mainland mobile number (spaces, dashes and a +86 prefix dropped), else null. */
export function smsNumber(phone: string): string | null {
  const n = phone.replace(/[\s-]/g, '').replace(/^(?:\+|00)?86(?=1\d{10}$)/, '');
  return PATTERNS.mobileCN.test(n) ? n : null;
}

/**
 * Brings the task's push rule in line with its policy and recipients (in the caller's
 * transaction, after syncTaskPolicy): named after the task, matching exactly the task's policy,
 * opened and cleared, one step at once by e-mail to the recipients with an address and by SMS to
 * those with a mobile number; enabled while the policy is. No policy or nobody to reach: no rule.
 * Organisations keep no language or time zone of their own, so the rule takes the push rules'
 * defaults. Answers whether the rule was written (the push engine then reads its rules again).
 */
export async function syncTaskPushRule(tx: Tx, t: { id: string; orgId: string; code: string; recipients: Contact[] }): Promise<boolean> {
  const [policy] = await tx.select({ id: alarmPolicies.id, enabled: alarmPolicies.enabled }).from(alarmPolicies).where(eq(alarmPolicies.taskId, t.id));
  const [existing] = await tx.select({ id: pushRules.id }).from(pushRules).where(eq(pushRules.taskId, t.id)).for('update');
  const emails = [...new Map(t.recipients.filter((r) => emailSchema.safeParse(r.email).success).map((r) => [r.email.toLowerCase(), r.email.trim()])).values()];
  const phones = [...new Set(t.recipients.map((r) => smsNumber(r.phone)).filter((p): p is string => p !== null))];
  const channels: PushChannel[] = [...(emails.length ? (['email'] as const) : []), ...(phones.length ? (['sms'] as const) : [])];
  if (!policy || channels.length === 0) {
    if (!existing) return false;
    await tx.delete(pushRules).where(eq(pushRules.id, existing.id));
    return true;
  }
  const rule = pushRuleBodySchema.parse({
    name: t.code,
    enabled: policy.enabled,
    match: { policyIds: [policy.id] },
    events: ['opened', 'cleared'],
    steps: [{ afterMinutes: 0, channels, emails, phones }],
  });
  const values = {
    orgId: t.orgId,
    name: rule.name,
    enabled: rule.enabled,
    match: rule.match,
    events: rule.events,
    language: rule.language,
    timezone: rule.timezone,
    templates: rule.templates,
    steps: rule.steps,
    updatedAt: new Date(),
  };
  if (existing) await tx.update(pushRules).set(values).where(eq(pushRules.id, existing.id));
  else await tx.insert(pushRules).values({ ...values, taskId: t.id });
  return true;
}

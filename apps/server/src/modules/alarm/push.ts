// Message push for alarms. Every alarm row that opened or changed passes through `onAlarms`
// (`publishAlarms` of modules/context.ts): a newly opened alarm starts an escalation for each enabled push rule
// of its organisation and ancestors that matches it, and the rule's first step is delivered at
// once; acknowledging, clearing or closing the alarm stops its escalations (a rule with the
// `cleared` event then notifies the steps already reached). A tick (one node at a time, a
// transaction-scoped advisory lock) fires the due escalation steps and the due attempts of
// pending deliveries. Whoever creates or claims a delivery sends it after its transaction
// commits; the claim (a next attempt time in the future) lapses after CLAIM_MS, so a delivery
// whose sender died is picked up by a later tick. Failed attempts are retried after
// RETRY_BACKOFF_S and then given up; every attempt is kept, and a delivery that ends (sent, in
// the outbox, failed) appends `notified` to the alarm's timeline.
import { createHmac } from 'node:crypto';
import { and, asc, eq, gte, inArray, lte, or, sql } from 'drizzle-orm';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AlarmRow, AlarmStatus } from '@iotc/shared/alarm';
import { durationText, precisionOf, roundedText } from '@iotc/shared/format';
import {
  CLEARED_PREFIX,
  DEFAULT_TEMPLATES,
  DIGEST_SUBJECT,
  MAX_ATTEMPTS,
  MAX_STEP_REPEATS,
  RETRY_BACKOFF_S,
  WEBHOOK_HEADERS,
  WEBHOOK_TIMEOUT_MS,
  renderTemplate,
  type PushChannel,
  type PushEvent,
  type PushMatch,
  type PushStep,
  type PushTemplates,
  type WebhookPayload,
} from '@iotc/shared/alarm-push';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { I18nText, Lang } from '@iotc/shared/i18n';
import { rowsOf, type Db, type Tx } from '../../db/client.ts';
import { leases, type Lease } from '../../db/lease.ts';
import { ancestorChain, anyUuid, orgTree } from '../../db/list.ts';
import { alarmEvents, alarms, deliveries, deliveryAttempts, dictItems, pushEscalations, pushRules, userRoles, users } from '../../db/schema.ts';
import type { Messenger } from '../../lib/messenger.ts';
import { alarmsByIds } from './records.ts';
import { batchQueue } from '../../lib/batch-queue.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Advisory lock namespace of the push tick (the engine uses 72_001 and 72_002). */
/** How long a node's claim on a delivery it is sending holds (longer than any one attempt). */
const CLAIM_MS = 2 * 60_000;
/** Escalations and deliveries one tick takes on. */
const TICK_BATCH = 200;
/** Deliveries sent at the same time by one node. */
const SEND_CONCURRENCY = 8;
/** Enabled rules and the organisation tree are read again at least this often. */
const RULE_CACHE_MS = 5_000;
/**
 * An alarm counts as newly opened (and starts its push) while it is active, unacknowledged, not
 * pushed yet and at most this old. Not only at count 1: one batch of readings may open and
 * repeat an alarm before it is published. A rule added later does not notify old alarms.
 */
const NEW_ALARM_MS = 10 * 60_000;
/** Alarms this node has already considered for a push, so repeats cost no query. */
const SEEN_MAX = 100_000;

const STATUS_NAMES: Record<AlarmStatus, I18nText> = {
  active: { zh: '告警中', en: 'Active' },
  cleared: { zh: '已恢复', en: 'Cleared' },
  closed: { zh: '已关闭', en: 'Closed' },
};

type Q = Db | Tx;
/** Reads of records.ts take the database; inside a transaction they must go through it. */
const asDb = (q: Q) => q as unknown as Db;

export interface PushRule {
  id: string;
  orgId: string;
  name: string;
  enabled: boolean;
  match: PushMatch;
  events: PushEvent[];
  language: Lang;
  timezone: string;
  quietFrom: string | null;
  quietTo: string | null;
  digestMinutes: number | null;
  templates: PushTemplates;
  steps: PushStep[];
}

type Escalation = typeof pushEscalations.$inferSelect;
type Delivery = typeof deliveries.$inferSelect;
interface Outcome {
  status: 'sent' | 'outbox' | 'failed';
  code: number | null;
  error: string | null;
}

export interface PushOptions {
  log: FastifyBaseLogger;
  messenger: Pick<Messenger, 'send'>;
  now?: () => number;
  /** Replaces the global fetch for webhooks (tests). */
  fetch?: typeof fetch;
  /** The node's leases (the jobs plugin's): the escalation tick runs on one node at a time. */
  lease?: Lease;
  /** An in-app delivery reached these users' inboxes (committed): their bells count again. */
  inApp?: (userIds: string[]) => void;
}

/** Whether a rule's match takes the alarm (an empty list takes any; a policy, any policy behind it). */
export function ruleMatches(match: PushMatch, a: Pick<AlarmRow, 'policyId' | 'type' | 'level'> & { sources?: AlarmRow['sources'] }): boolean {
  const policies = new Set([a.policyId, ...(a.sources ?? []).map((s) => s.policyId)]);
  return (
    (match.policyIds.length === 0 || match.policyIds.some((p) => policies.has(p))) &&
    (match.levelIds.length === 0 || match.levelIds.includes(a.level.id)) &&
    (match.types.length === 0 || match.types.includes(a.type))
  );
}

/**
 * When the quiet hours around `at` end (null: `at` is not in them). From after to runs over
 * midnight (22:00-07:00); times in the rule's zone.
 */
export function quietEnd(rule: Pick<PushRule, 'quietFrom' | 'quietTo' | 'timezone'>, at: number): number | null {
  if (!rule.quietFrom || !rule.quietTo || rule.quietFrom === rule.quietTo) return null;
  const local = dayjs(at).tz(rule.timezone);
  const hm = local.format('HH:mm');
  const overnight = rule.quietFrom > rule.quietTo;
  const quiet = overnight ? hm >= rule.quietFrom || hm < rule.quietTo : hm >= rule.quietFrom && hm < rule.quietTo;
  if (!quiet) return null;
  const day = overnight && hm >= rule.quietFrom ? local.add(1, 'day') : local;
  return dayjs.tz(`${day.format('YYYY-MM-DD')} ${rule.quietTo}`, rule.timezone).valueOf();
}

/** When the digest window holding `at` closes (windows of `minutes`, counted from the epoch). */
export function digestEnd(minutes: number, at: number): number {
  const w = minutes * 60_000;
  return Math.floor(at / w) * w + w;
}

/** Digests gather e-mail and SMS; quiet hours hold every channel but the in-app inbox. */
const DIGESTED = new Set<PushChannel>(['email', 'sms']);

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`: what a receiver recomputes to verify a call. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function alarmPush(db: Db, opts: PushOptions) {
  const now = opts.now ?? (() => Date.now());
  const post = opts.fetch ?? fetch;
  const lease = opts.lease ?? leases(db);

  // ---- cached reads: which organisations have enabled rules, the tree, the alarm type names
  interface Loaded {
    until: number;
    ruleOrgs: Set<string>;
    parents: Map<string, string | null>;
    typeNames: Map<string, I18nText>;
  }
  let cache: Loaded | null = null;
  async function load(): Promise<Loaded> {
    if (cache && cache.until > now()) return cache;
    const [rules, orgRows, names] = await Promise.all([
      db.selectDistinct({ orgId: pushRules.orgId }).from(pushRules).where(eq(pushRules.enabled, true)),
      db.execute<{ id: string; parent_id: string | null }>(sql`select id, parent_id from orgs`),
      db.select({ key: dictItems.dictKey, zh: dictItems.valZh, en: dictItems.valEn }).from(dictItems).where(eq(dictItems.dictCode, 'alarm_type')),
    ]);
    cache = {
      until: now() + RULE_CACHE_MS,
      ruleOrgs: new Set(rules.map((r) => r.orgId)),
      parents: new Map(rowsOf<{ id: string; parent_id: string | null }>(orgRows).map((o) => [o.id, o.parent_id])),
      typeNames: new Map(names.map((n) => [n.key, { zh: n.zh, en: n.en }])),
    };
    return cache;
  }
  /** The organisation and its ancestors. */
  const chain = (c: Loaded, orgId: string) => ancestorChain(c.parents, orgId);

  const toRule = (r: typeof pushRules.$inferSelect): PushRule => ({
    id: r.id,
    orgId: r.orgId,
    name: r.name,
    enabled: r.enabled,
    match: r.match as PushMatch,
    events: r.events as PushEvent[],
    language: r.language,
    timezone: r.timezone,
    quietFrom: r.quietFrom,
    quietTo: r.quietTo,
    digestMinutes: r.digestMinutes,
    templates: r.templates as PushTemplates,
    steps: r.steps as PushStep[],
  });

  function render(rule: PushRule, alarm: AlarmRow, event: PushEvent, c: Loaded): { subject: string; body: string } {
    const lang = rule.language;
    // The unit's precision (format.ts); a time in seconds reads as a duration, its unit in the words.
    const timed = alarm.unit === 's';
    const num = (v: number | null) => (v === null || !Number.isFinite(v) ? '-' : timed ? durationText(v, lang) : roundedText(v, precisionOf(alarm.unit)));
    const values = {
      level: lang === 'zh' ? alarm.level.nameZh : alarm.level.nameEn,
      type: c.typeNames.get(alarm.type)?.[lang] ?? alarm.type,
      device: alarm.device.name,
      deviceId: alarm.device.deviceId,
      asset: alarm.asset ? `${alarm.asset.code} ${alarm.asset.name}` : '-',
      value: num(alarm.value),
      threshold: num(alarm.threshold),
      unit: timed ? '' : alarm.unit,
      startedAt: dayjs(alarm.startedAt).tz(rule.timezone).format(DATETIME_FORMAT),
      policy: alarm.policyName,
      org: alarm.orgName,
      status: STATUS_NAMES[alarm.status][lang],
    };
    const prefix = event === 'cleared' ? CLEARED_PREFIX[lang] : '';
    return {
      subject: prefix + renderTemplate(rule.templates.subject || DEFAULT_TEMPLATES[lang].subject, values),
      body: prefix + renderTemplate(rule.templates.body || DEFAULT_TEMPLATES[lang].body, values),
    };
  }

  interface Target {
    channel: PushChannel;
    target: string;
    userId: string | null;
    secret: string | null;
  }

  /** Who a step reaches on each of its channels, users and role holders expanded now. */
  async function targetsOf(q: Q, rule: PushRule, step: PushStep): Promise<Target[]> {
    let people: { id: string; account: string; email: string | null; phone: string | null }[] = [];
    if (step.userIds.length || step.roleIds.length) {
      const tree = await orgTree(q, rule.orgId);
      const holders = step.roleIds.length ? q.select({ id: userRoles.userId }).from(userRoles).where(inArray(userRoles.roleId, step.roleIds)) : undefined;
      people = await q
        .select({ id: users.id, account: users.account, email: users.email, phone: users.phone })
        .from(users)
        .where(
          and(
            eq(users.status, 'active'),
            inArray(users.orgId, tree),
            or(step.userIds.length ? inArray(users.id, step.userIds) : undefined, holders ? inArray(users.id, holders) : undefined),
          ),
        )
        .orderBy(asc(users.account));
    }
    const out: Target[] = [];
    const seen = new Set<string>();
    const add = (channel: PushChannel, target: string | null, userId: string | null, secret: string | null = null) => {
      const key = `${channel}|${channel === 'email' ? target?.toLowerCase() : target}`;
      if (!target || seen.has(key)) return;
      seen.add(key);
      out.push({ channel, target, userId, secret });
    };
    for (const channel of step.channels) {
      if (channel === 'in_app') for (const p of people) add(channel, p.account, p.id);
      if (channel === 'email') {
        for (const p of people) add(channel, p.email, p.id);
        for (const e of step.emails) add(channel, e, null);
      }
      if (channel === 'sms') {
        for (const p of people) add(channel, p.phone, p.id);
        for (const ph of step.phones) add(channel, ph, null);
      }
      if (channel === 'webhook') for (const w of step.webhooks) add(channel, w.url, null, w.secret);
    }
    return out;
  }

  /** Creates the deliveries of one step (claimed by this node); answers their ids. */
  async function fire(q: Q, rule: PushRule, alarm: AlarmRow, stepIndex: number, round: number, event: PushEvent, at: number, c: Loaded): Promise<string[]> {
    const step = rule.steps[stepIndex];
    if (!step) return [];
    const targets = await targetsOf(q, rule, step);
    if (targets.length === 0) return [];
    const { subject, body } = render(rule, alarm, event, c);
    // Held in quiet hours and for the digest: due later (the tick sends them), not now.
    const quiet = quietEnd(rule, at);
    const dueOf = (t: Target) => {
      const digest = rule.digestMinutes !== null && DIGESTED.has(t.channel);
      const held = t.channel === 'in_app' ? at : Math.max(at, quiet ?? at, digest ? digestEnd(rule.digestMinutes!, at) : at);
      return { digest, held: held > at ? held : null };
    };
    const rows = await q
      .insert(deliveries)
      .values(
        targets.map((t) => ({
          orgId: rule.orgId,
          alarmId: alarm.id,
          ruleId: rule.id,
          ruleName: rule.name,
          event,
          step: stepIndex + 1,
          round,
          channel: t.channel,
          target: t.target,
          // One message per alarm, event, round, channel and recipient, whichever rules and steps name them.
          recipient: t.channel === 'email' ? t.target.toLowerCase() : t.target,
          digest: dueOf(t).digest,
          userId: t.userId,
          secret: t.secret,
          subject,
          body,
          status: 'pending' as const,
          createdAt: new Date(at),
          nextAttemptAt: new Date(dueOf(t).held ?? at + CLAIM_MS),
        })),
      )
      .onConflictDoNothing()
      .returning({ id: deliveries.id, nextAttemptAt: deliveries.nextAttemptAt });
    return rows.filter((r) => r.nextAttemptAt!.getTime() === at + CLAIM_MS).map((r) => r.id);
  }

  /** Sends the escalation's next step (or the next repeat of the last) and schedules the one after. */
  async function advance(q: Q, e: Escalation, rule: PushRule, alarm: AlarmRow, at: number, c: Loaded): Promise<string[]> {
    const n = rule.steps.length;
    const last = rule.steps[n - 1]!;
    const repeat = e.firedSteps >= n;
    const where = and(eq(pushEscalations.alarmId, e.alarmId), eq(pushEscalations.ruleId, e.ruleId));
    if (repeat && (!last.repeatMinutes || e.repeats >= MAX_STEP_REPEATS)) {
      // The rule changed meanwhile: nothing left to send.
      await q.update(pushEscalations).set({ done: true, nextAt: null }).where(where);
      return [];
    }
    const stepIndex = repeat ? n - 1 : e.firedSteps;
    const round = repeat ? e.repeats + 1 : 0;
    const ids = await fire(q, rule, alarm, stepIndex, round, 'opened', at, c);
    const firedSteps = Math.min(e.firedSteps + 1, n);
    let nextAt: number | null = null;
    if (firedSteps < n) {
      nextAt = e.startedAt.getTime() + rule.steps[firedSteps]!.afterMinutes * 60_000;
    } else if (last.repeatMinutes && round < MAX_STEP_REPEATS) {
      // From when this one was due; after a long pause, from now (no burst of repeats).
      const due = (e.nextAt?.getTime() ?? at) + last.repeatMinutes * 60_000;
      nextAt = due > at ? due : at + last.repeatMinutes * 60_000;
    }
    await q
      .update(pushEscalations)
      .set({ firedSteps, repeats: round, nextAt: nextAt === null ? null : new Date(nextAt), done: nextAt === null })
      .where(where);
    return ids;
  }

  /** New alarms: an escalation per matching rule, its first step now. */
  async function begin(q: Q, opened: AlarmRow[], at: number, c: Loaded): Promise<string[]> {
    const ids = opened.map((a) => a.id);
    // Each rule once per alarm (its escalation's key): a rule that joined a merged alarm may bring rules of its own.
    const started = new Set((await q.select({ alarmId: pushEscalations.alarmId, ruleId: pushEscalations.ruleId }).from(pushEscalations).where(anyUuid(pushEscalations.alarmId, ids))).map((r) => `${r.alarmId}|${r.ruleId}`));
    const recent = new Set(
      (await q.select({ id: alarms.id }).from(alarms).where(and(anyUuid(alarms.id, ids), gte(alarms.createdAt, new Date(at - NEW_ALARM_MS))))).map((r) => r.id),
    );
    const joinedLately = (a: AlarmRow) => a.sources.some((s) => s.clearedAt === null && Date.parse(s.openedAt) >= at - NEW_ALARM_MS);
    const fresh = opened.filter((a) => recent.has(a.id) || joinedLately(a));
    if (fresh.length === 0) return [];
    const orgIds = [...new Set(fresh.flatMap((a) => chain(c, a.orgId)))].filter((o) => c.ruleOrgs.has(o));
    if (orgIds.length === 0) return [];
    const rules = (await q.select().from(pushRules).where(and(eq(pushRules.enabled, true), inArray(pushRules.orgId, orgIds))).orderBy(asc(pushRules.createdAt))).map(toRule);
    const out: string[] = [];
    for (const alarm of fresh) {
      const orgs = chain(c, alarm.orgId);
      for (const rule of rules) {
        if (!orgs.includes(rule.orgId) || !ruleMatches(rule.match, alarm) || rule.steps.length === 0 || started.has(`${alarm.id}|${rule.id}`)) continue;
        const [e] = await q
          .insert(pushEscalations)
          .values({ alarmId: alarm.id, ruleId: rule.id, orgId: rule.orgId, startedAt: new Date(at), nextAt: new Date(at) })
          .onConflictDoNothing()
          .returning();
        if (e) out.push(...(await advance(q, e, rule, alarm, at, c)));
      }
    }
    return out;
  }

  /** Acknowledged, cleared or closed: no further steps; cleared: the notice to the steps reached. */
  async function stop(q: Q, ended: AlarmRow[], at: number, c: Loaded): Promise<string[]> {
    await q
      .update(pushEscalations)
      .set({ done: true, nextAt: null })
      .where(and(anyUuid(pushEscalations.alarmId, ended.map((a) => a.id)), eq(pushEscalations.done, false)));
    const cleared = ended.filter((a) => a.status === 'cleared');
    if (cleared.length === 0) return [];
    // At most once per alarm and rule, whichever node sees it first.
    const due = await q
      .update(pushEscalations)
      .set({ clearedSent: true })
      .where(
        and(
          anyUuid(pushEscalations.alarmId, cleared.map((a) => a.id)),
          eq(pushEscalations.clearedSent, false),
          sql`${pushEscalations.firedSteps} > 0`,
          sql`exists (select 1 from push_rules r where r.id = ${pushEscalations.ruleId} and r.enabled and r.events @> '["cleared"]'::jsonb)`,
        ),
      )
      .returning();
    if (due.length === 0) return [];
    const rules = new Map(
      (await q.select().from(pushRules).where(inArray(pushRules.id, [...new Set(due.map((e) => e.ruleId))]))).map((r) => [r.id, toRule(r)]),
    );
    const ids: string[] = [];
    for (const e of due) {
      const rule = rules.get(e.ruleId);
      const alarm = cleared.find((a) => a.id === e.alarmId);
      if (!rule || !alarm) continue;
      for (let s = 0; s < Math.min(e.firedSteps, rule.steps.length); s++) ids.push(...(await fire(q, rule, alarm, s, 0, 'cleared', at, c)));
    }
    return ids;
  }

  // ---- sending

  async function callWebhook(d: Delivery, alarm: AlarmRow, at: number): Promise<Outcome> {
    const payload: WebhookPayload = { event: d.event, alarm, rule: { id: d.ruleId, name: d.ruleName }, step: d.step, sentAt: new Date(at).toISOString() };
    const body = JSON.stringify(payload);
    const timestamp = Math.floor(at / 1000);
    try {
      const res = await post(d.target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: webhookSignature(d.secret ?? '', timestamp, body),
          [WEBHOOK_HEADERS.delivery]: d.id,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status >= 200 && res.status < 300) return { status: 'sent', code: res.status, error: null };
      return { status: 'failed', code: res.status, error: `HTTP ${res.status}` };
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const reason = timedOut ? `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      return { status: 'failed', code: null, error: reason };
    }
  }

  async function deliver(d: Delivery, alarm: AlarmRow, at: number): Promise<Outcome> {
    if (d.channel === 'in_app') return { status: 'sent', code: null, error: null };
    if (d.channel === 'webhook') return callWebhook(d, alarm, at);
    try {
      const how = await opts.messenger.send({ orgId: d.orgId, channel: d.channel, to: d.target, subject: d.subject, text: d.body });
      return { status: how, code: null, error: null };
    } catch (err) {
      return { status: 'failed', code: null, error: err instanceof Error ? err.message : String(err) };
    }
  }

  /**
   * One attempt of a delivery. A failure is retried after RETRY_BACKOFF_S until MAX_ATTEMPTS;
   * "send again" (resend) is one attempt whose result is final.
   */
  async function attempt(id: string, at: number, resend = false): Promise<void> {
    const [d] = await db.select().from(deliveries).where(eq(deliveries.id, id));
    if (!d || (!resend && d.status !== 'pending')) return;
    const [alarm] = await alarmsByIds(db, [d.alarmId]);
    if (!alarm) return;
    const started = performance.now();
    const out = await deliver(d, alarm, at);
    await record(d, out, at, Math.round(performance.now() - started), resend);
  }

  /** Keeps the result of one attempt of a delivery (a digest: the same result for each it held). */
  async function record(d: Delivery, out: Outcome, at: number, durationMs: number, resend: boolean): Promise<void> {
    const id = d.id;
    const attempts = d.attempts + 1;
    const final = out.status !== 'failed' || resend || attempts >= MAX_ATTEMPTS;
    const status = out.status === 'failed' && !final ? 'pending' : out.status;
    const next = status === 'pending' ? new Date(at + RETRY_BACKOFF_S[attempts - 1]! * 1000) : null;
    const error = out.error?.slice(0, 500) ?? null;
    await db.transaction(async (tx) => {
      await tx.insert(deliveryAttempts).values({ deliveryId: id, at: new Date(at), status: out.status, responseCode: out.code, error, durationMs, resend });
      await tx
        .update(deliveries)
        .set({
          status,
          attempts: sql`${deliveries.attempts} + 1`,
          nextAttemptAt: next,
          lastError: error,
          responseCode: out.code,
          sentAt: out.status === 'failed' ? d.sentAt : new Date(at),
        })
        .where(eq(deliveries.id, id));
      if (final) {
        await tx.insert(alarmEvents).values({
          alarmId: d.alarmId,
          at: new Date(at),
          kind: 'notified',
          actor: null,
          detail: { deliveryId: id, event: d.event, channel: d.channel, target: d.target, step: d.step, round: d.round, status, ...(d.digest ? { digest: true } : {}), ...(error ? { error } : {}) },
        });
      }
    });
    if (d.channel === 'in_app' && out.status === 'sent' && d.userId) opts.inApp?.([d.userId]);
    if (out.status === 'failed') opts.log.warn({ delivery: id, channel: d.channel, attempts, err: error }, final ? 'alarm push failed' : 'alarm push attempt failed, will retry');
  }

  /** One message for several digest deliveries of one rule, channel and recipient, listing their alarms. */
  async function attemptDigest(ids: string[], at: number): Promise<void> {
    const rows = (await db.select().from(deliveries).where(and(anyUuid(deliveries.id, ids), eq(deliveries.status, 'pending')))).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const first = rows[0];
    if (!first) return;
    if (rows.length === 1) return attempt(first.id, at);
    const [rule] = first.ruleId ? await db.select({ language: pushRules.language }).from(pushRules).where(eq(pushRules.id, first.ruleId)) : [];
    const lang: Lang = rule?.language ?? 'zh';
    const started = performance.now();
    let out: Outcome;
    try {
      const text = rows.map((r) => r.subject).join('\n');
      const how = await opts.messenger.send({ orgId: first.orgId, channel: first.channel as 'email' | 'sms', to: first.target, subject: DIGEST_SUBJECT[lang](rows.length), text });
      out = { status: how, code: null, error: null };
    } catch (err) {
      out = { status: 'failed', code: null, error: err instanceof Error ? err.message : String(err) };
    }
    const durationMs = Math.round(performance.now() - started);
    for (const d of rows) await record(d, out, at, durationMs, false);
  }

  async function sendAll(ids: string[], at: number): Promise<void> {
    // Digest deliveries due together for one rule, channel and recipient go out as one message.
    const digests = ids.length
      ? await db
          .select({ id: deliveries.id, ruleId: deliveries.ruleId, channel: deliveries.channel, target: deliveries.target })
          .from(deliveries)
          .where(and(anyUuid(deliveries.id, ids), eq(deliveries.digest, true)))
      : [];
    const groups = new Map<string, string[]>();
    for (const d of digests) {
      const key = `${d.ruleId}|${d.channel}|${d.target.toLowerCase()}`;
      (groups.get(key) ?? groups.set(key, []).get(key)!).push(d.id);
    }
    const grouped = new Set(digests.map((d) => d.id));
    const jobs: (() => Promise<void>)[] = [...groups.values()].map((g) => () => attemptDigest(g, at));
    for (const id of ids) if (!grouped.has(id)) jobs.push(() => attempt(id, at));
    const worker = async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) {
        await job().catch((err: unknown) => opts.log.error({ err }, 'alarm push attempt crashed'));
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, jobs.length) }, worker));
  }

  // ---- alarms in, one batch at a time per process

  // How many rules were behind each alarm when it was considered: a rule joining it is news.
  const seen = new Map<string, number>();
  const remember = (rows: AlarmRow[]) => {
    for (const a of rows) {
      seen.delete(a.id);
      seen.set(a.id, a.sources.length);
    }
    // Oldest first out (a Map keeps insertion order).
    for (const id of seen.keys()) {
      if (seen.size <= SEEN_MAX) break;
      seen.delete(id);
    }
  };

  async function handle(rows: AlarmRow[]) {
    const at = now();
    const ended = rows.filter((a) => a.status !== 'active' || a.acknowledgedAt);
    let opened = rows.filter((a) => a.status === 'active' && !a.acknowledgedAt && (seen.get(a.id) ?? -1) < a.sources.length);
    if (opened.length === 0 && ended.length === 0) return;
    const c = await load();
    // Only alarms of organisations under some push rule can have escalations to start or stop.
    const ruled = (a: AlarmRow) => chain(c, a.orgId).some((o) => c.ruleOrgs.has(o));
    opened = opened.filter(ruled);
    const stopped = ended.filter(ruled);
    if (opened.length === 0 && stopped.length === 0) return;
    const ids = await db.transaction(async (tx) => [...(opened.length ? await begin(tx, opened, at, c) : []), ...(stopped.length ? await stop(tx, stopped, at, c) : [])]);
    remember(opened);
    await sendAll(ids, at);
  }

  const batches = batchQueue<AlarmRow>(handle, (err, size) => opts.log.error({ err, alarms: size }, 'alarm push failed'));

  let ticking: Promise<void> | null = null;
  async function tick(at: number): Promise<void> {
    const c = await load();
    const ids = await lease('alarm push tick', async (tx) => {
      const out: string[] = [];
      const due = await tx
        .select()
        .from(pushEscalations)
        .where(and(eq(pushEscalations.done, false), lte(pushEscalations.nextAt, new Date(at))))
        .orderBy(asc(pushEscalations.nextAt))
        .limit(TICK_BATCH);
      if (due.length) {
        const alarms = new Map((await alarmsByIds(asDb(tx), [...new Set(due.map((e) => e.alarmId))])).map((a) => [a.id, a]));
        const rules = new Map((await tx.select().from(pushRules).where(inArray(pushRules.id, [...new Set(due.map((e) => e.ruleId))]))).map((r) => [r.id, toRule(r)]));
        for (const e of due) {
          const alarm = alarms.get(e.alarmId);
          const rule = rules.get(e.ruleId);
          // Checked again here: an acknowledgement on a node that missed this one's escalation still stops it.
          if (!alarm || alarm.status !== 'active' || alarm.acknowledgedAt || !rule?.enabled || rule.steps.length === 0) {
            await tx
              .update(pushEscalations)
              .set({ done: true, nextAt: null })
              .where(and(eq(pushEscalations.alarmId, e.alarmId), eq(pushEscalations.ruleId, e.ruleId)));
            continue;
          }
          out.push(...(await advance(tx, e, rule, alarm, at, c)));
        }
      }
      // Due retries, and deliveries whose sender's claim lapsed.
      const claimed = await tx
        .update(deliveries)
        .set({ nextAttemptAt: new Date(at + CLAIM_MS) })
        .where(
          inArray(
            deliveries.id,
            tx
              .select({ id: deliveries.id })
              .from(deliveries)
              .where(and(eq(deliveries.status, 'pending'), lte(deliveries.nextAttemptAt, new Date(at))))
              .orderBy(asc(deliveries.nextAttemptAt))
              .limit(TICK_BATCH),
          ),
        )
        .returning({ id: deliveries.id });
      out.push(...claimed.map((r) => r.id));
      return out;
    }, []);
    await sendAll(ids, at);
  }

  return {
    /** Alarms that opened or changed (the alarm changes, modules/context.ts); handled in order, one batch at a time. */
    onAlarms(rows: AlarmRow[]) {
      batches.push(rows);
    },
    /** Resolves when every alarm handed over so far is handled and its first deliveries attempted. */
    async settled() {
      while (batches.running || ticking) await (batches.running ?? ticking);
    },
    /** Fires the due escalation steps and attempts the due deliveries (`at`: the clock, for tests). */
    async tick(at: number = now()) {
      if (ticking) return ticking;
      ticking = tick(at).finally(() => (ticking = null));
      return ticking;
    },
    /** "Send again": one attempt now, recorded like any other, its result final. */
    async resend(id: string) {
      await attempt(id, now(), true);
    },
    /** Push rules changed: read them again before the next alarm. */
    invalidate() {
      cache = null;
    },
  };
}
export type AlarmPush = ReturnType<typeof alarmPush>;

// Message push for alarms: push rules (which alarms, which events, to whom, over which channels,
// in which language, escalating step by step until someone acknowledges), the delivery log with
// each attempt, and the template placeholders. The dispatcher is apps/server/src/modules/alarm/push.ts.
import { z } from 'zod';
import { ALARM_STATUSES, ALARM_TYPES, type AlarmRow } from './alarm.ts';
import { isTimeZone } from './validation.ts';
import { emailSchema } from './account.ts';
import type { Lang } from './i18n.ts';
import { blankAsUndefined, csvFilter, isoInstant, listQuerySchema } from './list.ts';
import { PATTERNS } from './validation.ts';

export const PUSH_CHANNELS = ['in_app', 'email', 'sms', 'webhook'] as const;
export type PushChannel = (typeof PUSH_CHANNELS)[number];

/** Alarm events that notify: `opened` always, `cleared` when the rule asks for it. */
export const PUSH_EVENTS = ['opened', 'cleared'] as const;
export type PushEvent = (typeof PUSH_EVENTS)[number];

/**
 * pending: waiting for its (next) attempt; sent: handed over (SMTP accepted, gateway or webhook
 * answered 2xx, in-app stored); outbox: no transport configured, kept in the outbox table and the
 * log; failed: the last attempt failed and no more follow.
 */
export const DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'outbox'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const MAX_PUSH_STEPS = 5;
/** How often the last step may repeat (after its first sending) while nobody acknowledges. */
export const MAX_STEP_REPEATS = 10;
/** Waits before the 2nd, 3rd, 4th and 5th attempt of a failed delivery; after the 5th it is failed. */
export const RETRY_BACKOFF_S = [30, 120, 600, 1800] as const;
export const MAX_ATTEMPTS = RETRY_BACKOFF_S.length + 1;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Headers of a webhook call (see the README for verifying the signature). */
export const WEBHOOK_HEADERS = { timestamp: 'x-iotc-timestamp', signature: 'x-iotc-signature', delivery: 'x-iotc-delivery' } as const;
/**
 * Webhook secrets are never read back: rows show this instead. Sending it back unchanged in an
 * update keeps the secret stored for the same address.
 */
export const MASKED_SECRET = '****************';

/** Template placeholders, written `{name}`. */
export const PUSH_PLACEHOLDERS = ['level', 'type', 'device', 'deviceId', 'asset', 'value', 'threshold', 'unit', 'startedAt', 'policy', 'org', 'status'] as const;
export type PushPlaceholder = (typeof PUSH_PLACEHOLDERS)[number];

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** The placeholders of a template that are not in PUSH_PLACEHOLDERS. */
export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !(PUSH_PLACEHOLDERS as readonly string[]).includes(name));
}

/** Fills `{name}` placeholders; anything else in braces stays as written. */
export function renderTemplate(template: string, values: Record<PushPlaceholder, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as PushPlaceholder] : whole));
}

/** What a rule sends when its templates are left empty. */
export const DEFAULT_TEMPLATES: Record<Lang, { subject: string; body: string }> = {
  zh: {
    subject: '【{level}】{type}：{device}',
    body: '{org} 的设备 {device}（{deviceId}）于 {startedAt} 触发{level}告警「{type}」，当前值 {value}{unit}，阈值 {threshold}{unit}。资产：{asset}。策略：{policy}。状态：{status}。',
  },
  en: {
    subject: '[{level}] {type}: {device}',
    body: 'Device {device} ({deviceId}) of {org} raised a {level} alarm "{type}" at {startedAt}: value {value} {unit}, threshold {threshold} {unit}. Asset: {asset}. Policy: {policy}. Status: {status}.',
  },
};
/** Put before the subject of a cleared notice. */
export const CLEARED_PREFIX: Record<Lang, string> = { zh: '【已恢复】', en: 'Cleared: ' };

const isHttpUrl = (v: string) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol);

export const webhookSchema = z.object({
  url: z.string().trim().max(2000).refine(isHttpUrl, { message: 'WEBHOOK_URL_FORMAT' }),
  /** HMAC-SHA256 key; MASKED_SECRET in an update keeps the stored one. */
  secret: z.string().min(16, { message: 'WEBHOOK_SECRET_FORMAT' }).max(128, { message: 'WEBHOOK_SECRET_FORMAT' }),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const pushStepSchema = z.object({
  /** Minutes after the push began (the alarm opened) that this step is sent: 0 for the first. */
  afterMinutes: z.number().int().min(0).max(7 * 1440),
  channels: z
    .array(z.enum(PUSH_CHANNELS))
    .min(1, { message: 'PUSH_CHANNELS_REQUIRED' })
    .max(PUSH_CHANNELS.length)
    .transform((c) => [...new Set(c)]),
  /** Users (in-app, and e-mail / SMS to their address and phone); of the rule's organisation tree. */
  userIds: z.array(z.uuid()).max(200).default([]),
  /** Every active user holding one of these roles when the step is sent. */
  roleIds: z.array(z.uuid()).max(50).default([]),
  emails: z.array(emailSchema).max(50).default([]),
  phones: z.array(z.string().trim().regex(PATTERNS.mobileCN, { message: 'MOBILE_FORMAT' })).max(50).default([]),
  webhooks: z.array(webhookSchema).max(10).default([]),
  /** Last step only: send it again every so many minutes until acknowledged (at most MAX_STEP_REPEATS times). */
  repeatMinutes: z.number().int().min(1).max(1440).nullable().default(null),
});
export type PushStep = z.infer<typeof pushStepSchema>;
export type PushStepInput = z.input<typeof pushStepSchema>;

export const pushMatchSchema = z.object({
  /** Empty: any. */
  policyIds: z.array(z.uuid()).max(200).default([]),
  levelIds: z.array(z.uuid()).max(50).default([]),
  types: z.array(z.enum(ALARM_TYPES)).max(ALARM_TYPES.length).default([]),
});
export type PushMatch = z.infer<typeof pushMatchSchema>;

export const pushTemplatesSchema = z.object({
  subject: z.string().trim().max(200).default(''),
  body: z.string().trim().max(2000).default(''),
});
export type PushTemplates = z.infer<typeof pushTemplatesSchema>;

/** A time of day, 00:00 to 23:59. */
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const blankAsNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : v);
/** The bounds of a push rule's digest interval, in minutes. */
export const MIN_DIGEST_MINUTES = 5;
export const MAX_DIGEST_MINUTES = 1440;

/** The subject of a digest message listing `n` alarms. */
export const DIGEST_SUBJECT: Record<Lang, (n: number) => string> = {
  zh: (n) => `告警汇总：${n} 条告警`,
  en: (n) => `Alarm digest: ${n} alarms`,
};

function checkSteps(steps: PushStep[], ctx: z.RefinementCtx) {
  steps.forEach((s, i) => {
    if (i === 0 && s.afterMinutes !== 0) ctx.addIssue({ code: 'custom', path: ['steps', i, 'afterMinutes'], message: 'PUSH_STEP_FIRST_DELAY' });
    if (i > 0 && s.afterMinutes <= steps[i - 1]!.afterMinutes) ctx.addIssue({ code: 'custom', path: ['steps', i, 'afterMinutes'], message: 'PUSH_STEP_ORDER' });
    if (s.repeatMinutes !== null && i !== steps.length - 1) ctx.addIssue({ code: 'custom', path: ['steps', i, 'repeatMinutes'], message: 'PUSH_REPEAT_LAST_ONLY' });
    const people = s.userIds.length + s.roleIds.length > 0;
    const reach: Record<PushChannel, boolean> = {
      in_app: people,
      email: people || s.emails.length > 0,
      sms: people || s.phones.length > 0,
      webhook: s.webhooks.length > 0,
    };
    for (const c of s.channels) if (!reach[c]) ctx.addIssue({ code: 'custom', path: ['steps', i, 'channels'], message: 'PUSH_RECIPIENTS_REQUIRED' });
  });
}

export const pushRuleBodySchema = z
  .object({
    name: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(100),
    orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
    enabled: z.boolean().default(true),
    match: pushMatchSchema.default({ policyIds: [], levelIds: [], types: [] }),
    /** `opened` is always on; add `cleared` for a notice when the alarm clears. */
    events: z
      .array(z.enum(PUSH_EVENTS))
      .max(PUSH_EVENTS.length)
      .default(['opened'])
      .transform((e): PushEvent[] => (e.includes('cleared') ? ['opened', 'cleared'] : ['opened'])),
    language: z.enum(['zh', 'en']).default('zh'),
    /** Times in messages are shown in this IANA zone. */
    timezone: z.string().trim().refine(isTimeZone, { message: 'TIMEZONE_UNKNOWN' }).default('Asia/Shanghai'),
    /** Empty: the defaults of the language (DEFAULT_TEMPLATES). */
    templates: pushTemplatesSchema
      .refine((t) => unknownPlaceholders(`${t.subject}\n${t.body}`).length === 0, { message: 'PUSH_TEMPLATE_PLACEHOLDER' })
      .default({ subject: '', body: '' }),
    steps: z.array(pushStepSchema).min(1, { message: 'PUSH_STEPS_REQUIRED' }).max(MAX_PUSH_STEPS, { message: 'PUSH_STEPS_TOO_MANY' }),
    /** Quiet hours, HH:mm in `timezone` (both or neither; from after to runs over midnight): e-mail, SMS and webhooks wait until they end. */
    quietFrom: z.preprocess(blankAsNull, z.string().regex(HH_MM, { message: 'PUSH_QUIET_TIME' }).nullable()).default(null),
    quietTo: z.preprocess(blankAsNull, z.string().regex(HH_MM, { message: 'PUSH_QUIET_TIME' }).nullable()).default(null),
    /** Digest: e-mail and SMS at most once per this many minutes per recipient and channel, listing the alarms; null: each at once. */
    digestMinutes: z.number().int().min(MIN_DIGEST_MINUTES, { message: 'PUSH_DIGEST_RANGE' }).max(MAX_DIGEST_MINUTES, { message: 'PUSH_DIGEST_RANGE' }).nullable().default(null),
  })
  .superRefine((r, ctx) => {
    checkSteps(r.steps, ctx);
    if ((r.quietFrom === null) !== (r.quietTo === null)) ctx.addIssue({ code: 'custom', path: [r.quietFrom === null ? 'quietFrom' : 'quietTo'], message: 'PUSH_QUIET_BOTH' });
    else if (r.quietFrom !== null && r.quietFrom === r.quietTo) ctx.addIssue({ code: 'custom', path: ['quietTo'], message: 'PUSH_QUIET_EMPTY' });
  });
export type PushRuleBody = z.infer<typeof pushRuleBodySchema>;
export type PushRuleInput = z.input<typeof pushRuleBodySchema>;

export const pushRuleRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  match: z.custom<PushMatch>(),
  events: z.array(z.enum(PUSH_EVENTS)),
  language: z.enum(['zh', 'en']),
  timezone: z.string(),
  quietFrom: z.string().nullable(),
  quietTo: z.string().nullable(),
  digestMinutes: z.number().int().nullable(),
  templates: z.custom<PushTemplates>(),
  /** Webhook secrets read as MASKED_SECRET. */
  steps: z.array(z.custom<PushStep>()),
  /** Deliveries the rule made, and how many of them failed. */
  deliveries: z.number().int(),
  failed: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PushRuleRow = z.infer<typeof pushRuleRowSchema>;

export const pushRuleQuerySchema = listQuerySchema.extend({
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  enabled: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type PushRuleQuery = z.infer<typeof pushRuleQuerySchema>;

// ---- deliveries

export const deliveryRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  alarmId: z.string(),
  /** Null once the rule is deleted (its name stays). */
  ruleId: z.string().nullable(),
  ruleName: z.string(),
  event: z.enum(PUSH_EVENTS),
  /** The escalation step, from 1; `round` counts the repeats of the last step (0: its first sending). */
  step: z.number().int(),
  round: z.number().int(),
  channel: z.enum(PUSH_CHANNELS),
  /** E-mail address, phone number, webhook address, or the user's account (in-app). */
  target: z.string(),
  /** The recipient user, when the target came from a user or role. */
  user: z.object({ id: z.string(), account: z.string(), name: z.string() }).nullable(),
  subject: z.string(),
  body: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  responseCode: z.number().int().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  alarm: z.object({
    type: z.enum(ALARM_TYPES),
    status: z.enum(ALARM_STATUSES),
    level: z.object({ id: z.string(), code: z.string(), nameZh: z.string(), nameEn: z.string(), color: z.string() }),
    device: z.object({ id: z.string(), deviceId: z.string(), name: z.string() }),
  }),
});
export type DeliveryRow = z.infer<typeof deliveryRowSchema>;

export const deliveryAttemptSchema = z.object({
  at: z.string(),
  status: z.enum(['sent', 'failed', 'outbox']),
  responseCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  /** Made by "send again". */
  resend: z.boolean(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

/** One delivery with every attempt, oldest first. */
export const deliveryDetailSchema = deliveryRowSchema.extend({ attemptLog: z.array(deliveryAttemptSchema) });
export type DeliveryDetail = z.infer<typeof deliveryDetailSchema>;

export const deliveryQuerySchema = listQuerySchema.extend({
  status: csvFilter(z.enum(DELIVERY_STATUSES), 10),
  channel: csvFilter(z.enum(PUSH_CHANNELS), 10),
  alarmId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  ruleId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** Created at or after / before. */
  from: z.preprocess(blankAsUndefined, isoInstant.optional()),
  to: z.preprocess(blankAsUndefined, isoInstant.optional()),
  /** true: only what was addressed to the caller (their in-app messages); needs no alarm:read. */
  mine: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type DeliveryQuery = z.infer<typeof deliveryQuerySchema>;

/** The JSON body of a webhook call. */
export interface WebhookPayload {
  event: PushEvent;
  alarm: AlarmRow;
  rule: { id: string | null; name: string };
  step: number;
  sentAt: string;
}

export const PUSH_API = {
  rules: '/api/iot/v2/push-rules',
  deliveries: '/api/iot/v2/deliveries',
} as const;

// The push rule form's values and how they become the body of the shared contract (and back).
// The form mirrors the body, except where the screen shows a value another way: the events as
// one "also when cleared" switch, the repeat of the last step as a rule-wide setting (it belongs
// to whichever step is last), and stored webhook secrets as a blank field that keeps them. Every
// problem the shared schema finds lands beside the field it is about.
import type { z } from 'zod';
import {
  MASKED_SECRET,
  PUSH_CHANNELS,
  pushRuleBodySchema,
  unknownPlaceholders,
  type PushChannel,
  type PushRuleBody,
  type PushRuleRow,
} from '@iotc/shared/alarm-push';
import type { AlarmType } from '@iotc/shared/alarm';
import { isErrorCode, type ErrorCode } from '@iotc/shared/errors';
import type { Lang } from '@iotc/shared/i18n';

export interface WebhookValues {
  url?: string;
  /** Blank for a stored address: the stored secret is kept. */
  secret?: string;
}

export interface StepValues {
  afterMinutes?: number | null;
  channels: PushChannel[];
  userIds: string[];
  roleIds: string[];
  emails: string[];
  phones: string[];
  webhooks: WebhookValues[];
}

export interface PushFormValues {
  name: string;
  orgId?: string;
  enabled: boolean;
  policyIds: string[];
  levelIds: string[];
  types: AlarmType[];
  /** Also notify when the alarm clears (opening always notifies). */
  cleared: boolean;
  language: Lang;
  timezone: string;
  /** Quiet hours, HH:mm in `timezone` (both blank: none). */
  quietFrom?: string;
  quietTo?: string;
  /** Minutes between digest messages (blank: each message at once). */
  digestMinutes?: number | null;
  subject: string;
  body: string;
  steps: StepValues[];
  /** The last step is sent again every `repeatMinutes` until someone acknowledges. */
  repeatOn: boolean;
  repeatMinutes?: number | null;
}

export const DEFAULT_TIMEZONE = 'Asia/Shanghai';
/** A new later step comes this many minutes after the one before it. */
export const STEP_GAP_MINUTES = 30;
export const DEFAULT_REPEAT_MINUTES = 30;

/** A new step: at once when it is the first, else some time after the last one. */
export function newStep(previous?: Pick<StepValues, 'afterMinutes'>): StepValues {
  const after = previous ? (typeof previous.afterMinutes === 'number' ? previous.afterMinutes : 0) + STEP_GAP_MINUTES : 0;
  return { afterMinutes: after, channels: ['in_app'], userIds: [], roleIds: [], emails: [], phones: [], webhooks: [] };
}

export function emptyRule(orgId: string | undefined, language: Lang): PushFormValues {
  return {
    name: '',
    orgId,
    enabled: true,
    policyIds: [],
    levelIds: [],
    types: [],
    cleared: false,
    language,
    timezone: DEFAULT_TIMEZONE,
    quietFrom: '',
    quietTo: '',
    digestMinutes: null,
    subject: '',
    body: '',
    steps: [newStep()],
    repeatOn: false,
    repeatMinutes: DEFAULT_REPEAT_MINUTES,
  };
}

export function ruleToForm(r: PushRuleRow): PushFormValues {
  const last = r.steps[r.steps.length - 1];
  return {
    name: r.name,
    orgId: r.orgId,
    enabled: r.enabled,
    policyIds: [...r.match.policyIds],
    levelIds: [...r.match.levelIds],
    types: [...r.match.types],
    cleared: r.events.includes('cleared'),
    language: r.language,
    timezone: r.timezone,
    quietFrom: r.quietFrom ?? '',
    quietTo: r.quietTo ?? '',
    digestMinutes: r.digestMinutes,
    subject: r.templates.subject,
    body: r.templates.body,
    steps: r.steps.map((s) => ({
      afterMinutes: s.afterMinutes,
      channels: [...s.channels],
      userIds: [...s.userIds],
      roleIds: [...s.roleIds],
      emails: [...s.emails],
      phones: [...s.phones],
      // The mask is never shown: a blank secret keeps the stored one.
      webhooks: s.webhooks.map((w) => ({ url: w.url, secret: w.secret === MASKED_SECRET ? '' : w.secret })),
    })),
    repeatOn: !!last?.repeatMinutes,
    repeatMinutes: last?.repeatMinutes ?? DEFAULT_REPEAT_MINUTES,
  };
}

/** The webhook addresses a stored rule has a secret for (in any of its steps). */
export function storedWebhookUrls(r: PushRuleRow | undefined): Set<string> {
  return new Set((r?.steps ?? []).flatMap((s) => s.webhooks.map((w) => w.url)));
}

// ---- to the body

/** A form name path: ['steps', 0, 'channels']. */
export type FieldName = (string | number)[];

/** What a problem says: a shared error code (with the entry it is about), or a text of this screen. */
export type IssueText =
  | { code: ErrorCode; item?: string }
  | {
      key: 'alarmPush.form.required' | 'alarmPush.form.integer' | 'alarmPush.form.tooSmall' | 'alarmPush.form.tooBig' | 'alarmPush.form.tooLong' | 'alarmPush.form.tooMany';
      params?: Record<string, string | number>;
    };

export interface FormIssue {
  /** The field it is about; null: the steps as a whole. */
  name: FieldName | null;
  text: IssueText;
}

const numberOrNull = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const texts = (list: readonly (string | undefined)[] | undefined) => (list ?? []).map((v) => (v ?? '').trim()).filter((v) => v !== '');

/** The body as the schema takes it (not yet checked). */
export function bodyInput(values: PushFormValues, creating: boolean, storedUrls: ReadonlySet<string>) {
  const steps = values.steps ?? [];
  return {
    name: values.name ?? '',
    orgId: creating ? values.orgId : undefined,
    enabled: values.enabled !== false,
    match: { policyIds: [...(values.policyIds ?? [])], levelIds: [...(values.levelIds ?? [])], types: [...(values.types ?? [])] },
    events: values.cleared ? ['opened', 'cleared'] : ['opened'],
    language: values.language,
    timezone: values.timezone ?? '',
    quietFrom: (values.quietFrom ?? '').trim() || null,
    quietTo: (values.quietTo ?? '').trim() || null,
    digestMinutes: numberOrNull(values.digestMinutes),
    templates: { subject: values.subject ?? '', body: values.body ?? '' },
    steps: steps.map((s, i) => ({
      afterMinutes: numberOrNull(s.afterMinutes),
      // In the order the screen lists them, whatever order they were ticked in.
      channels: PUSH_CHANNELS.filter((c) => (s.channels ?? []).includes(c)),
      userIds: [...(s.userIds ?? [])],
      roleIds: [...(s.roleIds ?? [])],
      emails: texts(s.emails),
      phones: texts(s.phones),
      webhooks: (s.webhooks ?? []).map((w) => {
        const url = (w.url ?? '').trim();
        const secret = w.secret ?? '';
        return { url, secret: secret === '' && storedUrls.has(url) ? MASKED_SECRET : secret };
      }),
      repeatMinutes: i === steps.length - 1 && values.repeatOn ? numberOrNull(values.repeatMinutes) : null,
    })),
  };
}

/** Where a problem of the body shows in the form. */
export function formNameOf(path: readonly PropertyKey[], values: Pick<PushFormValues, 'subject' | 'body'>): FieldName | null {
  const p = path.filter((k): k is string | number => typeof k !== 'symbol');
  switch (p[0]) {
    case 'match':
      return p[1] === undefined ? ['types'] : [p[1]];
    case 'events':
      return ['cleared'];
    case 'templates':
      if (p[1] === 'subject' || p[1] === 'body') return [p[1]];
      // The placeholder check covers both: the field holding the unknown name shows it.
      return unknownPlaceholders(values.subject ?? '').length ? ['subject'] : ['body'];
    case 'steps': {
      if (p.length < 3) return null;
      const [, i, field, j, sub] = p;
      if (field === 'repeatMinutes') return ['repeatMinutes'];
      if (field === 'webhooks') return sub === 'url' || sub === 'secret' ? ['steps', i!, 'webhooks', j!, sub] : null;
      return ['steps', i!, field!];
    }
    default:
      return p.length ? p : null;
  }
}

/** The entry of a list field a problem is about ('bad@': the e-mail that is wrong). */
function itemOf(path: readonly PropertyKey[], input: ReturnType<typeof bodyInput>): string | undefined {
  const [first, i, field, j] = path;
  if (first !== 'steps' || typeof i !== 'number' || typeof j !== 'number') return undefined;
  if (field !== 'emails' && field !== 'phones') return undefined;
  return input.steps[i]?.[field][j];
}

/** What a problem of the schema says, in this screen's words when it carries no error code. */
export function issueText(issue: z.core.$ZodIssue, item?: string): IssueText {
  if (isErrorCode(issue.message)) return item ? { code: issue.message, item } : { code: issue.message };
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return { key: 'alarmPush.form.required' };
      if (issue.origin === 'array') return { code: 'VALIDATION' };
      return { key: 'alarmPush.form.tooSmall', params: { min: Number(issue.minimum) } };
    case 'too_big':
      if (issue.origin === 'string') return { key: 'alarmPush.form.tooLong', params: { max: Number(issue.maximum) } };
      if (issue.origin === 'array') return { key: 'alarmPush.form.tooMany', params: { max: Number(issue.maximum) } };
      return { key: 'alarmPush.form.tooBig', params: { max: Number(issue.maximum) } };
    case 'invalid_type':
      return issue.expected === 'int' ? { key: 'alarmPush.form.integer' } : { key: 'alarmPush.form.required' };
    default:
      return { code: 'VALIDATION' };
  }
}

export type BuildResult = { ok: true; body: PushRuleBody } | { ok: false; issues: FormIssue[] };

/**
 * The body of the rule the form holds, checked by the schema the server parses it with; else its
 * problems, the first one per field. `creating`: the organisation is sent (a change keeps the
 * rule where it is). `storedUrls`: the webhook addresses whose secret a blank field keeps.
 */
export function buildPushBody(values: PushFormValues, creating: boolean, storedUrls: ReadonlySet<string> = new Set()): BuildResult {
  const input = bodyInput(values, creating, storedUrls);
  const parsed = pushRuleBodySchema.safeParse(input);
  if (parsed.success) return { ok: true, body: parsed.data };
  const seen = new Set<string>();
  const issues: FormIssue[] = [];
  for (const issue of parsed.error.issues) {
    const name = formNameOf(issue.path, values);
    const key = JSON.stringify(name);
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ name, text: issueText(issue, itemOf(issue.path, input)) });
  }
  return { ok: false, issues };
}

// ---- list summaries

/** Every channel a rule uses, in the order the screen lists them. */
export function ruleChannels(steps: readonly { channels: readonly PushChannel[] }[]): PushChannel[] {
  const used = new Set(steps.flatMap((s) => s.channels));
  return PUSH_CHANNELS.filter((c) => used.has(c));
}

/** A fresh webhook secret: 32 random hexadecimal characters (the schema takes 16-128). */
export function randomSecret(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// The message a rule would send for a sample alarm, rendered as the dispatcher renders it
// (apps/server/src/modules/alarm/push.ts): the rule's language, its time zone, the default
// template of the language where the rule's own is blank, and the cleared prefix.
import { ALARM_TYPE_INFO, type AlarmType } from '@iotc/shared/alarm';
import { CLEARED_PREFIX, DEFAULT_TEMPLATES, renderTemplate, type PushEvent, type PushPlaceholder } from '@iotc/shared/alarm-push';
import type { Lang } from '@iotc/shared/i18n';

/** What the sample alarm is made of; names already in the rule's language. */
export interface SampleAlarm {
  levelName: string;
  type: AlarmType;
  typeName: string;
  statusName: string;
  policyName: string;
  orgName: string;
  startedAt: Date;
}

const SAMPLE: Record<Lang, { device: string; deviceId: string; asset: string; policy: string }> = {
  zh: { device: '冷藏车 07', deviceId: 'TRK-0007', asset: 'C-1024 冷藏集装箱', policy: '冷链温度' },
  en: { device: 'Reefer 07', deviceId: 'TRK-0007', asset: 'C-1024 Reefer container', policy: 'Cold chain temperature' },
};

export function samplePolicyName(lang: Lang): string {
  return SAMPLE[lang].policy;
}

/** 'YYYY-MM-DD HH:mm:ss' of `at` in the IANA zone (the browser's own when the zone is unknown). */
export function formatInZone(at: Date, timeZone: string): string {
  const opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { ...opts, timeZone }).formatToParts(at);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', opts).formatToParts(at);
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

const round = (v: number) => String(Math.round(v * 100) / 100);

/** The placeholder values of the sample alarm: a reading past the type's default threshold. */
export function sampleValues(lang: Lang, timeZone: string, a: SampleAlarm): Record<PushPlaceholder, string> {
  const info = ALARM_TYPE_INFO[a.type];
  const s = SAMPLE[lang];
  const step = Math.max(1, Math.abs(info.threshold) * 0.2);
  let value = '-';
  let threshold = '-';
  if (info.kind !== 'door') {
    threshold = round(info.threshold);
    value = round(info.kind === 'below' ? info.threshold - step : info.threshold + step);
  }
  return {
    level: a.levelName,
    type: a.typeName,
    device: s.device,
    deviceId: s.deviceId,
    asset: s.asset,
    value,
    threshold,
    unit: info.unit,
    startedAt: formatInZone(a.startedAt, timeZone),
    policy: a.policyName,
    org: a.orgName,
    status: a.statusName,
  };
}

export function renderPreview(
  templates: { subject: string; body: string },
  lang: Lang,
  event: PushEvent,
  values: Record<PushPlaceholder, string>,
): { subject: string; body: string } {
  const prefix = event === 'cleared' ? CLEARED_PREFIX[lang] : '';
  return {
    subject: prefix + renderTemplate(templates.subject.trim() || DEFAULT_TEMPLATES[lang].subject, values),
    body: prefix + renderTemplate(templates.body.trim() || DEFAULT_TEMPLATES[lang].body, values),
  };
}

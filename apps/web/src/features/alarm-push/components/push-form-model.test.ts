import { describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES, MASKED_SECRET, PUSH_PLACEHOLDERS, type PushPlaceholder } from '@iotc/shared/alarm-push';
import { ruleRow } from '../test-fixtures.ts';
import { buildPushBody, emptyRule, newStep, ruleChannels, ruleToForm, storedWebhookUrls, type PushFormValues } from './push-form-model.ts';
import { formatInZone, renderPreview, sampleValues } from './template-preview.ts';

const HOOK = 'https://hooks.example.com/alarms';

function failures(values: PushFormValues, creating = false, stored = new Set<string>()) {
  const built = buildPushBody(values, creating, stored);
  if (built.ok) throw new Error('expected problems');
  return built.issues.map((i) => [i.name, 'code' in i.text ? i.text.code : i.text.key]);
}

describe('push rule form model', () => {
  it('gives back the stored rule unchanged, the masked webhook secret kept', () => {
    const row = ruleRow();
    const form = ruleToForm(row);
    // The mask never shows in the field.
    expect(form.steps[1]!.webhooks).toEqual([{ url: HOOK, secret: '' }]);
    expect(form).toMatchObject({ cleared: true, repeatOn: true, repeatMinutes: 30, subject: '[{level}] {device}' });
    const built = buildPushBody(form, false, storedWebhookUrls(row));
    expect(built.ok && built.body).toEqual({
      name: row.name,
      enabled: true,
      match: row.match,
      events: ['opened', 'cleared'],
      language: 'en',
      timezone: 'Asia/Shanghai',
      quietFrom: null,
      quietTo: null,
      digestMinutes: null,
      templates: row.templates,
      steps: row.steps,
    });
  });

  it('sends quiet hours and the digest, and puts their problems beside their fields', () => {
    const row = ruleRow({ quietFrom: '22:00', quietTo: '07:00', digestMinutes: 30 });
    const built = buildPushBody(ruleToForm(row), false, storedWebhookUrls(row));
    expect(built.ok && built.body).toMatchObject({ quietFrom: '22:00', quietTo: '07:00', digestMinutes: 30 });
    const bad = buildPushBody({ ...ruleToForm(row), quietFrom: '25:00', quietTo: '', digestMinutes: 1 }, false, storedWebhookUrls(row));
    expect(bad.ok).toBe(false);
    const names = bad.ok ? [] : bad.issues.map((i) => i.name?.join('.'));
    expect(names).toEqual(expect.arrayContaining(['quietFrom', 'digestMinutes']));
  });

  it('puts each problem beside its field: first delay, recipients, repeat, webhook secret, template', () => {
    const form = emptyRule(undefined, 'zh');
    form.name = 'Night';
    form.steps = [
      { ...newStep(), afterMinutes: 5, channels: ['in_app', 'sms'], emails: ['ops@example.com'] },
      { ...newStep({ afterMinutes: 5 }), afterMinutes: 3, channels: ['webhook'], webhooks: [{ url: `${HOOK}/new`, secret: '' }] },
    ];
    form.repeatOn = true;
    form.repeatMinutes = 0;
    form.body = 'Device {device} {nope}';
    expect(failures(form, true, new Set([HOOK]))).toEqual([
      [['body'], 'PUSH_TEMPLATE_PLACEHOLDER'],
      [['steps', 1, 'webhooks', 0, 'secret'], 'WEBHOOK_SECRET_FORMAT'],
      [['repeatMinutes'], 'alarmPush.form.tooSmall'],
      [['steps', 0, 'afterMinutes'], 'PUSH_STEP_FIRST_DELAY'],
      [['steps', 0, 'channels'], 'PUSH_RECIPIENTS_REQUIRED'],
      [['steps', 1, 'afterMinutes'], 'PUSH_STEP_ORDER'],
    ]);
  });

  it('names the wrong entry of a list and asks for at least one step', () => {
    const form = emptyRule(undefined, 'en');
    form.name = 'x';
    form.steps = [{ ...newStep(), channels: ['email', 'sms'], emails: ['ops@example.com', 'not-an-address'], phones: ['13800000000'] }];
    const built = buildPushBody(form, true);
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.issues).toEqual([{ name: ['steps', 0, 'emails'], text: { code: 'EMAIL_FORMAT', item: 'not-an-address' } }]);
    form.steps = [];
    expect(failures(form, true)).toEqual([[null, 'PUSH_STEPS_REQUIRED']]);
  });

  it('sends the organisation only for a new rule, and channels in the screen’s order', () => {
    const form = emptyRule('11111111-1111-4111-8111-111111111111', 'zh');
    form.name = 'n';
    form.steps = [{ ...newStep(), channels: ['webhook', 'in_app'], roleIds: ['dddddddd-0000-4000-8000-000000000001'], webhooks: [{ url: HOOK, secret: 's'.repeat(16) }] }];
    const created = buildPushBody(form, true);
    expect(created.ok && created.body.orgId).toBe('11111111-1111-4111-8111-111111111111');
    expect(created.ok && created.body.steps[0]!.channels).toEqual(['in_app', 'webhook']);
    const changed = buildPushBody(form, false);
    expect(changed.ok && changed.body.orgId).toBeUndefined();
    // A secret typed for a stored address replaces the stored one.
    const replaced = buildPushBody(form, false, new Set([HOOK]));
    expect(replaced.ok && replaced.body.steps[0]!.webhooks[0]!.secret).toBe('s'.repeat(16));
    expect(MASKED_SECRET).not.toBe('s'.repeat(16));
  });

  it('lists a rule’s channels once each', () => {
    expect(ruleChannels(ruleRow().steps)).toEqual(['in_app', 'email', 'sms', 'webhook']);
  });
});

describe('template preview', () => {
  const values = Object.fromEntries(PUSH_PLACEHOLDERS.map((p) => [p, `<${p}>`])) as Record<PushPlaceholder, string>;

  it('renders the default template of the language when the rule’s is blank, prefixed when cleared', () => {
    expect(renderPreview({ subject: '', body: '' }, 'zh', 'opened', values).subject).toBe('【<level>】<type>：<device>');
    expect(renderPreview({ subject: ' ', body: '' }, 'en', 'cleared', values)).toEqual({
      subject: 'Cleared: [<level>] <type>: <device>',
      body: `Cleared: ${DEFAULT_TEMPLATES.en.body.replace(/\{(\w+)\}/g, '<$1>')}`,
    });
    expect(renderPreview({ subject: '{device} {nope}', body: 'x' }, 'en', 'opened', values).subject).toBe('<device> {nope}');
  });

  it('shows the sample alarm’s start in the rule’s time zone', () => {
    const at = new Date('2026-03-01T16:30:05Z');
    expect(formatInZone(at, 'Asia/Shanghai')).toBe('2026-03-02 00:30:05');
    expect(formatInZone(at, 'Europe/London')).toBe('2026-03-01 16:30:05');
    const v = sampleValues('en', 'UTC', { levelName: 'Urgent', type: 'temp_low', typeName: 'Temperature low', statusName: 'Active', policyName: 'P', orgName: 'O', startedAt: at });
    expect(v).toMatchObject({ level: 'Urgent', type: 'Temperature low', value: '1', threshold: '2', unit: '°C', startedAt: '2026-03-01 16:30:05' });
  });
});

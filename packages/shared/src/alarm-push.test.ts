// Push rule shapes: defaults (opened always notifies, Chinese, Shanghai time), step checks with
// the error codes the forms show, and template placeholders as both sides render them.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES, PUSH_PLACEHOLDERS, pushRuleBodySchema, renderTemplate, unknownPlaceholders, type PushPlaceholder } from './alarm-push.ts';

const USER = '8f14e45f-ceea-4e7a-9c1b-0a1b2c3d4e5f';
const firstIssue = (input: unknown) => {
  const r = pushRuleBodySchema.safeParse(input);
  return r.success ? null : r.error.issues[0]!.message;
};

describe('push rule body', () => {
  it('fills the defaults and always notifies on opening', () => {
    const rule = pushRuleBodySchema.parse({ name: 'n', events: ['cleared'], steps: [{ afterMinutes: 0, channels: ['in_app', 'in_app'], userIds: [USER] }] });
    expect(rule).toMatchObject({ enabled: true, language: 'zh', timezone: 'Asia/Shanghai', events: ['opened', 'cleared'], templates: { subject: '', body: '' } });
    expect(rule.match).toEqual({ policyIds: [], levelIds: [], types: [] });
    expect(rule.steps[0]).toMatchObject({ channels: ['in_app'], roleIds: [], emails: [], phones: [], webhooks: [], repeatMinutes: null });
  });

  it('checks the steps: first at once, later ones later, only the last repeats, each channel reaches someone', () => {
    const s = (over: Record<string, unknown>) => ({ afterMinutes: 0, channels: ['email'], emails: ['a@example.com'], ...over });
    expect(firstIssue({ name: 'n', steps: [s({ afterMinutes: 1 })] })).toBe('PUSH_STEP_FIRST_DELAY');
    expect(firstIssue({ name: 'n', steps: [s({}), s({ afterMinutes: 0 })] })).toBe('PUSH_STEP_ORDER');
    expect(firstIssue({ name: 'n', steps: [s({ repeatMinutes: 3 }), s({ afterMinutes: 3 })] })).toBe('PUSH_REPEAT_LAST_ONLY');
    expect(firstIssue({ name: 'n', steps: [s({}), s({ afterMinutes: 3, repeatMinutes: 3 })] })).toBeNull();
    expect(firstIssue({ name: 'n', steps: [s({ channels: ['webhook'] })] })).toBe('PUSH_RECIPIENTS_REQUIRED');
    // Users reach in-app, e-mail and SMS alike (their address and phone).
    expect(firstIssue({ name: 'n', steps: [{ afterMinutes: 0, channels: ['in_app', 'email', 'sms'], userIds: [USER] }] })).toBeNull();
    expect(firstIssue({ name: 'n', steps: [s({ channels: ['webhook'], webhooks: [{ url: 'http://hooks.example.com/x', secret: 'x'.repeat(15) }] })] })).toBe('WEBHOOK_SECRET_FORMAT');
    expect(firstIssue({ name: 'n', steps: [s({ channels: ['webhook'], webhooks: [{ url: 'mailto:a@example.com', secret: 'x'.repeat(16) }] })] })).toBe('WEBHOOK_URL_FORMAT');
    expect(firstIssue({ name: 'n', steps: [s({ channels: ['sms'], phones: ['23800000000'] })] })).toBe('MOBILE_FORMAT');
  });
});

describe('templates', () => {
  const values = Object.fromEntries(PUSH_PLACEHOLDERS.map((p) => [p, `<${p}>`])) as Record<PushPlaceholder, string>;

  it('fills every placeholder and leaves other braces as written', () => {
    expect(renderTemplate('{level}/{type} at {startedAt} {nope} {}', values)).toBe('<level>/<type> at <startedAt> {nope} {}');
    for (const lang of ['zh', 'en'] as const) {
      const { subject, body } = DEFAULT_TEMPLATES[lang];
      expect(unknownPlaceholders(subject + body)).toEqual([]);
      expect(renderTemplate(body, values)).not.toMatch(/\{[A-Za-z]+\}/);
    }
  });

  it('names unknown placeholders, and the rule refuses them', () => {
    expect(unknownPlaceholders('{device} {plate} {deviceId} {x}')).toEqual(['plate', 'x']);
    expect(firstIssue({ name: 'n', templates: { subject: '{plate}' }, steps: [{ afterMinutes: 0, channels: ['in_app'], userIds: [USER] }] })).toBe('PUSH_TEMPLATE_PLACEHOLDER');
  });
});

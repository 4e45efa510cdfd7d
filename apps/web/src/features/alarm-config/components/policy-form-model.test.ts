import { describe, expect, it } from 'vitest';
import type { AlarmRule, PolicyRow } from '@iotc/shared/alarm';
import { buildPolicyBody, emptyPolicy, formNameOf, newRule, nextRuleId, parseRoute, policyToForm, ruleTypes, thresholdRange, type PolicyFormValues } from './policy-form-model.ts';

const ORG = '11111111-1111-4111-8111-111111111111';
const LEVEL = 'aaaaaaaa-0000-4000-8000-000000000001';

function policy(rules: RuleInput[]): PolicyFormValues {
  return { ...emptyPolicy(ORG), name: 'Cold chain', rules: rules.map((r, i) => ({ ...newRule(r.type, [], LEVEL), id: `r${i + 1}`, ...r })) };
}
type RuleInput = Partial<PolicyFormValues['rules'][number]> & Pick<PolicyFormValues['rules'][number], 'type'>;

describe('the policy form model', () => {
  it('numbers new rules after the highest r<n> in use', () => {
    expect(nextRuleId([])).toBe('r1');
    expect(nextRuleId(['r1', 'r2'])).toBe('r3');
    expect(nextRuleId(['r7', 'custom'])).toBe('r8');
  });

  it('starts a new rule from the type’s defaults, time-based thresholds in minutes', () => {
    expect(newRule('temp_high', ['r1'], LEVEL)).toMatchObject({ id: 'r2', type: 'temp_high', threshold: 8, hysteresis: 0.5, durationS: 0, levelId: LEVEL, enabled: true });
    // 1800 s shown as 30 min.
    expect(newRule('offline', [], LEVEL).threshold).toBe(30);
    expect(thresholdRange('offline')).toEqual({ min: 1, max: 43_200 });
  });

  it('sends a schedule across midnight as it was entered, days in order', () => {
    const values = policy([{ type: 'temp_high', threshold: 7.5, durationS: 300, scheduleOn: true, schedule: { days: [5, 1, 3], start: '22:00', end: '06:00', timezone: 'Asia/Shanghai' } }]);
    const built = buildPolicyBody(values, true);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.body.orgId).toBe(ORG);
    expect(built.body.rules[0]).toEqual({
      id: 'r1',
      type: 'temp_high',
      enabled: true,
      threshold: 7.5,
      durationS: 300,
      hysteresis: 0.5,
      levelId: LEVEL,
      schedule: { days: [1, 3, 5], start: '22:00', end: '06:00', timezone: 'Asia/Shanghai' },
      places: [],
      allowedTimes: null,
      route: [],
    });
  });

  it('sends minutes as seconds and leaves out what the type does not use', () => {
    const built = buildPolicyBody(policy([{ type: 'offline', threshold: 45, durationS: 99, hysteresis: 3, places: [{ name: 'x', lat: 1, lon: 1, radiusM: 100 }] }]), false);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.body.orgId).toBeUndefined();
    expect(built.body.rules[0]).toMatchObject({ type: 'offline', threshold: 2700, durationS: 0, hysteresis: 0, places: [], route: [] });
  });

  it('refuses a threshold outside the type’s range on the threshold field', () => {
    const built = buildPolicyBody(policy([{ type: 'humidity_high', threshold: 150 }]), true);
    expect(built).toEqual({ ok: false, issues: [{ name: ['rules', 0, 'threshold'], text: { code: 'ALARM_THRESHOLD_RANGE' } }] });
  });

  it('puts each problem on its field', () => {
    const values: PolicyFormValues = {
      ...policy([
        { type: 'yaw', routeText: '31.2,121.4\nsomewhere' },
        { type: 'door_abnormal', levelId: undefined, places: [{ name: '', lat: 31, lon: 121, radiusM: 100 }] },
        { type: 'temp_low', scheduleOn: true, schedule: { days: [], start: '08:00', end: null, timezone: 'Mars/Base' } },
      ]),
      name: ' ',
      scope: 'devices',
      targets: [],
    };
    const built = buildPolicyBody(values, true);
    expect(built.ok).toBe(false);
    if (built.ok) return;
    const byField = Object.fromEntries(built.issues.map((i) => [JSON.stringify(i.name), i.text]));
    expect(byField).toMatchObject({
      '["rules",0,"routeText"]': { key: 'alarmConfig.rule.routeLine', params: { line: 2 } },
      '["name"]': { code: 'NAME_REQUIRED' },
      '["targets"]': { code: 'POLICY_TARGETS_REQUIRED' },
      '["rules",1,"levelId"]': { code: 'ALARM_LEVEL_REQUIRED' },
      '["rules",1,"places",0,"name"]': { code: 'NAME_REQUIRED' },
      '["rules",2,"schedule","days"]': { code: 'SCHEDULE_DAYS_REQUIRED' },
      '["rules",2,"schedule","end"]': { code: 'TIME_OF_DAY_FORMAT' },
      '["rules",2,"schedule","timezone"]': { code: 'TIMEZONE_UNKNOWN' },
    });
  });

  it('asks for a rule and for a second route point', () => {
    const none = buildPolicyBody({ ...emptyPolicy(ORG), name: 'Empty' }, true);
    expect(none).toEqual({ ok: false, issues: [{ name: null, text: { code: 'ALARM_RULES_REQUIRED' } }] });
    const short = buildPolicyBody(policy([{ type: 'yaw', routeText: '31.2,121.4' }]), true);
    expect(short.ok ? [] : short.issues).toEqual([{ name: ['rules', 0, 'routeText'], text: { code: 'ROUTE_TOO_SHORT' } }]);
  });

  it('reads a route as lat,lon lines', () => {
    expect(parseRoute('31.2,121.4\n\n 30.5 , 120.1 \n')).toEqual({ points: [[31.2, 121.4], [30.5, 120.1]] });
    expect(parseRoute('31.2;121.4')).toEqual({ badLine: 1 });
    expect(formNameOf(['rules', 3, 'route', 1, 0])).toEqual(['rules', 3, 'routeText']);
    expect(formNameOf(['rules', 1, 'id'])).toBeNull();
    expect(formNameOf(['targets', 4])).toEqual(['targets']);
  });

  it('round-trips a stored policy through the form', () => {
    const rules: AlarmRule[] = [
      {
        id: 'door',
        type: 'door_abnormal',
        enabled: false,
        threshold: 0,
        durationS: 10,
        hysteresis: 0,
        levelId: LEVEL,
        schedule: null,
        places: [{ name: 'Depot', lat: 31.2, lon: 121.4, radiusM: 300 }],
        allowedTimes: { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', timezone: 'Asia/Shanghai' },
        route: [],
      },
      { id: 'stay', type: 'stay_timeout', enabled: true, threshold: 3600, durationS: 0, hysteresis: 0, levelId: LEVEL, schedule: null, places: [], allowedTimes: null, route: [] },
      { id: 'yaw', type: 'yaw', enabled: true, threshold: 800, durationS: 60, hysteresis: 100, levelId: LEVEL, schedule: null, places: [], allowedTimes: null, route: [[31.2, 121.4], [30.5, 120.1]] },
    ];
    const row: PolicyRow = {
      id: 'p1',
      orgId: ORG,
      orgName: 'Org',
      name: 'Doors',
      description: 'd',
      enabled: true,
      scope: 'asset_kinds',
      targets: ['container', 'vehicle'],
      rules,
      activeAlarms: 0,
      createdAt: '',
      updatedAt: '',
    };
    const form = policyToForm(row);
    expect(form.rules[1]!.threshold).toBe(60);
    expect(form.rules[2]!.routeText).toBe('31.2,121.4\n30.5,120.1');
    const built = buildPolicyBody(form, false);
    expect(built.ok && built.body).toEqual({ name: 'Doors', description: 'd', enabled: true, scope: 'asset_kinds', targets: ['container', 'vehicle'], rules });
    expect(ruleTypes(rules)).toEqual(['door_abnormal', 'yaw', 'stay_timeout']);
  });
});

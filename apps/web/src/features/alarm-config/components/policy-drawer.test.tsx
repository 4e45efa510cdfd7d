import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import { ALARM_API, type PolicyBody, type PolicyRow } from '@iotc/shared/alarm';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, input, settle, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request } from '../../../api/client.ts';
import { fakeApi, LEVEL_IDS, ORG, policyRow, until, writes } from '../test-fixtures.ts';
import { PolicyDrawer, type PolicyFormTarget } from './policy-drawer.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);

let mounted: Rendered | undefined;
const onClose = vi.fn();

beforeEach(async () => {
  await setEnglish();
  requestMock.mockReset();
  onClose.mockReset();
  // A save answers the stored row; nothing else is written.
  fakeApi(requestMock, (path, opts) => (opts.method === 'PUT' || opts.method === 'POST' ? (path.startsWith(ALARM_API.policies) ? policyRow() : undefined) : undefined));
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

async function open(target: PolicyFormTarget): Promise<HTMLElement> {
  mounted = render(
    <App>
      <PolicyDrawer target={target} open onClose={onClose} afterClose={() => {}} />
    </App>,
  );
  await settle(8);
  const drawer = document.body.querySelector<HTMLElement>('.alarm-policy-drawer');
  if (!drawer) throw new Error('no drawer');
  return drawer;
}

async function save(drawer: HTMLElement): Promise<void> {
  await act(async () => byTestId(drawer, 'policy-submit')!.click());
  await settle();
}

function sentBody(): { path: string; method?: string; body: PolicyBody } {
  const all = writes(requestMock);
  expect(all).toHaveLength(1);
  const [path, opts] = all[0]!;
  return { path, method: opts.method, body: opts.body as PolicyBody };
}

function fieldError(drawer: HTMLElement, id: string): string {
  return input(drawer, id).closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
}

const editOf = (row: PolicyRow): PolicyFormTarget => ({ mode: 'edit', row });

describe('the policy drawer', () => {
  it('sends a temperature rule with a schedule across midnight as entered', async () => {
    const row = policyRow({
      rules: [
        {
          id: 'r1',
          type: 'temp_high',
          enabled: true,
          threshold: 8,
          durationS: 300,
          hysteresis: 0.5,
          levelId: LEVEL_IDS[1]!,
          schedule: { days: [1, 2, 3, 4, 5], start: '22:00', end: '06:00', timezone: 'Asia/Shanghai' },
          places: [],
          allowedTimes: null,
          route: [],
        },
      ],
    });
    const drawer = await open(editOf(row));
    expect(input(drawer, 'policy_name').value).toBe('Reefer temperature');
    expect(input(drawer, 'policy_rules_0_threshold').value).toBe('8');
    // The unit of the type beside the threshold, and the night window spelled out.
    expect(input(drawer, 'policy_rules_0_threshold').closest('.ant-input-number')?.textContent).toContain('°C');
    expect(byTestId(drawer, 'schedule-overnight')?.textContent).toBe('22:00 to 06:00 the next day');
    type(drawer, 'policy_rules_0_threshold', '7.5');
    await settle();
    await save(drawer);
    const sent = sentBody();
    expect(sent.path).toBe(`${ALARM_API.policies}/${row.id}`);
    expect(sent.method).toBe('PUT');
    expect(sent.body).toEqual({
      name: 'Reefer temperature',
      description: 'Keep goods between 2 and 8 °C',
      enabled: true,
      scope: 'all',
      targets: [],
      rules: [
        {
          id: 'r1',
          type: 'temp_high',
          enabled: true,
          threshold: 7.5,
          durationS: 300,
          hysteresis: 0.5,
          levelId: LEVEL_IDS[1],
          schedule: { days: [1, 2, 3, 4, 5], start: '22:00', end: '06:00', timezone: 'Asia/Shanghai' },
          places: [],
          allowedTimes: null,
          route: [],
        },
      ],
    });
    await until(() => expect(onClose).toHaveBeenCalled(), () => settle(1));
  });

  it('takes an offline threshold in minutes and sends seconds', async () => {
    const row = policyRow({
      rules: [{ id: 'r4', type: 'offline', enabled: true, threshold: 1800, durationS: 0, hysteresis: 0, levelId: LEVEL_IDS[0]!, schedule: null, places: [], allowedTimes: null, route: [] }],
    });
    const drawer = await open(editOf(row));
    expect(input(drawer, 'policy_rules_0_threshold').value).toBe('30');
    expect(input(drawer, 'policy_rules_0_threshold').closest('.ant-input-number')?.textContent).toContain('min');
    // Offline is a time already: no "holds for" and no clear margin.
    expect(drawer.querySelector('#policy_rules_0_durationS')).toBeNull();
    expect(drawer.querySelector('#policy_rules_0_hysteresis')).toBeNull();
    type(drawer, 'policy_rules_0_threshold', '45');
    await settle();
    await save(drawer);
    expect(sentBody().body.rules[0]).toMatchObject({ id: 'r4', type: 'offline', threshold: 2700, durationS: 0, hysteresis: 0 });
  });

  it('creates a policy with a new rule from the type’s defaults at the organisation’s first level', async () => {
    const drawer = await open({ mode: 'create' });
    expect(byTestId(drawer, 'rules-empty')).not.toBeNull();
    type(drawer, 'policy_name', 'Night watch');
    click(byTestId(drawer, 'rule-add'));
    await settle();
    expect(drawer.querySelectorAll('[data-testid=rule-card]')).toHaveLength(1);
    expect(input(drawer, 'policy_rules_0_threshold').value).toBe('8');
    await save(drawer);
    const sent = sentBody();
    expect(sent.path).toBe(ALARM_API.policies);
    expect(sent.method).toBe('POST');
    expect(sent.body).toMatchObject({ name: 'Night watch', orgId: ORG, enabled: true, scope: 'all', targets: [] });
    expect(sent.body.rules).toEqual([
      { id: 'r1', type: 'temp_high', enabled: true, threshold: 8, durationS: 0, hysteresis: 0.5, levelId: LEVEL_IDS[0], schedule: null, places: [], allowedTimes: null, route: [] },
    ]);
  });

  it('refuses a humidity threshold of 150 before sending anything, in Chinese', async () => {
    await i18next.changeLanguage('zh');
    const row = policyRow({
      rules: [{ id: 'r1', type: 'humidity_high', enabled: true, threshold: 80, durationS: 0, hysteresis: 2, levelId: LEVEL_IDS[0]!, schedule: null, places: [], allowedTimes: null, route: [] }],
    });
    const drawer = await open(editOf(row));
    type(drawer, 'policy_rules_0_threshold', '150');
    await settle();
    await save(drawer);
    await until(() => expect(fieldError(drawer, 'policy_rules_0_threshold')).toBe('阈值超出该告警类型允许的范围'), () => settle(1));
    expect(writes(requestMock)).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
    // Back in range, it goes.
    type(drawer, 'policy_rules_0_threshold', '95');
    await settle();
    await save(drawer);
    expect(sentBody().body.rules[0]!.threshold).toBe(95);
  });

  it('asks for at least one rule and for the devices of a device policy', async () => {
    const drawer = await open(editOf(policyRow({ rules: [], scope: 'devices', targets: [] })));
    expect(byTestId(drawer, 'policy-targets')).not.toBeNull();
    await save(drawer);
    expect(byTestId(drawer, 'rules-error')?.textContent).toBe('Add at least one rule');
    await until(() => expect(fieldError(drawer, 'policy_targets')).toBe('Pick the devices, assets or asset kinds the policy applies to'), () => settle(1));
    expect(writes(requestMock)).toEqual([]);
  });

  it('saves on a submit of the form (what Enter in a text field does)', async () => {
    const drawer = await open(editOf(policyRow()));
    const name = input(drawer, 'policy_name');
    // jsdom has no implicit submission on Enter: the form's submit is raised as the browser would.
    await act(async () => name.form?.requestSubmit());
    await settle();
    expect(sentBody().method).toBe('PUT');
  });
});

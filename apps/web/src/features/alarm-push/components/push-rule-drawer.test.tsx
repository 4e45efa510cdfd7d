import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import { MASKED_SECRET, PUSH_API, type PushRuleBody } from '@iotc/shared/alarm-push';
import { PLATFORM_API } from '@iotc/shared/platform';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, input, settle, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request } from '../../../api/client.ts';
import { fakeApi, LEVEL_IDS, ORG, POLICY_IDS, reads, ROLE_IDS, ruleRow, until, USER_IDS, userWith, writes, type Answer, type FakeData } from '../test-fixtures.ts';
import { PushRuleDrawer, type PushRuleTarget } from './push-rule-drawer.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);

let mounted: Rendered | undefined;
const onClose = vi.fn();

/** A save answers the stored row; nothing else is written. */
const saves: Answer = (path, opts) => (opts.method === 'PUT' || opts.method === 'POST') && path.startsWith(PUSH_API.rules) ? ruleRow() : undefined;

beforeEach(async () => {
  await setEnglish();
  requestMock.mockReset();
  onClose.mockReset();
  // The user saved by an earlier test would stand in until this test's user arrives.
  sessionStorage.clear();
  localStorage.clear();
  fakeApi(requestMock, saves);
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

function answer(own: Answer, data: FakeData = {}) {
  fakeApi(requestMock, async (path, opts) => (await own(path, opts)) ?? saves(path, opts), data);
}

async function open(target: PushRuleTarget): Promise<HTMLElement> {
  mounted = render(
    <App>
      <PushRuleDrawer target={target} open onClose={onClose} afterClose={() => {}} />
    </App>,
  );
  await settle(8);
  const drawer = document.body.querySelector<HTMLElement>('.push-rule-drawer');
  if (!drawer) throw new Error('no drawer');
  return drawer;
}

async function save(drawer: HTMLElement): Promise<void> {
  await act(async () => byTestId(drawer, 'push-rule-submit')!.click());
  await settle();
}

function sent(): { path: string; method?: string; body: PushRuleBody } {
  const all = writes(requestMock);
  expect(all).toHaveLength(1);
  const [path, opts] = all[0]!;
  return { path, method: opts.method, body: opts.body as PushRuleBody };
}

/** The message under the form item holding `el`. */
function errorNear(el: Element | null): string {
  return el?.closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
}
const fieldError = (drawer: HTMLElement, id: string) => errorNear(input(drawer, id));

function step(drawer: HTMLElement, i: number): HTMLElement {
  const card = drawer.querySelectorAll<HTMLElement>('[data-testid=push-step]')[i];
  if (!card) throw new Error(`no step ${i + 1}`);
  return card;
}
const channelBox = (card: HTMLElement, channel: string) => card.querySelector<HTMLInputElement>(`[data-testid=push-step-channels] input[value="${channel}"]`);

describe('the push rule drawer', () => {
  it('sends a stored rule back as it was, the masked webhook secret kept, with the changed name', async () => {
    const row = ruleRow();
    const drawer = await open({ mode: 'edit', row });
    expect(input(drawer, 'push_name').value).toBe('Urgent to duty officers');
    // Names of what the rule holds by id.
    await until(() => expect(byTestId(drawer, 'push-policies')?.textContent).toContain('Reefer temperature'), () => settle(1));
    await until(() => expect(byTestId(step(drawer, 0), 'push-step-users')?.textContent).toContain('Zhang Wei (zhang)'), () => settle(1));
    expect(byTestId(step(drawer, 0), 'push-step-roles')?.textContent).toContain('On duty (duty)');
    // The stored secret is not shown; a blank field keeps it.
    expect(input(drawer, 'push_steps_1_webhooks_0_secret').value).toBe('');
    expect(byTestId(step(drawer, 1), 'push-webhook-kept')).not.toBeNull();
    expect(channelBox(step(drawer, 1), 'sms')?.checked).toBe(true);
    expect(channelBox(step(drawer, 1), 'email')?.checked).toBe(false);

    type(drawer, 'push_name', 'Urgent to the duty desk');
    await settle();
    await save(drawer);
    const { path, method, body } = sent();
    expect(path).toBe(`${PUSH_API.rules}/${row.id}`);
    expect(method).toBe('PUT');
    expect(body).toEqual({
      name: 'Urgent to the duty desk',
      enabled: true,
      match: { policyIds: [POLICY_IDS[0]], levelIds: [LEVEL_IDS[0]], types: ['temp_high'] },
      events: ['opened', 'cleared'],
      language: 'en',
      timezone: 'Asia/Shanghai',
      quietFrom: null,
      quietTo: null,
      digestMinutes: null,
      templates: { subject: '[{level}] {device}', body: '' },
      steps: [
        { afterMinutes: 0, channels: ['in_app', 'email'], userIds: [USER_IDS[0]], roleIds: [ROLE_IDS[0]], emails: ['duty@example.com'], phones: [], webhooks: [], repeatMinutes: null },
        {
          afterMinutes: 15,
          channels: ['sms', 'webhook'],
          userIds: [],
          roleIds: [],
          emails: [],
          phones: ['13800000000'],
          webhooks: [{ url: 'https://hooks.example.com/alarms', secret: MASKED_SECRET }],
          repeatMinutes: 30,
        },
      ],
    });
    await until(() => expect(onClose).toHaveBeenCalled(), () => settle(1));
  });

  it('refuses a first step that waits and a channel nobody is reached by, then creates the rule once they are fixed', async () => {
    const drawer = await open({ mode: 'create' });
    type(drawer, 'push_name', 'Night watch');
    type(drawer, 'push_steps_0_afterMinutes', '5');
    await settle();
    // The new step notifies in-app, but names no user or role.
    expect(channelBox(step(drawer, 0), 'in_app')?.checked).toBe(true);
    await save(drawer);
    await until(() => expect(fieldError(drawer, 'push_steps_0_afterMinutes')).toBe('The first step is sent at once: its delay must be 0 minutes'), () => settle(1));
    expect(errorNear(byTestId(step(drawer, 0), 'push-step-channels'))).toBe(
      'A step uses a channel without recipients for it (users or roles, e-mail addresses, phone numbers or webhooks)',
    );
    expect(writes(requestMock)).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();

    // At once, to a webhook instead.
    type(drawer, 'push_steps_0_afterMinutes', '0');
    click(channelBox(step(drawer, 0), 'in_app'));
    click(channelBox(step(drawer, 0), 'webhook'));
    click(byTestId(step(drawer, 0), 'push-webhook-add'));
    await settle();
    type(drawer, 'push_steps_0_webhooks_0_url', 'https://hooks.example.com/night');
    type(drawer, 'push_steps_0_webhooks_0_secret', 'a-secret-of-24-characters');
    await settle();
    await save(drawer);
    const { path, method, body } = sent();
    expect(path).toBe(PUSH_API.rules);
    expect(method).toBe('POST');
    expect(body).toEqual({
      name: 'Night watch',
      orgId: ORG,
      enabled: true,
      match: { policyIds: [], levelIds: [], types: [] },
      events: ['opened'],
      language: 'en',
      timezone: 'Asia/Shanghai',
      quietFrom: null,
      quietTo: null,
      digestMinutes: null,
      templates: { subject: '', body: '' },
      steps: [
        {
          afterMinutes: 0,
          channels: ['webhook'],
          userIds: [],
          roleIds: [],
          emails: [],
          phones: [],
          webhooks: [{ url: 'https://hooks.example.com/night', secret: 'a-secret-of-24-characters' }],
          repeatMinutes: null,
        },
      ],
    });
  });

  it('adds steps up to five, each later than the one before', async () => {
    const drawer = await open({ mode: 'create' });
    type(drawer, 'push_name', 'Escalate');
    for (let i = 0; i < 4; i += 1) click(byTestId(drawer, 'push-step-add'));
    await settle();
    expect(drawer.querySelectorAll('[data-testid=push-step]')).toHaveLength(5);
    expect(byTestId<HTMLButtonElement>(drawer, 'push-step-add')!.disabled).toBe(true);
    expect(input(drawer, 'push_steps_4_afterMinutes').value).toBe('120');
    click(byTestId(drawer, 'push-repeat-on'));
    await settle();
    type(drawer, 'push_repeatMinutes', '20');
    type(drawer, 'push_steps_2_afterMinutes', '10');
    await settle();
    await save(drawer);
    await until(() => expect(fieldError(drawer, 'push_steps_2_afterMinutes')).toBe('Each escalation step must come later than the step before it'), () => settle(1));
    expect(writes(requestMock)).toEqual([]);
  });

  it('asks for the secret of a webhook whose address changed, and checks the template’s placeholders', async () => {
    const drawer = await open({ mode: 'edit', row: ruleRow() });
    type(drawer, 'push_steps_1_webhooks_0_url', 'https://hooks.example.com/other');
    type(drawer, 'push_subject', '[{level}] {devise}');
    await settle();
    expect(byTestId(step(drawer, 1), 'push-webhook-kept')).toBeNull();
    await save(drawer);
    await until(() => expect(fieldError(drawer, 'push_steps_1_webhooks_0_secret')).toBe('The webhook secret must be 16-128 characters'), () => settle(1));
    expect(fieldError(drawer, 'push_subject')).toContain('The template uses an unknown placeholder');
    expect(writes(requestMock)).toEqual([]);
  });

  it('previews the message for a sample alarm in the rule’s language, on opening and on clearing', async () => {
    const drawer = await open({ mode: 'edit', row: ruleRow() });
    await until(() => expect(byTestId(byTestId(drawer, 'push-preview-opened')!, 'push-preview-subject')?.textContent).toBe('[Urgent] Reefer 07'), () => settle(1));
    expect(byTestId(byTestId(drawer, 'push-preview-cleared')!, 'push-preview-subject')?.textContent).toBe('Cleared: [Urgent] Reefer 07');
    // A blank body is the language's default.
    expect(byTestId(byTestId(drawer, 'push-preview-opened')!, 'push-preview-body')?.textContent).toMatch(/^Device Reefer 07 \(TRK-0007\) of Cold Chain Co raised a Urgent alarm "Temperature high" at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: value 9\.6 °C/);
    // A placeholder button puts its name into the template last in focus.
    act(() => input(drawer, 'push_subject').focus());
    type(drawer, 'push_subject', '');
    click(byTestId(drawer, 'push-placeholder-deviceId'));
    await settle();
    expect(input(drawer, 'push_subject').value).toBe('{deviceId}');
    expect(byTestId(byTestId(drawer, 'push-preview-opened')!, 'push-preview-subject')?.textContent).toBe('TRK-0007');
    // Chinese messages use the Chinese sample and default template.
    click(drawer.querySelector('[data-testid=push-language] input[value="zh"]'));
    type(drawer, 'push_subject', '');
    await settle();
    expect(byTestId(byTestId(drawer, 'push-preview-opened')!, 'push-preview-subject')?.textContent).toBe('【紧急】温度过高：冷藏车 07');
  });

  it('keeps the chosen users but offers none to a user who may not view users', async () => {
    answer(() => undefined, { me: userWith(['alarm:read', 'alarm:write', 'role:read']) });
    const drawer = await open({ mode: 'edit', row: ruleRow() });
    await until(() => expect(byTestId(step(drawer, 0), 'push-step-users-hint')?.textContent).toContain('You may not view users'), () => settle(1));
    const users = byTestId(step(drawer, 0), 'push-step-users')!;
    expect((users.closest('.ant-select') ?? users).className).toContain('ant-select-disabled');
    // The chosen user is kept, named by its id since the name cannot be read.
    expect(users.textContent).toContain('User cccccccc');
    expect(reads(requestMock, PLATFORM_API.users)).toEqual([]);
    // Roles are readable: their picker works.
    expect(byTestId(step(drawer, 0), 'push-step-roles-hint')).toBeNull();
    await save(drawer);
    expect(sent().body.steps[0]!.userIds).toEqual([USER_IDS[0]]);
  });

  it('says so when the server refuses the users list', async () => {
    answer((path) => (path === PLATFORM_API.users ? Promise.reject(new ApiError(403, 'FORBIDDEN', 'forbidden')) : undefined));
    const drawer = await open({ mode: 'create' });
    await until(() => expect(byTestId(step(drawer, 0), 'push-step-users-hint')?.textContent).toContain('You may not view users'), () => settle(1));
  });

  it('shows the problems in Chinese', async () => {
    await i18next.changeLanguage('zh');
    const drawer = await open({ mode: 'create' });
    type(drawer, 'push_steps_0_afterMinutes', '5');
    await settle();
    await save(drawer);
    await until(() => expect(fieldError(drawer, 'push_steps_0_afterMinutes')).toBe('第一步立即发送，延迟须为 0 分钟'), () => settle(1));
    expect(fieldError(drawer, 'push_name')).toBe('名称不能为空');
    expect(writes(requestMock)).toEqual([]);
  });

  it('shows the server’s refusal above the form', async () => {
    answer((path, opts) => (opts.method === 'PUT' ? Promise.reject(new ApiError(400, 'PUSH_USER_UNKNOWN', null)) : undefined));
    const drawer = await open({ mode: 'edit', row: ruleRow() });
    await save(drawer);
    await until(() => expect(byTestId(drawer, 'form-error')?.textContent).toBe('A recipient user does not exist in this organisation'), () => settle(1));
    expect(onClose).not.toHaveBeenCalled();
  });
});

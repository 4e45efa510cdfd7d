import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PUSH_API, type DeliveryRow, type PushRuleRow } from '@iotc/shared/alarm-push';
import { click, render, setEnglish, showColumns, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request } from '../../../api/client.ts';
import {
  deliveryDetail,
  deliveryRow,
  DELIVERY_IDS,
  fakeApi,
  reads,
  ruleRow,
  RULE_IDS,
  until,
  userWith,
  writes,
  type Answer,
  type FakeData,
} from '../test-fixtures.ts';
import MessagePushPage from './message-push-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);

const R1 = ruleRow();
const R2: PushRuleRow = ruleRow({
  id: RULE_IDS[1]!,
  name: 'Everything to ops',
  enabled: false,
  match: { policyIds: [], levelIds: [], types: [] },
  events: ['opened'],
  steps: [{ afterMinutes: 0, channels: ['email'], userIds: [], roleIds: [], emails: ['ops@example.com'], phones: [], webhooks: [], repeatMinutes: null }],
  deliveries: 3,
  failed: 0,
});
const RULES = [R1, R2];
const D1 = deliveryRow();
const D2: DeliveryRow = deliveryRow({
  id: DELIVERY_IDS[1]!,
  step: 1,
  round: 0,
  channel: 'in_app',
  target: 'zhang',
  user: { id: 'cccccccc-0000-4000-8000-000000000001', account: 'zhang', name: 'Zhang Wei' },
  status: 'sent',
  attempts: 1,
  lastError: null,
  responseCode: null,
  sentAt: '2026-03-01T08:30:01Z',
});
const DATA: FakeData = { rules: RULES, deliveries: [D1, D2] };

let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  localStorage.clear();
  requestMock.mockReset();
  fakeApi(requestMock, undefined, DATA);
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

function answer(own: Answer, data: FakeData = DATA) {
  fakeApi(requestMock, own, data);
}

function rows(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')];
}
const cellText = (tr: HTMLElement, testId: string) => tr.querySelector(`[data-testid=${testId}]`)?.textContent;

async function mount(entry = '/view/alarm/push', count = 2): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path="/view/alarm/push" element={<MessagePushPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(8);
  await until(() => expect(rows(mounted!.container)).toHaveLength(count), () => settle(1));
  return mounted.container;
}

function confirmButton(text: string): HTMLButtonElement {
  const dialog = document.body.querySelector('.confirm-dialog');
  if (!dialog) throw new Error('no confirmation dialog');
  const button = [...dialog.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === text.replace(/\s/g, ''));
  if (!button) throw new Error(`no ${text} button`);
  return button;
}

describe('message push: rules', () => {
  it('lists the rules with what they match, their channels and steps', async () => {
    const root = await mount();
    expect(byTestId(root, 'screen-title')?.textContent).toBe('Message push');
    expect(reads(requestMock, PUSH_API.rules).find((o) => o.query?.sort)?.query).toMatchObject({ page: 1, size: 10, sort: 'updatedAt,desc' });
    const [r1, r2] = rows(root);
    expect(cellText(r1!, 'push-rule-name-cell')).toBe('Urgent to duty officers');
    await until(() => expect(cellText(r1!, 'push-rule-match-cell')).toBe('1 policy; Levels: Urgent; Types: Temperature high'), () => settle(1));
    expect(cellText(r2!, 'push-rule-match-cell')).toBe('Any alarm');
    expect([...r1!.querySelectorAll('[data-testid=push-rule-channels-cell] .ant-tag')].map((t) => t.textContent)).toEqual(['In-app', 'E-mail', 'SMS', 'Webhook']);
    expect(cellText(r1!, 'push-rule-steps-cell')).toBe('2 steps · last repeats every 30 min');
    expect(cellText(r2!, 'push-rule-steps-cell')).toBe('1 step');
    expect(r1!.querySelector('[data-testid=push-rule-failed-cell]')?.getAttribute('data-out-of-range')).toBe('true');
    expect(r1!.querySelector('[data-testid=push-rule-enabled-cell] .ant-switch')?.getAttribute('aria-checked')).toBe('true');
    expect(r2!.querySelector('[data-testid=push-rule-enabled-cell] .ant-switch')?.getAttribute('aria-checked')).toBe('false');
    expect(byTestId(root, 'filter-keyword')).not.toBeNull();
    expect(byTestId(root, 'filter-enabled')).not.toBeNull();
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    const root = await mount();
    expect(byTestId(root, 'screen-title')?.textContent).toBe('消息推送');
    expect(byTestId(root, 'push-tab-deliveries')?.textContent).toBe('发送记录');
    const [r1, r2] = rows(root);
    await until(() => expect(cellText(r1!, 'push-rule-match-cell')).toBe('1 个策略；等级：紧急；类型：温度过高'), () => settle(1));
    expect(cellText(r2!, 'push-rule-match-cell')).toBe('全部告警');
    expect(cellText(r1!, 'push-rule-steps-cell')).toBe('2 步 · 最后一步每 30 分钟重复');
  });

  it('says when there are no rules', async () => {
    answer(() => undefined, { rules: [] });
    const root = await mount('/view/alarm/push', 0);
    await until(() => expect(byTestId(root, 'push-rules-empty')?.textContent).toBe('No push rules yet'), () => settle(1));
  });

  it('disables a rule only after confirming, and enables one at once', async () => {
    answer((path, opts) => (opts.method === 'POST' && /\/(enable|disable)$/.test(path) ? R1 : undefined));
    const root = await mount();
    click(rows(root)[0]!.querySelector('[data-testid=push-rule-enabled-cell] .ant-switch'));
    await settle();
    expect(document.body.querySelector('[data-testid=push-rule-disable-content]')?.textContent).toContain('"Urgent to duty officers" will notify no one of new alarms');
    expect(writes(requestMock)).toEqual([]);
    click(confirmButton('Disable'));
    await settle();
    expect(writes(requestMock)).toEqual([[`${PUSH_API.rules}/${R1.id}/disable`, expect.objectContaining({ method: 'POST' })]]);

    click(rows(root)[1]!.querySelector('[data-testid=push-rule-enabled-cell] .ant-switch'));
    await settle();
    expect(writes(requestMock)[1]).toEqual([`${PUSH_API.rules}/${R2.id}/enable`, expect.objectContaining({ method: 'POST' })]);
  });

  it('deletes a rule after confirming that its deliveries stay in the log', async () => {
    answer((_path, opts) => (opts.method === 'DELETE' ? null : undefined));
    const root = await mount();
    click(rows(root)[1]!.querySelector('[data-testid=push-rule-action-delete]'));
    await settle();
    expect(document.body.querySelector('[data-testid=push-rule-delete-content]')?.textContent).toContain('Its deliveries stay in the delivery log');
    expect(writes(requestMock)).toEqual([]);
    click(confirmButton('Delete'));
    await settle();
    expect(writes(requestMock)).toEqual([[`${PUSH_API.rules}/${R2.id}`, expect.objectContaining({ method: 'DELETE' })]]);
  });

  it('shows rules without write controls to a reader', async () => {
    answer(() => undefined, { ...DATA, me: userWith(['alarm:read']) });
    const root = await mount();
    await until(() => expect(byTestId(root, 'push-rule-new')).toBeNull(), () => settle(1));
    expect(rows(root)[0]!.querySelector('[data-testid=push-rule-enabled-cell] .ant-switch')).toBeNull();
    expect(rows(root)[0]!.querySelector('[data-testid=push-rule-action-delete]')).toBeNull();
    expect(cellText(rows(root)[0]!, 'push-rule-enabled-cell')).toBe('Enabled');
  });

  it('opens the delivery log of one rule from its row', async () => {
    const root = await mount();
    click(rows(root)[0]!.querySelector('[data-testid=push-rule-action-log]'));
    await settle(8);
    await until(() => expect(reads(requestMock, PUSH_API.deliveries).map((o) => o.query?.ruleId)).toContain(R1.id), () => settle(1));
    expect(root.querySelector('.ant-tabs-tab-active')?.textContent).toBe('Delivery log');
  });
});

describe('message push: delivery log', () => {
  const LOG = '/view/alarm/push?tab=deliveries';

  it('lists the deliveries with their alarm, step, target, status and last result', async () => {
    const root = await mount(LOG);
    // The step does not fit 1280 px: custom columns shows it.
    showColumns(root, ['stepText']);
    const [d1, d2] = rows(root);
    expect(cellText(d1!, 'push-delivery-alarm-cell')).toBe('Reefer 07 (TRK-0007) · Temperature high');
    expect(cellText(d1!, 'push-delivery-step-cell')).toBe('Step 2 · repeat 1');
    expect(cellText(d1!, 'push-delivery-status-cell')).toBe('Failed');
    expect(cellText(d1!, 'push-delivery-result-cell')).toBe('HTTP 502 · connect ECONNREFUSED');
    expect(cellText(d2!, 'push-delivery-target-cell')).toBe('Zhang Wei (zhang)');
    expect(cellText(d2!, 'push-delivery-step-cell')).toBe('Step 1');
    // Only what failed (or waits in the outbox) is offered again.
    expect(d1!.querySelector('[data-testid=push-delivery-action-resend]')).not.toBeNull();
    expect(d2!.querySelector('[data-testid=push-delivery-action-resend]')).toBeNull();
  });

  it('sends the filters as the deliveries query takes them', async () => {
    const from = '2026-03-01T00:00:00.000Z';
    const root = await mount(`${LOG}&push-deliveries.f.status=failed,outbox&push-deliveries.f.channel=webhook&push-deliveries.f.timeFrom=${from}`);
    expect(byTestId(root, 'filter-status')).not.toBeNull();
    const query = reads(requestMock, PUSH_API.deliveries).at(-1)?.query;
    expect(query).toEqual({ status: 'failed,outbox', channel: 'webhook', from, page: 1, size: 10, sort: undefined });
  });

  it('shows every attempt of a delivery and sends it again after confirming', async () => {
    const resent = deliveryDetail({
      status: 'sent',
      attempts: 6,
      attemptLog: [...deliveryDetail().attemptLog, { at: '2026-03-01T09:00:00Z', status: 'sent', responseCode: 200, error: null, durationMs: 40, resend: true }],
    });
    answer((path, opts) => {
      if (path === `${PUSH_API.deliveries}/${D1.id}/resend` && opts.method === 'POST') return resent;
      if (path === `${PUSH_API.deliveries}/${D1.id}`) return deliveryDetail();
      return undefined;
    });
    const root = await mount(LOG);
    click(rows(root)[0]!.querySelector('td:nth-child(3)'));
    await settle(8);
    const drawer = () => document.body.querySelector<HTMLElement>('.push-delivery-drawer')!;
    await until(() => expect(drawer().querySelectorAll('[data-testid=push-attempts] tbody tr.push-attempt-row')).toHaveLength(2), () => settle(1));
    const attempts = [...drawer().querySelectorAll<HTMLElement>('[data-testid=push-attempts] tbody tr.push-attempt-row')];
    expect(attempts[0]!.textContent).toContain('502');
    expect(attempts[0]!.textContent).toContain('Bad gateway');
    expect(attempts[0]!.textContent).toContain('120 ms');
    expect(attempts[0]!.querySelector('[data-testid=push-attempt-resend]')).toBeNull();
    expect(attempts[1]!.querySelector('[data-testid=push-attempt-resend]')?.textContent).toBe('By hand');
    expect(byTestId(drawer(), 'push-delivery-message')?.textContent).toContain('[Urgent] Reefer 07');

    click(byTestId(drawer(), 'push-delivery-resend'));
    await settle();
    expect(document.body.querySelector('[data-testid=push-resend-content]')?.textContent).toBe('The Webhook notification to https://hooks.example.com/alarms will be sent again now, once.');
    expect(writes(requestMock)).toEqual([]);
    click(confirmButton('Send again'));
    await settle();
    expect(writes(requestMock)).toEqual([[`${PUSH_API.deliveries}/${D1.id}/resend`, expect.objectContaining({ method: 'POST' })]]);
    // The answer is the delivery with its new attempt.
    await until(() => expect(drawer().querySelectorAll('[data-testid=push-attempts] tbody tr.push-attempt-row')).toHaveLength(3), () => settle(1));
    expect(byTestId(drawer(), 'push-delivery-resend')).toBeNull();
  });

  it('sends a failed delivery again from its row', async () => {
    answer((path, opts) => (path === `${PUSH_API.deliveries}/${D1.id}/resend` && opts.method === 'POST' ? deliveryDetail({ status: 'sent' }) : undefined));
    const root = await mount(LOG);
    click(rows(root)[0]!.querySelector('[data-testid=push-delivery-action-resend]'));
    await settle();
    click(confirmButton('Send again'));
    await settle();
    expect(writes(requestMock)).toEqual([[`${PUSH_API.deliveries}/${D1.id}/resend`, expect.objectContaining({ method: 'POST' })]]);
  });

  it('offers no sending again to a user who may not handle alarms', async () => {
    answer((path) => (path === `${PUSH_API.deliveries}/${D1.id}` ? deliveryDetail() : undefined), { ...DATA, me: userWith(['alarm:read']) });
    const root = await mount(`${LOG}&delivery=${D1.id}`);
    await until(() => expect(document.body.querySelectorAll('[data-testid=push-attempts] tbody tr.push-attempt-row')).toHaveLength(2), () => settle(1));
    expect(rows(root)[0]!.querySelector('[data-testid=push-delivery-action-resend]')).toBeNull();
    expect(document.body.querySelector('[data-testid=push-delivery-resend]')).toBeNull();
  });
});

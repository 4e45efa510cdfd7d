import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ALARM_API, POLICY_FILE_FORMAT, type PolicyRow } from '@iotc/shared/alarm';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, requestFile } from '../../../api/client.ts';
import { fakeApi, LEVEL_IDS, policyRow, until, writes, type Answer } from '../test-fixtures.ts';
import AlarmPoliciesPage from './alarm-policies-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);
const requestFileMock = vi.mocked(requestFile);

const P1 = policyRow();
const P2 = policyRow({
  id: 'bbbbbbbb-0000-4000-8000-000000000002',
  name: 'Fleet',
  description: '',
  enabled: false,
  scope: 'devices',
  targets: ['d1', 'd2', 'd3'],
  activeAlarms: 0,
  rules: [
    { id: 'r1', type: 'overspeed', enabled: true, threshold: 100, durationS: 30, hysteresis: 5, levelId: LEVEL_IDS[1]!, schedule: null, places: [], allowedTimes: null, route: [] },
    { id: 'r2', type: 'offline', enabled: true, threshold: 1800, durationS: 0, hysteresis: 0, levelId: LEVEL_IDS[2]!, schedule: null, places: [], allowedTimes: null, route: [] },
  ],
});
const P3 = policyRow({ id: 'bbbbbbbb-0000-4000-8000-000000000003', name: 'Yards', scope: 'assets', targets: ['a1', 'a2'], activeAlarms: 0 });
const P4 = policyRow({ id: 'bbbbbbbb-0000-4000-8000-000000000004', name: 'Boxes', scope: 'asset_kinds', targets: ['container', 'vehicle'], activeAlarms: 0 });
const POLICIES: PolicyRow[] = [P1, P2, P3, P4];

let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  requestMock.mockReset();
  requestFileMock.mockReset();
  fakeApi(requestMock, undefined, POLICIES);
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

function answer(own: Answer) {
  fakeApi(requestMock, own, POLICIES);
}

async function mount(): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/alarm/policy']}>
        <Routes>
          <Route path="/view/alarm/policy" element={<AlarmPoliciesPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(8);
  await until(() => expect(rows(mounted!.container)).toHaveLength(4), () => settle(1));
  return mounted.container;
}

function rows(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')];
}
const cellText = (tr: HTMLElement, testId: string) => tr.querySelector(`[data-testid=${testId}]`)?.textContent;

function confirmButton(text: string): HTMLButtonElement {
  const dialog = document.body.querySelector('.confirm-dialog');
  if (!dialog) throw new Error('no confirmation dialog');
  const button = [...dialog.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === text.replace(/\s/g, ''));
  if (!button) throw new Error(`no ${text} button`);
  return button;
}

describe('alarm policy screen', () => {
  it('lists the policies with what they apply to and their rule types', async () => {
    const root = await mount();
    expect(byTestId(root, 'screen-title')?.textContent).toBe('Alarm policy');
    const list = requestMock.mock.calls.find(([p, o]) => p === ALARM_API.policies && o?.query);
    expect(list?.[1]?.query).toMatchObject({ page: 1, size: 10, sort: 'updatedAt,desc' });
    const [r1, r2, r3, r4] = rows(root);
    expect(cellText(r1!, 'policy-scope-cell')).toBe('All devices');
    expect(cellText(r2!, 'policy-scope-cell')).toBe('3 devices');
    expect(cellText(r3!, 'policy-scope-cell')).toBe('Assets: 2');
    expect(cellText(r4!, 'policy-scope-cell')).toBe('Kinds: Container, Vehicle');
    expect([...r2!.querySelectorAll('[data-testid=policy-rules-cell] .ant-tag')].map((t) => t.textContent)).toEqual(['Overspeed', 'Device offline']);
    expect(r1!.querySelector('[data-testid=policy-enabled-cell] .ant-switch')?.getAttribute('aria-checked')).toBe('true');
    expect(r2!.querySelector('[data-testid=policy-enabled-cell] .ant-switch')?.getAttribute('aria-checked')).toBe('false');
    expect(byTestId(root, 'filter-keyword')).not.toBeNull();
    expect(byTestId(root, 'filter-enabled')).not.toBeNull();
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    const root = await mount();
    expect(byTestId(root, 'screen-title')?.textContent).toBe('告警策略');
    const [r1, r2, , r4] = rows(root);
    expect(cellText(r1!, 'policy-scope-cell')).toBe('全部设备');
    expect(cellText(r2!, 'policy-scope-cell')).toBe('3 台设备');
    expect(cellText(r4!, 'policy-scope-cell')).toBe('类型：集装箱、车辆');
    expect([...r2!.querySelectorAll('[data-testid=policy-rules-cell] .ant-tag')].map((t) => t.textContent)).toEqual(['超速', '设备离线']);
  });

  it('disables a policy from its switch only after confirming that its open alarms are cleared', async () => {
    answer((path, opts) => (opts.method === 'POST' && path.endsWith('/disable') ? { ...P1, enabled: false } : undefined));
    const root = await mount();
    click(rows(root)[0]!.querySelector('[data-testid=policy-enabled-cell] .ant-switch'));
    await settle();
    expect(document.body.querySelector('[data-testid=policy-disable-content]')?.textContent).toBe(
      'The policy "Reefer temperature" will stop raising alarms, and its 3 open alarms will be cleared.',
    );
    expect(writes(requestMock)).toEqual([]);
    click(confirmButton('Disable'));
    await settle();
    expect(writes(requestMock)).toEqual([[`${ALARM_API.policies}/${P1.id}/disable`, expect.objectContaining({ method: 'POST' })]]);
    await until(() => expect(document.body.textContent).toContain('"Reefer temperature" is disabled'), () => settle(1));
  });

  it('enables a disabled policy at once', async () => {
    answer((path, opts) => (opts.method === 'POST' && path.endsWith('/enable') ? { ...P2, enabled: true } : undefined));
    const root = await mount();
    click(rows(root)[1]!.querySelector('[data-testid=policy-enabled-cell] .ant-switch'));
    await settle();
    expect(document.body.querySelector('.confirm-dialog')).toBeNull();
    expect(writes(requestMock)).toEqual([[`${ALARM_API.policies}/${P2.id}/enable`, expect.objectContaining({ method: 'POST' })]]);
  });

  it('copies a policy after confirming and names the copy', async () => {
    answer((path, opts) => (opts.method === 'POST' && path.endsWith('/copy') ? { ...P1, id: 'copy', name: 'Reefer temperature (copy)', enabled: false } : undefined));
    const root = await mount();
    click(rows(root)[0]!.querySelector('[data-testid=policy-action-copy]'));
    await settle();
    expect(writes(requestMock)).toEqual([]);
    click(confirmButton('Copy'));
    await settle();
    expect(writes(requestMock)).toEqual([[`${ALARM_API.policies}/${P1.id}/copy`, expect.objectContaining({ method: 'POST' })]]);
    await until(() => expect(document.body.textContent).toContain('Created the copy "Reefer temperature (copy)"'), () => settle(1));
  });

  it('deletes a policy after saying its open alarms will be cleared', async () => {
    answer((path, opts) => (opts.method === 'DELETE' ? null : undefined));
    const root = await mount();
    click(rows(root)[0]!.querySelector('[data-testid=policy-action-delete]'));
    await settle();
    expect(document.body.querySelector('[data-testid=policy-delete-content]')?.textContent).toContain('its 3 open alarms cleared');
    click(confirmButton('Delete'));
    await settle();
    expect(writes(requestMock)).toEqual([[`${ALARM_API.policies}/${P1.id}`, expect.objectContaining({ method: 'DELETE' })]]);
  });

  it('exports the selected policies, or all of them, as the JSON file', async () => {
    requestFileMock.mockResolvedValue({ blob: new Blob(['{}'], { type: 'application/json' }), disposition: 'attachment; filename="alarm-policies-2026-03-01.json"' });
    // jsdom cannot follow the download link; what it would save is checked instead.
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const url = URL as unknown as { createObjectURL?: unknown; revokeObjectURL?: unknown };
    const before = { create: url.createObjectURL, revoke: url.revokeObjectURL };
    url.createObjectURL = () => 'blob:x';
    url.revokeObjectURL = () => {};
    try {
      const root = await mount();
      expect(byTestId(root, 'policy-export')?.textContent).toContain('Export all');
      click(byTestId(root, 'policy-export'));
      await settle();
      expect(requestFileMock.mock.calls[0]![0]).toBe(`${ALARM_API.policies}/export`);
      expect(requestFileMock.mock.calls[0]![1]?.query).toEqual({ ids: undefined });

      click(rows(root)[1]!.querySelector('.ant-checkbox-input'));
      click(rows(root)[3]!.querySelector('.ant-checkbox-input'));
      await settle();
      expect(byTestId(root, 'policy-export')?.textContent).toContain('Export 2 selected');
      click(byTestId(root, 'policy-export'));
      await settle();
      expect(requestFileMock.mock.calls[1]![1]?.query).toEqual({ ids: `${P2.id},${P4.id}` });
      expect(saved.mock.contexts.map((a) => (a as HTMLAnchorElement).download)).toEqual(['alarm-policies-2026-03-01.json', 'alarm-policies-2026-03-01.json']);
      await until(() => expect(document.body.textContent).toContain('Exported alarm-policies-2026-03-01.json'), () => settle(1));
    } finally {
      saved.mockRestore();
      url.createObjectURL = before.create;
      url.revokeObjectURL = before.revoke;
    }
  });

  it('imports a picked JSON file by posting its content', async () => {
    const file = { format: POLICY_FILE_FORMAT, policies: [{ name: 'From elsewhere', scope: 'all', rules: [{ id: 'r1', type: 'temp_high', threshold: 8, levelCode: 'urgent' }] }] };
    answer((path, opts) => (opts.method === 'POST' && path.endsWith('/import') ? { created: 1 } : undefined));
    const root = await mount();
    click(byTestId(root, 'policy-import'));
    await settle();
    const submit = byTestId<HTMLButtonElement>(document.body, 'policy-import-submit')!;
    expect(submit.disabled).toBe(true);
    const picker = document.body.querySelector<HTMLInputElement>('.alarm-import-modal input[type="file"]')!;
    await act(async () => {
      Object.defineProperty(picker, 'files', { value: [new File([JSON.stringify(file)], 'policies.json', { type: 'application/json' })], configurable: true });
      picker.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await until(() => expect(submit.disabled).toBe(false), () => settle(1));
    await act(async () => submit.click());
    await settle();
    const sent = writes(requestMock);
    expect(sent).toHaveLength(1);
    expect(sent[0]![0]).toBe(`${ALARM_API.policies}/import`);
    expect(sent[0]![1]).toMatchObject({ method: 'POST', body: file });
    await until(() => expect(byTestId(document.body, 'policy-import-done')?.textContent).toBe('Imported 1 policy'), () => settle(1));
  });

  it('refuses a file that is no JSON without sending it', async () => {
    const root = await mount();
    click(byTestId(root, 'policy-import'));
    await settle();
    const picker = document.body.querySelector<HTMLInputElement>('.alarm-import-modal input[type="file"]')!;
    await act(async () => {
      Object.defineProperty(picker, 'files', { value: [new File(['not json'], 'policies.json')], configurable: true });
      picker.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await until(() => expect(document.body.textContent).toContain('The file is not valid JSON'), () => settle(1));
    expect(byTestId<HTMLButtonElement>(document.body, 'policy-import-submit')!.disabled).toBe(true);
    expect(writes(requestMock)).toEqual([]);
  });
});

// The scheduled reports screen against a mocked client, in English and Chinese: the list with its
// texts and status tags; nothing without report:schedule; the on/off switch; the form refuses a bad e-mail address and a
// weekly temperature record with the reason shown, and sends a corrected one; "send now" asks
// first and says what happened; the run history drawer pages the runs with their errors.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { App } from 'antd';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import type { Page } from '@iotc/shared/envelope';
import { OPS_REPORT_API, type ScheduleRow, type ScheduleRun } from '@iotc/shared/ops-report';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, errorOf, settle, settleUntil, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, type RequestOptions } from '../../../api/client.ts';
import SchedulesPage from './schedules-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

const ORG = '00000000-0000-4000-8000-000000000001';
const ROOM = '00000000-0000-4000-8000-0000000000aa';
const TRUCK = '00000000-0000-4000-8000-0000000000bb';

function schedule(id: string, over: Partial<ScheduleRow>): ScheduleRow {
  return {
    id,
    name: id,
    kind: 'alarm',
    frequency: 'daily',
    hour: 7,
    timezone: 'Asia/Shanghai',
    lang: 'zh',
    format: 'pdf',
    subjectIds: [],
    recipients: ['ops@example.com'],
    enabled: true,
    nextRunAt: '2026-11-25T07:00:00.000Z',
    lastRunAt: null,
    lastStatus: null,
    createdBy: 'u1',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...over,
  };
}
const ROWS: ScheduleRow[] = [
  schedule('s1', { name: 'Cold room monthly', kind: 'temperature', frequency: 'monthly', hour: 6, subjectIds: [ROOM], recipients: ['qa@example.com', 'boss@example.com'], lastRunAt: '2026-11-01T06:00:00.000Z', lastStatus: 'sent' }),
  schedule('s2', { name: 'Weekly alarms', kind: 'alarm', frequency: 'weekly', format: 'xlsx', lang: 'en', subjectIds: [TRUCK], lastRunAt: '2026-11-23T07:00:00.000Z', lastStatus: 'failed', enabled: false }),
];
const RUNS: ScheduleRun[] = [
  { id: 'r1', scheduleId: 's2', start: '2026-11-16', end: '2026-11-22', status: 'failed', manual: false, filename: null, recipients: ['ops@example.com'], error: 'SMTP 550 mailbox unavailable', at: '2026-11-23T07:00:00.000Z' },
  { id: 'r2', scheduleId: 's2', start: '2026-11-09', end: '2026-11-15', status: 'outbox', manual: true, filename: 'alarm-report-2026-11-09.xlsx', recipients: ['ops@example.com'], error: null, at: '2026-11-16T07:00:00.000Z' },
];

let permissions: string[];
let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;

function user(): UserInfo {
  return { id: 'u1', account: 'operator', name: 'Operator', orgId: ORG, orgName: 'Cold Chain Co', email: null, phone: null, roles: ['r'], permissions, isPlatformAdmin: false, mustChangePassword: false };
}

const page = <T,>(rows: T[]): Page<T> => ({ rows, total: rows.length, page: 1, size: 10 });

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  permissions = ['device:read', 'report:schedule'];
  calls = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    const method = opts?.method ?? 'GET';
    if (path === API.info) return user();
    if (path === OPS_REPORT_API.schedules && method === 'GET') return page(ROWS);
    if (path === OPS_REPORT_API.schedules && method === 'POST') return schedule('s3', opts!.body as Partial<ScheduleRow>);
    if (path === `${OPS_REPORT_API.schedules}/s2` && method === 'PUT') return schedule('s2', opts!.body as Partial<ScheduleRow>);
    if (path === `${OPS_REPORT_API.schedules}/s2/enable`) return { ...ROWS[1]!, enabled: true };
    if (path === `${OPS_REPORT_API.schedules}/s1/run`) return { ...RUNS[0]!, id: 'r9', scheduleId: 's1', status: 'sent', error: null, recipients: ROWS[0]!.recipients };
    if (path === `${OPS_REPORT_API.schedules}/s2/runs`) return page(RUNS);
    if (path === `/api/iot/v2/vehicles/${TRUCK}`) return { id: TRUCK, code: 'TRK-1', name: 'Truck one' };
    if (path.startsWith('/api/iot/v2/')) throw new Error('not found');
    throw new Error(`unexpected call ${method} ${path}`);
  });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

async function mount() {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/report/schedules']}>
        <Routes>
          <Route path="/view/report/schedules" element={<SchedulesPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settleUntil(() => cells('rs-cell-name').length > 0);
}

const text = (id: string) => byTestId(document, id)?.textContent ?? null;
const cells = (id: string) => [...document.querySelectorAll(`tbody tr.ant-table-row [data-testid="${id}"]`)].map((c) => c.textContent);
const headers = () => [...document.querySelectorAll('.rs-page thead th')].map((th) => th.textContent);
const writes = () => calls.filter((c) => c.path !== API.info && c.opts?.method && c.opts.method !== 'GET');
/** The message under a form item whose control has this id (a radio group has no input to mark invalid). */
const itemError = (id: string) => document.querySelector(`#${id}`)?.closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
const modal = () => document.querySelector<HTMLElement>('.ant-modal')!;

async function pick(testId: string, label: string) {
  const select = byTestId(document, testId)!.closest('.ant-select') ?? byTestId(document, testId)!;
  act(() => {
    select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  });
  await settle();
  const option = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent === label);
  if (!option) throw new Error(`no option ${label}`);
  click(option);
  await settle();
}

async function submit() {
  click(document.querySelector('#rs-form-submit'));
  await settle(10);
}

function confirmButton(label: string): HTMLButtonElement {
  const dialog = document.body.querySelector('.confirm-dialog');
  if (!dialog) throw new Error('no confirmation dialog');
  const button = [...dialog.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === label.replace(/\s/g, ''));
  if (!button) throw new Error(`no ${label} button`);
  return button;
}

describe('scheduled reports', { timeout: 60_000 }, () => {
  it('lists the schedules with their report, time, recipients and last result', async () => {
    await mount();
    expect(text('screen-title')).toBe('Scheduled reports');
    expect(calls.find((c) => c.path === OPS_REPORT_API.schedules)!.opts?.query).toMatchObject({ page: 1, size: 10 });
    expect(headers()).toEqual(expect.arrayContaining(['Name', 'Report', 'Sent', 'State', 'Last result', 'Last run', 'Next run', 'Recipients', 'Language / format']));
    expect(cells('rs-cell-name')).toEqual(['Cold room monthly', 'Weekly alarms']);
    expect(cells('rs-cell-kind')).toEqual(['Temperature and humidity record', 'Alarm report']);
    expect(cells('rs-cell-send-at')).toEqual(['Monthly · 06:00 (Asia/Shanghai)', 'Weekly · 07:00 (Asia/Shanghai)']);
    expect(cells('rs-cell-lang-format')).toEqual(['Chinese · PDF', 'English · Excel']);
    expect(cells('rs-cell-recipients')).toEqual(['2', '1']);
    expect(cells('rs-cell-status')).toEqual(['Sent', 'Failed']);
    // A schedule that is off has no next run.
    expect(cells('rs-cell-next')[1]).toBe('—');
    expect(byTestId(document, 'rs-new')).not.toBeNull();
    expect(document.querySelectorAll('[data-testid="rs-action-edit"]')).toHaveLength(2);
  });

  it('reads in Chinese', async () => {
    await i18next.changeLanguage('zh');
    await mount();
    expect(text('screen-title')).toBe('定时报表');
    expect(cells('rs-cell-kind')).toEqual(['温湿度记录', '告警报表']);
    expect(cells('rs-cell-send-at')).toEqual(['每月 · 06:00 (Asia/Shanghai)', '每周 · 07:00 (Asia/Shanghai)']);
    expect(cells('rs-cell-status')).toEqual(['已发送', '失败']);
    expect(headers()).toEqual(expect.arrayContaining(['名称', '报表', '发送计划', '收件人数', '下次发送', '上次结果', '语言 / 格式']));
  });

  it('is forbidden without report:schedule, which reading needs too', async () => {
    permissions = ['device:read'];
    mounted = render(
      <App>
        <MemoryRouter initialEntries={['/view/report/schedules']}>
          <Routes>
            <Route path="/view/report/schedules" element={<SchedulesPage />} />
          </Routes>
        </MemoryRouter>
      </App>,
    );
    await settleUntil(() => calls.some((c) => c.path === API.info));
    await settle(10);
    expect(byTestId(document, 'report-schedules-page')).toBeNull();
    expect(calls.filter((c) => c.path === OPS_REPORT_API.schedules)).toEqual([]);
  });

  it('switches a schedule on from its row', async () => {
    await mount();
    click(document.querySelectorAll('[data-testid="rs-cell-enabled"] button')[1]!);
    await settleUntil(() => writes().length > 0);
    expect(writes().map((c) => [c.opts?.method, c.path])).toEqual([['POST', `${OPS_REPORT_API.schedules}/s2/enable`]]);
  });

  it('refuses a recipient that is no e-mail address, then creates the schedule', async () => {
    await mount();
    click(byTestId(document, 'rs-new'));
    await settleUntil(() => !!document.querySelector('#rs-name'));
    type(modal(), 'rs-name', 'Daily alarms');
    type(modal(), 'rs-recipients', 'ops@example.com,nope,');
    await settle();
    expect(document.querySelectorAll('[data-testid="rs-recipient-bad"]')).toHaveLength(1);
    await submit();
    expect(errorOf(modal(), 'rs-recipients')).toBe('Not an e-mail address: nope');
    expect(writes()).toEqual([]);

    click(document.querySelector('[data-testid="rs-recipient-bad"] .ant-tag-close-icon'));
    await submit();
    await settleUntil(() => writes().length > 0);
    const post = writes()[0]!;
    expect(post.path).toBe(OPS_REPORT_API.schedules);
    expect(post.opts?.body).toMatchObject({ name: 'Daily alarms', kind: 'alarm', frequency: 'daily', hour: 7, lang: 'en', format: 'pdf', subjectIds: [], recipients: ['ops@example.com'], enabled: true });
  });

  it('refuses a weekly temperature record with the reason shown, and sends it daily', async () => {
    await mount();
    click(document.querySelectorAll('[data-testid="rs-action-edit"]')[1]!);
    await settleUntil(() => (document.querySelector<HTMLInputElement>('#rs-name')?.value ?? '') === 'Weekly alarms');
    await pick('rs-kind', 'Temperature and humidity record');
    await settle(10);
    expect(itemError('rs-frequency')).toBe('“Weekly” is not offered for the Temperature and humidity record; pick another frequency');
    await submit();
    expect(writes()).toEqual([]);

    click(byTestId(modal(), 'rs-frequency-daily'));
    await submit();
    await settleUntil(() => writes().length > 0);
    expect(writes()[0]!.path).toBe(`${OPS_REPORT_API.schedules}/s2`);
    expect(writes()[0]!.opts).toMatchObject({ method: 'PUT', body: { kind: 'temperature', frequency: 'daily', subjectIds: [TRUCK], lang: 'en', format: 'xlsx' } });
  });

  it('sends now after asking, and says so', async () => {
    await mount();
    click(document.querySelectorAll('[data-testid="rs-action-run"]')[0]!);
    await settleUntil(() => !!document.querySelector('.confirm-dialog'));
    expect(text('rs-run-content')).toContain('2 recipients');
    expect(writes()).toEqual([]);
    click(confirmButton('Send now'));
    await settleUntil(() => !!document.querySelector('.ant-message-notice'));
    expect(writes().map((c) => [c.opts?.method, c.path])).toEqual([['POST', `${OPS_REPORT_API.schedules}/s1/run`]]);
    expect(document.querySelector('.ant-message-notice')!.textContent).toContain('“Cold room monthly” was sent to 2 recipients');
  });

  it('opens the run history with status tags and the error of a failed run', async () => {
    await mount();
    click(document.querySelectorAll('[data-testid="rs-action-history"]')[1]!);
    await settleUntil(() => document.querySelectorAll('[data-testid="rs-runs-table"] tbody tr.ant-table-row').length === 2);
    expect(calls.find((c) => c.path === `${OPS_REPORT_API.schedules}/s2/runs`)!.opts?.query).toEqual({ page: 1, size: 10 });
    const drawer = document.querySelector<HTMLElement>('.ant-drawer')!;
    expect(drawer.textContent).toContain('Runs of “Weekly alarms”');
    expect(byTestId(drawer, 'rs-status-failed')!.textContent).toBe('Failed');
    expect(byTestId(drawer, 'rs-status-outbox')!.textContent).toBe('In outbox');
    expect(byTestId(drawer, 'rs-run-error')!.textContent).toBe('SMTP 550 mailbox unavailable');
    expect(drawer.textContent).toContain('2026-11-16 ~ 2026-11-22');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { COMMAND_API, type CommandEventRow, type CommandPage, type CommandRow } from '@iotc/shared/command';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, type RequestOptions } from '../../../api/client.ts';
import { parsePayload, toRequest } from '../components/request-modal.tsx';
import RemoteControlPage from './remote-control-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);

const ME = 'u-me';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function user(permissions: string[]): UserInfo {
  return { id: ME, account: 'me', name: 'Me', orgId: 'o1', orgName: 'Cold Chain Co', email: null, phone: null, roles: ['r'], permissions, isPlatformAdmin: false, mustChangePassword: false };
}

function command(n: number, over: Partial<CommandRow> = {}): CommandRow {
  return {
    id: uuid(n),
    orgId: 'o1',
    orgName: 'Cold Chain Co',
    deviceRef: uuid(900 + n),
    deviceId: `86000000000000${n}`,
    deviceName: `Reefer ${n}`,
    kind: 'set_point',
    params: { celsius: -18 },
    remark: '',
    status: 'pending_review',
    requester: { id: 'u-other', account: 'li.wei', name: 'Li Wei' },
    requestedAt: '2026-03-01T01:00:00.000Z',
    reviewer: null,
    reviewedAt: null,
    reviewReason: '',
    sentAt: null,
    ackAt: null,
    failure: null,
    result: null,
    updatedAt: '2026-03-01T01:00:00.000Z',
    ...over,
  };
}

const OTHERS = command(1);
const MINE = command(2, { kind: 'report_interval', params: { seconds: 60 }, requester: { id: ME, account: 'me', name: 'Me' } });
const DONE = command(3, { kind: 'lock', params: {}, status: 'acknowledged', reviewer: { id: 'u-boss', account: 'boss', name: 'Boss' }, sentAt: '2026-03-01T02:00:00.000Z', ackAt: '2026-03-01T02:00:02.000Z', result: 'locked' });
const TIMED_OUT = command(4, { kind: 'reboot', params: {}, status: 'failed', failure: 'timeout', result: 'timeout' });
const COUNTS = { pending_review: 2, rejected: 0, sent: 0, acknowledged: 1, failed: 1, cancelled: 0 };
const EVENTS: CommandEventRow[] = [
  { id: 1, at: '2026-03-01T01:00:00.000Z', kind: 'requested', actor: 'li.wei', detail: {} },
  { id: 2, at: '2026-03-01T02:00:00.000Z', kind: 'approved', actor: 'boss', detail: { reason: '' } },
  { id: 3, at: '2026-03-01T02:00:00.000Z', kind: 'sent', actor: null, detail: { topic: 'devices/860000000000003/command' } },
  { id: 4, at: '2026-03-01T02:00:02.000Z', kind: 'acknowledged', actor: null, detail: { message: 'locked' } },
];

let calls: { path: string; opts: RequestOptions }[];
let permissions: string[];
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  calls = [];
  permissions = ['command:request', 'command:review'];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts: RequestOptions = {}) => {
    calls.push({ path, opts });
    if (path === API.info) return user(permissions);
    if (path === COMMAND_API.commands && (opts.method ?? 'GET') === 'GET') {
      const page: CommandPage = { rows: [OTHERS, MINE, DONE, TIMED_OUT], total: 4, page: 1, size: 10, counts: COUNTS };
      return page;
    }
    if (path.endsWith('/events')) return EVENTS;
    if (path.endsWith('/review')) return { ...OTHERS, status: 'sent' };
    if (path === COMMAND_API.commands) return MINE;
    throw new Error(`unexpected ${path}`);
  });
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

async function mount() {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/asset/remoteControl']}>
        <Routes>
          <Route path="/view/asset/remoteControl" element={<RemoteControlPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(10);
  await settleUntil(() => document.querySelectorAll('tbody tr.ant-table-row').length === 4);
}

const row = (id: string) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`)!;
const cell = (id: string, testId: string) => row(id).querySelector<HTMLElement>(`[data-testid=${testId}]`);
const writes = () => calls.filter((c) => (c.opts.method ?? 'GET') !== 'GET' && c.path !== API.info);

describe('remote-control review', { timeout: 120_000 }, () => {
  it('shows the commands in words with their status tags, results and the counts of each status', async () => {
    await mount();
    expect(byTestId(document, 'screen-title')!.textContent).toBe('Remote-control review');
    expect(cell(OTHERS.id, 'rc-cell-command')!.textContent).toBe('Set temperature set point: -18 °C');
    expect(cell(MINE.id, 'rc-cell-command')!.textContent).toBe('Set report interval: every 60 s');
    expect(cell(OTHERS.id, 'rc-cell-device')!.textContent).toBe('Reefer 1 (860000000000001)');
    expect(cell(OTHERS.id, 'rc-cell-requester')!.textContent).toBe('Li Wei (li.wei)');
    expect(cell(DONE.id, 'rc-cell-status')!.textContent).toBe('Acknowledged');
    expect(cell(DONE.id, 'rc-cell-result')!.textContent).toBe('locked');
    expect(cell(TIMED_OUT.id, 'rc-cell-status')!.textContent).toBe('Failed');
    expect(cell(TIMED_OUT.id, 'rc-cell-result')!.textContent).toBe('Timed out (no acknowledgement)');
    expect(byTestId(document, 'rc-tab-pending_review-count')!.textContent).toBe('2');
    expect(byTestId(document, 'rc-tab-all-count')!.textContent).toBe('4');
    const list = calls.find((c) => c.path === COMMAND_API.commands)!;
    expect(list.opts.query).toEqual({ page: 1, size: 10, sort: 'requestedAt,desc' });
  });

  it("offers Approve and Reject on others' pending requests only, and Cancel on one's own", async () => {
    await mount();
    expect(cell(OTHERS.id, 'rc-row-approve')).not.toBeNull();
    expect(cell(OTHERS.id, 'rc-row-reject')).not.toBeNull();
    expect(cell(OTHERS.id, 'rc-row-cancel')).toBeNull();
    expect(cell(MINE.id, 'rc-row-approve')).toBeNull();
    expect(cell(MINE.id, 'rc-row-cancel')).not.toBeNull();
    expect(cell(DONE.id, 'rc-row-approve')).toBeNull();
  });

  it('hides the review actions from a requester without command:review', async () => {
    permissions = ['command:request'];
    await mount();
    expect(cell(OTHERS.id, 'rc-row-approve')).toBeNull();
    expect(byTestId(document, 'rc-new')).not.toBeNull();
  });

  /** Reviewing is signed: the reviewer's password again. */
  function typePassword() {
    const input = document.querySelector<HTMLInputElement>('#rc-review-password')!;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, 'Secret#2026');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  it('rejecting needs a reason; with one it sends the review', async () => {
    await mount();
    click(cell(OTHERS.id, 'rc-row-reject'));
    await settle(5);
    click(byTestId(document, 'rc-review-submit'));
    await settleUntil(() => document.body.textContent!.includes('Please give the reason for the rejection'));
    expect(writes()).toEqual([]);
    const area = document.querySelector<HTMLTextAreaElement>('#rc-review-reason')!;
    const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
    setValue.call(area, 'not at night');
    area.dispatchEvent(new Event('input', { bubbles: true }));
    typePassword();
    await settle(3);
    click(byTestId(document, 'rc-review-submit'));
    await settleUntil(() => writes().length === 1);
    expect(writes()[0]).toMatchObject({
      path: `${COMMAND_API.commands}/${OTHERS.id}/review`,
      opts: { method: 'POST', body: { approve: false, reason: 'not at night', password: 'Secret#2026', meaning: 'rejected' } },
    });
  });

  it('approving sends the review at once', async () => {
    await mount();
    click(cell(OTHERS.id, 'rc-row-approve'));
    await settle(5);
    // Signed: without the password nothing is sent.
    click(byTestId(document, 'rc-review-submit'));
    await settleUntil(() => document.body.textContent!.includes('Please enter your password to sign'));
    expect(writes()).toEqual([]);
    typePassword();
    await settle(3);
    click(byTestId(document, 'rc-review-submit'));
    await settleUntil(() => writes().length === 1);
    expect(writes()[0]!.opts.body).toEqual({ approve: true, reason: '', password: 'Secret#2026', meaning: 'approved' });
  });

  it('opens the full story in the details', async () => {
    await mount();
    click(cell(DONE.id, 'rc-row-details'));
    await settleUntil(() => document.querySelectorAll('[data-testid=rc-event]').length === 4);
    const lines = [...document.querySelectorAll('[data-testid=rc-event]')].map((e) => e.firstElementChild!.textContent);
    expect(lines).toEqual(['Requested by li.wei', 'Approved by boss', 'Sent to devices/860000000000003/command', 'Acknowledged by the device: locked']);
  });

  it('shows nothing to a user with neither permission', async () => {
    permissions = ['device:read'];
    mounted = render(
      <App>
        <MemoryRouter>
          <RemoteControlPage />
        </MemoryRouter>
      </App>,
    );
    await settle(10);
    expect(byTestId(document, 'remote-control-page')).toBeNull();
  });
});

describe('the request form model', () => {
  it('reads a payload as a JSON object of at most 2 KB', () => {
    expect(parsePayload('')).toEqual({ ok: true, value: {} });
    expect(parsePayload('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parsePayload('[1]')).toEqual({ ok: false, code: 'COMMAND_PAYLOAD_OBJECT' });
    expect(parsePayload('{oops')).toEqual({ ok: false, code: 'COMMAND_PAYLOAD_OBJECT' });
    expect(parsePayload(JSON.stringify({ a: 'x'.repeat(2100) }))).toEqual({ ok: false, code: 'COMMAND_PAYLOAD_TOO_LARGE' });
  });

  it('builds the request of each kind', () => {
    expect(toRequest({ deviceRef: 'd', kind: 'set_point', celsius: -18, remark: ' x ' })).toEqual({ deviceRef: 'd', remark: 'x', kind: 'set_point', params: { celsius: -18 } });
    expect(toRequest({ deviceRef: 'd', kind: 'report_interval', seconds: 30 })).toEqual({ deviceRef: 'd', remark: '', kind: 'report_interval', params: { seconds: 30 } });
    expect(toRequest({ deviceRef: 'd', kind: 'custom', name: ' beep ', payload: '{"n":3}' })).toEqual({ deviceRef: 'd', remark: '', kind: 'custom', params: { name: 'beep', payload: { n: 3 } } });
    expect(toRequest({ deviceRef: 'd', kind: 'reboot' })).toEqual({ deviceRef: 'd', remark: '', kind: 'reboot', params: {} });
    expect(toRequest({ deviceRef: 'd', kind: 'position_query' })).toEqual({ deviceRef: 'd', remark: '', kind: 'position_query', params: {} });
    expect(toRequest({ deviceRef: 'd', kind: 'text_message', text: ' 请停车 ', tts: true })).toEqual({ deviceRef: 'd', remark: '', kind: 'text_message', params: { text: '请停车', tts: true, emergency: false } });
    expect(toRequest({ deviceRef: 'd', kind: 'terminal_control', action: 'reset' })).toEqual({ deviceRef: 'd', remark: '', kind: 'terminal_control', params: { action: 'reset' } });
  });
});

// The records screen against a fake API: audit tabs with the server's counts (the tab sends its
// status), the temperature marked outside the room's range, row actions per status and person
// (no review of one's own records), and the review dialog (rejecting needs a reason; a refusal
// stays in the dialog).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { WAREHOUSE_API, type RecordPage, type RecordRow } from '@iotc/shared/warehouse';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, type RequestOptions } from '../../../api/client.ts';
import RecordsPage from './records-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ME = uuid(501);
const OTHER = uuid(502);

function record(n: number, over: Partial<RecordRow> = {}): RecordRow {
  return {
    id: uuid(n),
    orgId: uuid(1),
    orgName: 'Cold Chain Co',
    warehouseId: uuid(10),
    warehouseCode: 'WH-SH-01',
    warehouseName: 'Shanghai DC',
    roomId: uuid(11),
    roomKind: 'cold_room',
    roomCode: 'WH-SH-01-C',
    roomName: 'Chilled room',
    province: '上海',
    provinceCode: '310000',
    city: '上海',
    address: null,
    zip: null,
    direction: 'in',
    goodsName: `Milk ${n}`,
    batchNo: `B-${n}`,
    quantity: 10,
    unit: 'cases',
    time: '2026-11-24T02:00:00.000Z',
    handler: 'Wang',
    remark: '',
    temperature: 4.5,
    humidity: 60,
    readingTime: '2026-11-24T01:55:00.000Z',
    readingDeviceId: 'LOGGER-1',
    noReading: false,
    tempMin: 2,
    tempMax: 8,
    humidityMin: null,
    humidityMax: null,
    auditStatus: 'pending',
    isAudit: 0,
    reviewer: null,
    reviewedAt: null,
    auditReason: '',
    createdBy: 'someone',
    createdById: OTHER,
    createdAt: '2026-11-24T02:00:00.000Z',
    updatedAt: '2026-11-24T02:00:00.000Z',
    ...over,
  };
}

const OTHERS = record(1, { direction: 'out', temperature: 9.3 });
const MINE = record(2, { createdById: ME, createdBy: 'operator' });
const DONE = record(3, { auditStatus: 'approved', isAudit: 1, reviewer: 'boss', reviewedAt: '2026-11-24T03:00:00.000Z' });
const COUNTS = { all: 7, pending: 4, approved: 2, rejected: 1 };

interface Call {
  path: string;
  opts: RequestOptions;
}
let calls: Call[];
let permissions: string[];
let refuseApprove: boolean;
let mounted: Rendered | undefined;

function me(): UserInfo {
  return { id: ME, account: 'operator', name: 'Operator', orgId: uuid(1), orgName: 'Cold Chain Co', email: null, phone: null, roles: ['r'], permissions, isPlatformAdmin: false, mustChangePassword: false };
}

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  calls = [];
  permissions = ['warehouse:read', 'warehouse:write', 'warehouse:audit'];
  refuseApprove = false;
  requestMock.mockReset();
  requestMock.mockImplementation((async (path: string, opts: RequestOptions = {}) => {
    calls.push({ path, opts });
    const method = opts.method ?? 'GET';
    if (path === API.info) return me();
    if (path === WAREHOUSE_API.records && method === 'GET') {
      const status = (opts.query ?? {}).auditStatus;
      const rows = [OTHERS, MINE, DONE].filter((r) => !status || r.auditStatus === status);
      return { rows, total: rows.length, page: 1, size: 10, counts: COUNTS } satisfies RecordPage;
    }
    if (path === WAREHOUSE_API.approve(OTHERS.id)) {
      if (refuseApprove) throw new ApiError(409, 'WAREHOUSE_STOCK_NEGATIVE', 'Not enough stock: approving this outbound record would leave the stock below zero: Milk 1: 3 cases');
      return { ...OTHERS, auditStatus: 'approved' };
    }
    if (path === WAREHOUSE_API.reject(OTHERS.id)) return { ...OTHERS, auditStatus: 'rejected' };
    throw new Error(`unexpected call ${method} ${path}`);
  }) as typeof request);
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

async function mount(search = '') {
  const { App } = await import('antd');
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/warehouse/manage${search}`]}>
        <Routes>
          <Route path="/view/warehouse/manage" element={<RecordsPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settleUntil(() => document.querySelectorAll('tbody tr.ant-table-row').length > 0);
  await settle();
}

const listCalls = () => calls.filter((c) => c.path === WAREHOUSE_API.records && (c.opts.method ?? 'GET') === 'GET');
const writes = () => calls.filter((c) => (c.opts.method ?? 'GET') !== 'GET' && c.path !== API.info).map((c) => [c.path, c.opts.body]);
const row = (id: string) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`)!;
const actions = (id: string) => [...row(id).querySelectorAll<HTMLElement>('button[data-testid]')].map((b) => b.dataset.testid);
const shownRows = () => [...document.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')].map((tr) => tr.dataset.rowKey);

function typeArea(el: HTMLTextAreaElement, value: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  act(() => {
    el.focus();
    setValue.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
function typeInput(el: HTMLInputElement, value: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    el.focus();
    setValue.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
/** Reviewing is signed: the reviewer's password again. */
const typePassword = () => typeInput(document.getElementById('wh-review-password') as HTMLInputElement, 'Secret#2026');
const submitReview = async () => {
  await act(async () => byTestId(document, 'wh-review-submit')!.click());
  await settle(10);
};

describe('warehouse records', { timeout: 60_000 }, () => {
  it('shows the audit tabs with the counts, and sends the status of the tab picked', async () => {
    await mount();
    expect([...document.querySelectorAll('.ant-tabs-tab')].map((t) => t.textContent)).toEqual(['All7', 'Pending4', 'Approved2', 'Rejected1']);
    expect(listCalls().at(-1)!.opts.query).toEqual({ page: 1, size: 10, sort: 'time,desc' });
    expect(shownRows()).toEqual([OTHERS.id, MINE.id, DONE.id]);
    click(byTestId(document, 'wh-tab-approved'));
    await settleUntil(() => shownRows().length === 1);
    expect(listCalls().at(-1)!.opts.query).toEqual({ auditStatus: 'approved', page: 1, size: 10, sort: 'time,desc' });
    expect(shownRows()).toEqual([DONE.id]);
    // The counts stay those of every status.
    expect(byTestId(document, 'wh-tab-pending-count')!.textContent).toBe('4');
  });

  it('marks a hand-over temperature outside the room range, and shows direction and status tags', async () => {
    await mount();
    const temp = (id: string) => row(id).querySelector<HTMLElement>('[data-testid=wh-cell-temperature]')!;
    expect(temp(OTHERS.id).querySelector('.iotc-cell-out-of-range')).not.toBeNull();
    expect(temp(MINE.id).querySelector('.iotc-cell-out-of-range')).toBeNull();
    expect(row(OTHERS.id).querySelector('[data-testid=wh-cell-direction]')!.textContent).toBe('Outbound');
    expect(row(DONE.id).querySelector('[data-testid=wh-cell-audit]')!.textContent).toBe('Approved');
    expect(row(DONE.id).querySelector('[data-testid=wh-cell-quantity]')!.textContent).toBe('10 cases');
  });

  it('offers review only on pending records of others, and edits only while pending', async () => {
    await mount();
    expect(actions(OTHERS.id)).toEqual(['wh-row-details', 'wh-row-edit', 'wh-row-delete', 'wh-row-approve', 'wh-row-reject']);
    expect(actions(MINE.id)).toEqual(['wh-row-details', 'wh-row-edit', 'wh-row-delete']);
    expect(actions(DONE.id)).toEqual(['wh-row-details']);
  });

  it('hides writing and review from a reader', async () => {
    permissions = ['warehouse:read'];
    await mount();
    await settleUntil(() => !byTestId(document, 'wh-new-in'));
    expect(actions(OTHERS.id)).toEqual(['wh-row-details']);
  });

  it('rejects only with a reason, and posts it', async () => {
    await mount();
    click(row(OTHERS.id).querySelector('[data-testid=wh-row-reject]'));
    await settle();
    const modal = document.querySelector<HTMLElement>('.wh-review-modal')!;
    expect(modal.textContent).toContain('Reject the record');
    await submitReview();
    expect(modal.textContent).toContain('Please give the reason for rejecting');
    typeArea(document.getElementById('wh-review-reason') as HTMLTextAreaElement, '   ');
    await submitReview();
    expect(writes()).toEqual([]);
    typeArea(document.getElementById('wh-review-reason') as HTMLTextAreaElement, ' Batch does not match ');
    await submitReview();
    expect(writes()).toEqual([]);
    typePassword();
    await submitReview();
    expect(writes()).toEqual([[WAREHOUSE_API.reject(OTHERS.id), { reason: 'Batch does not match', password: 'Secret#2026', meaning: 'rejected' }]]);
    await settleUntil(() => document.body.textContent!.includes('The record was rejected'));
  });

  it('approves without a note, and keeps a refusal in the dialog', async () => {
    refuseApprove = true;
    await mount();
    click(row(OTHERS.id).querySelector('[data-testid=wh-row-approve]'));
    await settle();
    typePassword();
    await submitReview();
    expect(writes()).toEqual([[WAREHOUSE_API.approve(OTHERS.id), { reason: '', password: 'Secret#2026', meaning: 'approved' }]]);
    await settleUntil(() => !!byTestId(document, 'wh-review-error'));
    expect(byTestId(document, 'wh-review-error')!.textContent).toContain('Not enough stock');
    refuseApprove = false;
    // The refusal clears the password: it is typed again.
    typePassword();
    await submitReview();
    await settleUntil(() => document.body.textContent!.includes('The record was approved'));
    expect(writes()).toHaveLength(2);
  });
});

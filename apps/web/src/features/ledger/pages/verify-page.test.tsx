// The verify screen and the public page against a mocked client, with ledgers made by the shared
// functions and checked for real in jsdom (Node's Web Crypto): all records verified in green; one
// changed reading flags exactly its minute in red with the reason, in English and Chinese; the
// "only problems" filter; the share dialog posts the same scope; a warehouse batch from the
// address (and a single record from an older one) is verified and shared; the share dialog makes
// a 30-day link unless another span is picked and shows its end; the "Share links" tab lists the
// links with their status and revokes an active one after a confirmation; the signing time shows
// in local time; the public page flags the same record, names a shared batch, and says, in English
// and Chinese, that a link expired, was revoked, or is not valid.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { API, type UserInfo } from '@iotc/shared/auth';
import { DEVICE_API } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { LEDGER_API, type PublicRecordsAnswer, type RecordsAnswer, type ShareRow, type ShareSubject } from '@iotc/shared/ledger/api';
import { WAREHOUSE_API } from '@iotc/shared/warehouse';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, type RequestOptions } from '../../../api/client.ts';
import { batchOptions } from '../api/pickers.ts';
import { BASE, makeLedger, removeReadings, SIGNED_AT, tamperReading } from '../lib/test-ledger.ts';
import VerifyPage from './verify-page.tsx';
import PublicVerifyPage from './public-verify-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);

const ORG = '00000000-0000-4000-8000-000000000001';
const DEVICE = '00000000-0000-4000-8000-0000000000d1';
const FROM = new Date(BASE - 3_600_000).toISOString();
const TO = new Date(BASE + 3_600_000).toISOString();
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF';
const RECORD = '00000000-0000-4000-8000-0000000000a1';
/** Every link ends (30 days unless chosen otherwise). */
const EXPIRES = '2027-01-15T08:00:00.000Z';
const SHARE_ID = '00000000-0000-4000-8000-0000000000e1';

const SHARE_ROWS: ShareRow[] = [
  { id: 's-active', kind: 'task', subject: 'T-0001 · Vaccines', from: null, to: null, orgName: 'Cold Chain Co', createdBy: 'operator', createdAt: '2026-11-20T02:00:00.000Z', expiresAt: '2026-12-20T02:00:00.000Z', revokedAt: null, revokedBy: null, status: 'active' },
  { id: 's-expired', kind: 'device', subject: 'LG00000001 · Ledger tracker', from: FROM, to: TO, orgName: 'Cold Chain Co', createdBy: 'operator', createdAt: '2026-10-01T02:00:00.000Z', expiresAt: '2026-10-02T02:00:00.000Z', revokedAt: null, revokedBy: null, status: 'expired' },
  { id: 's-revoked', kind: 'batch', subject: 'B-7', from: null, to: null, orgName: 'Cold Chain Co', createdBy: 'auditor', createdAt: '2026-09-01T02:00:00.000Z', expiresAt: '2027-09-01T02:00:00.000Z', revokedAt: '2026-09-02T02:00:00.000Z', revokedBy: 'operator', status: 'revoked' },
];

let answer: RecordsAnswer;
let subject: ShareSubject;
let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;

function user(): UserInfo {
  return { id: 'u1', account: 'operator', name: 'Operator', orgId: ORG, orgName: 'Cold Chain Co', email: null, phone: null, roles: ['r'], permissions: ['device:read', 'transport:read', 'warehouse:read'], isPlatformAdmin: false, mustChangePassword: false };
}

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  calls = [];
  answer = (await makeLedger()).answer;
  subject = { kind: 'device', deviceId: 'LG00000001', name: 'Ledger tracker', from: FROM, to: TO };
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user();
    if (path === `${DEVICE_API.devices}/${DEVICE}`) return { id: DEVICE, deviceId: 'LG00000001', name: 'Ledger tracker' };
    if (path === WAREHOUSE_API.record(RECORD)) return { id: RECORD, goodsName: 'Vaccines', batchNo: 'B-7', warehouseName: 'Shanghai cold store', time: '2026-11-24T06:00:00.000Z' };
    if (path === LEDGER_API.records) return answer;
    if (path === LEDGER_API.shares && opts?.method === 'POST') return { id: SHARE_ID, token: TOKEN, url: `/verify/${TOKEN}`, apiUrl: LEDGER_API.public(TOKEN), expiresAt: EXPIRES };
    if (path === LEDGER_API.shares) {
      const page: Page<ShareRow> = { rows: SHARE_ROWS, total: 23, page: Number(opts?.query?.page ?? 1), size: Number(opts?.query?.size ?? 10) };
      return page;
    }
    if (path === LEDGER_API.revoke('s-active')) return { ...SHARE_ROWS[0]!, status: 'revoked', revokedAt: '2026-11-25T02:00:00.000Z', revokedBy: 'operator' };
    if (path === LEDGER_API.public('expired')) throw new ApiError(410, 'LEDGER_SHARE_EXPIRED', 'This verification link has expired');
    if (path === LEDGER_API.public('revoked')) throw new ApiError(410, 'LEDGER_SHARE_REVOKED', 'This verification link was revoked');
    if (path === LEDGER_API.public(TOKEN)) {
      const pub: PublicRecordsAnswer = { ...answer, subject, expiresAt: EXPIRES };
      return pub;
    }
    if (path.startsWith('/api/iot/v2/ledger/public/')) throw new ApiError(404, 'NOT_FOUND', 'Not found');
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

async function mountScreen(until: string, search = `scope=device&deviceId=${DEVICE}&from=${FROM}&to=${TO}`) {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/ledger/verify?${search}`]}>
        <Routes>
          <Route path="/view/ledger/verify" element={<VerifyPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settleUntil(() => !!byTestId(document, until));
}

async function mountPublic(token: string, until: string) {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/verify/${token}`]}>
        <Routes>
          <Route path="/verify/:token" element={<PublicVerifyPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settleUntil(() => !!byTestId(document, until));
}

const text = (id: string) => byTestId(document, id)?.textContent ?? null;
const rows = () => [...document.querySelectorAll<HTMLElement>('[data-testid=ledger-records] tbody tr.ant-table-row')];
const resultsOf = () => rows().map((r) => r.dataset.result);

const TEXT = {
  en: { all: 'All 5 records verified', bad: '1 of 5 records do not match', mismatch: 'Does not match', reason: 'The stored data was changed after it was logged', verified: 'Verified', title: 'Record verification', minute: 'Sensor minute' },
  zh: { all: '全部 5 条记录验证通过', bad: '5 条记录中有 1 条不一致', mismatch: '不一致', reason: '存储的数据在记入账本后被修改', verified: '验证通过', title: '溯源验证', minute: '传感器分钟数据' },
} as const;

describe('ledger verify screen', { timeout: 60_000 }, () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`shows every record verified (${lang})`, async () => {
      await i18next.changeLanguage(lang);
      await mountScreen('ledger-overall');
      const t = TEXT[lang];
      expect(text('screen-title')).toBe(t.title);
      expect(byTestId(document, 'ledger-overall')!.dataset.state).toBe('ok');
      expect(text('ledger-overall')).toBe(t.all);
      expect(text('ledger-tree-size')).toBe('5');
      expect(text('ledger-origin')).toBe(answer.origin);
      expect(text('ledger-public-key')).toContain(answer.verifierKey);
      expect(text('ledger-signed-at')).toBe(dayjs(SIGNED_AT).format(DATETIME_FORMAT));
      expect(resultsOf()).toEqual(['verified', 'verified', 'verified', 'verified', 'verified']);
      expect(rows()[0]!.textContent).toContain(t.minute);
      expect(rows()[0]!.textContent).toContain(t.verified);
      const query = calls.find((c) => c.path === LEDGER_API.records)!.opts!.query;
      expect(query).toMatchObject({ deviceId: DEVICE, from: FROM, to: TO });
    });

    it(`flags exactly the minute whose stored reading changed (${lang})`, async () => {
      await i18next.changeLanguage(lang);
      answer = tamperReading(answer, 1, -25);
      await mountScreen('ledger-overall');
      const t = TEXT[lang];
      expect(byTestId(document, 'ledger-overall')!.dataset.state).toBe('problems');
      expect(text('ledger-overall')).toBe(t.bad);
      expect(resultsOf()).toEqual(['verified', 'digest-mismatch', 'verified', 'verified', 'verified']);
      const bad = rows()[1]!;
      expect(bad.dataset.ref).toBe(answer.items[1]!.ref);
      expect(bad.classList.contains('ledger-row-problem')).toBe(true);
      expect(bad.textContent).toContain(t.mismatch);
      expect(bad.textContent).toContain(t.reason);
      click(document.querySelector('[data-testid=ledger-only-problems]'));
      await settleUntil(() => rows().length === 1);
      expect(resultsOf()).toEqual(['digest-mismatch']);
    });

    it(`shows a minute whose readings a logged retention rule removed as removed, with the policy and the date (${lang})`, async () => {
      await i18next.changeLanguage(lang);
      answer = removeReadings((await makeLedger({ removal: { from: BASE, to: BASE + 60_000 } })).answer, [0]);
      await mountScreen('ledger-overall');
      expect(byTestId(document, 'ledger-overall')!.dataset.state).toBe('ok');
      expect(text('ledger-overall')).toBe(
        lang === 'en' ? '5 records verified; the readings of 1 were removed under a logged retention rule' : '5 条记录验证通过；1 条记录的读数已按已记入账本的保留策略删除',
      );
      expect(resultsOf()).toEqual(['removed', 'verified', 'verified', 'verified', 'verified', 'verified']);
      const removed = rows()[0]!;
      expect(removed.classList.contains('ledger-row-problem')).toBe(false);
      const date = dayjs('2026-11-24T06:04:00.000Z').format(DATETIME_FORMAT);
      expect(removed.textContent).toContain(
        lang === 'en' ? `Removed under policy “Packs kept 365 days (Demo)” on ${date}` : `已于 ${date} 按策略“Packs kept 365 days (Demo)”删除`,
      );
      expect(rows()[5]!.textContent).toContain(lang === 'en' ? 'Retention removal' : '保留策略删除');
    });
  }

  it('loads every page, paging on with `after`', async () => {
    const first = { ...answer, items: answer.items.slice(0, 2), next: 1 };
    const second = { ...answer, items: answer.items.slice(2), next: null };
    requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
      calls.push({ path, opts });
      if (path === API.info) return user();
      if (path === LEDGER_API.records) return opts?.query?.after === 1 ? second : first;
      return { id: DEVICE, deviceId: 'LG00000001', name: 'Ledger tracker' };
    });
    await mountScreen('ledger-overall');
    expect(calls.filter((c) => c.path === LEDGER_API.records).map((c) => c.opts?.query?.after)).toEqual([undefined, 1]);
    expect(resultsOf()).toHaveLength(5);
  });

  it('says when nothing was logged yet', async () => {
    answer = { ...answer, items: [] };
    await mountScreen('ledger-empty');
    expect(text('ledger-empty')).toContain('logged within a minute or two');
  });

  it('shares the same scope for 30 days unless another span is picked, and shows the link and its end', async () => {
    await mountScreen('ledger-share');
    click(byTestId(document, 'ledger-share'));
    await settleUntil(() => !!byTestId(document, 'ledger-share-create'));
    // Nothing is made before the maker says so; 30 days is picked.
    expect(calls.some((c) => c.path === LEDGER_API.shares)).toBe(false);
    const picked = () => document.querySelector<HTMLInputElement>('[data-testid=ledger-share-expiry] input:checked')?.value;
    expect(picked()).toBe('30');
    expect(text('ledger-share-ends')).toMatch(/^The link stops working at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const labels = [...document.querySelectorAll('[data-testid=ledger-share-expiry] label')].map((l) => l.textContent);
    expect(labels).toEqual(['1 day', '7 days', '30 days', '90 days', '1 year', 'Until a date']);
    click(document.querySelector('[data-testid=ledger-share-expiry] input[value="7"]'));
    await settleUntil(() => picked() === '7');
    click(byTestId(document, 'ledger-share-create'));
    await settleUntil(() => !!byTestId<HTMLInputElement>(document, 'ledger-share-url')?.value);
    expect(calls.find((c) => c.path === LEDGER_API.shares)!.opts).toMatchObject({ method: 'POST', body: { deviceId: DEVICE, from: FROM, to: TO, expiresInDays: 7 } });
    expect(byTestId<HTMLInputElement>(document, 'ledger-share-url')!.value).toBe(`${window.location.origin}/verify/${TOKEN}`);
    expect(text('ledger-share-expires')).toBe(`Valid until ${dayjs(EXPIRES).format(DATETIME_FORMAT)}`);
    expect(byTestId(document, 'ledger-certificate')).not.toBeNull();
  });

  it('asks for a date when "Until a date" is picked, and creates nothing before', async () => {
    await mountScreen('ledger-share');
    click(byTestId(document, 'ledger-share'));
    await settleUntil(() => !!byTestId(document, 'ledger-share-create'));
    click(document.querySelector('[data-testid=ledger-share-expiry] input[value="date"]'));
    await settleUntil(() => !!byTestId(document, 'ledger-share-expiry-date'));
    expect(text('ledger-share-ends')).toBe('Pick the last day the link works (at most 5 years from today)');
    expect(byTestId<HTMLButtonElement>(document, 'ledger-share-create')!.disabled).toBe(true);
  });
});

describe('ledger share links tab', { timeout: 60_000 }, () => {
  const TAB = {
    en: { tab: 'Share links', headers: ['Covers', 'Subject', 'Created by', 'Created at', 'Expires', 'Status'], status: ['Active', 'Expired', 'Revoked'], kind: 'Transport task', revoke: 'Revoke', title: 'Revoke this link?', done: 'Link revoked' },
    zh: { tab: '分享链接', headers: ['分享范围', '对象', '创建人', '创建时间', '过期时间', '状态'], status: ['有效', '已过期', '已撤销'], kind: '运输任务', revoke: '撤销', title: '确定撤销此链接？', done: '链接已撤销' },
  } as const;
  const shareRows = () => [...document.querySelectorAll<HTMLElement>('[data-testid=ledger-shares] tbody tr.ant-table-row')];
  const headers = () => [...document.querySelectorAll('[data-testid=ledger-shares] thead th')].map((h) => h.textContent?.trim()).filter(Boolean);

  for (const lang of ['en', 'zh'] as const) {
    it(`lists the links with their status and revokes an active one after a confirmation (${lang})`, async () => {
      await i18next.changeLanguage(lang);
      const x = TAB[lang];
      await mountScreen('ledger-shares', 'view=shares');
      await settleUntil(() => shareRows().length === 3);
      expect(text('ledger-tab-shares')).toBe(x.tab);
      expect(calls.find((c) => c.path === LEDGER_API.shares)!.opts?.query).toMatchObject({ page: 1, size: 10 });
      expect(headers()).toEqual(expect.arrayContaining([...x.headers]));
      expect(shareRows().map((r) => r.querySelector('[data-testid=ledger-shares-status]')?.textContent)).toEqual([...x.status]);
      expect(shareRows()[0]!.textContent).toContain(x.kind);
      expect(shareRows()[0]!.textContent).toContain('T-0001 · Vaccines');
      expect(shareRows()[1]!.textContent).toContain(`LG00000001 · Ledger tracker · ${dayjs(FROM).format(DATETIME_FORMAT)} ~ ${dayjs(TO).format(DATETIME_FORMAT)}`);
      expect(shareRows()[0]!.textContent).toContain(dayjs(SHARE_ROWS[0]!.expiresAt).format(DATETIME_FORMAT));
      expect(document.querySelector('[data-testid=ledger-shares] .ant-pagination-total-text')?.textContent).toContain('23');
      expect(document.querySelector('[data-testid=ledger-shares] .ant-pagination-item-3')).not.toBeNull();
      // Only the active link can be revoked.
      expect(shareRows().map((r) => !!r.querySelector('[data-testid=ledger-shares-revoke]'))).toEqual([true, false, false]);

      click(shareRows()[0]!.querySelector('[data-testid=ledger-shares-revoke]'));
      await settleUntil(() => !!document.querySelector('.confirm-dialog'));
      expect(document.querySelector('.confirm-dialog')!.textContent).toContain(x.title);
      expect(text('ledger-shares-revoke-content')).toContain('T-0001 · Vaccines');
      expect(calls.some((c) => c.path === LEDGER_API.revoke('s-active'))).toBe(false);
      const ok = [...document.querySelectorAll<HTMLButtonElement>('.confirm-dialog button')].find((b) => b.textContent?.replace(/\s/g, '') === x.revoke);
      click(ok!);
      await settleUntil(() => !!document.querySelector('.ant-message-notice'));
      expect(calls.find((c) => c.path === LEDGER_API.revoke('s-active'))!.opts).toMatchObject({ method: 'POST' });
      expect(document.querySelector('.ant-message-notice')!.textContent).toContain(x.done);
      // The list is read again.
      await settleUntil(() => calls.filter((c) => c.path === LEDGER_API.shares).length >= 2);
    });
  }

  it('says when there are no links', async () => {
    requestMock.mockImplementation(async (path: string) => {
      if (path === API.info) return user();
      if (path === LEDGER_API.shares) return { rows: [], total: 0, page: 1, size: 10 };
      throw new Error(`unexpected call ${path}`);
    });
    await mountScreen('ledger-shares-empty', 'view=shares');
    expect(text('ledger-shares-empty')).toBe('No share links yet');
    await settle();
  });
});

describe('ledger verify screen: warehouse', { timeout: 60_000 }, () => {
  it('verifies and shares the batch in the address', async () => {
    await mountScreen('ledger-overall', 'scope=warehouse&batch=B-7');
    expect(calls.find((c) => c.path === LEDGER_API.records)!.opts!.query).toMatchObject({ warehouseBatch: 'B-7' });
    expect(text('ledger-pick')).toContain('B-7');
    expect(text('ledger-scope-warehouse')).toBe('Warehouse batch');
    expect(byTestId(document, 'ledger-overall')!.dataset.state).toBe('ok');
    click(byTestId(document, 'ledger-share'));
    await settleUntil(() => !!byTestId(document, 'ledger-share-create'));
    click(byTestId(document, 'ledger-share-create'));
    await settleUntil(() => !!byTestId<HTMLInputElement>(document, 'ledger-share-url')?.value);
    expect(calls.find((c) => c.path === LEDGER_API.shares)!.opts).toMatchObject({ method: 'POST', body: { warehouseBatch: 'B-7', expiresInDays: 30 } });
  });

  it('still opens a single warehouse record from an older address', async () => {
    await mountScreen('ledger-overall', `scope=warehouse&recordId=${RECORD}`);
    expect(calls.find((c) => c.path === LEDGER_API.records)!.opts!.query).toMatchObject({ warehouseRecordId: RECORD });
    await settleUntil(() => (text('ledger-pick') ?? '').includes('Vaccines'));
    expect(text('ledger-pick')).toContain('Warehouse record: Vaccines · B-7');
  });

  it('offers each batch number once, with its goods', () => {
    const rows = [
      { batchNo: 'B-7', goodsName: 'Vaccines' },
      { batchNo: 'B-8', goodsName: 'Insulin' },
      { batchNo: 'B-7', goodsName: 'Insulin' },
      { batchNo: 'B-7', goodsName: 'Vaccines' },
      { batchNo: ' ', goodsName: 'No batch' },
    ];
    expect(batchOptions(rows)).toEqual([
      { value: 'B-7', label: 'B-7 · Vaccines, Insulin' },
      { value: 'B-8', label: 'B-8 · Insulin' },
    ]);
  });
});

describe('ledger public page', { timeout: 60_000 }, () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`checks the published records and flags the changed one (${lang})`, async () => {
      await i18next.changeLanguage(lang);
      answer = tamperReading(answer, 2, 4);
      await mountPublic(TOKEN, 'ledger-overall');
      expect(text('ledger-overall')).toBe(TEXT[lang].bad);
      expect(resultsOf()).toEqual(['verified', 'verified', 'digest-mismatch', 'verified', 'verified']);
      expect(text('ledger-subject')).toContain('LG00000001');
      expect(byTestId(document, 'ledger-how')).not.toBeNull();
      expect(byTestId(document, 'ledger-certificate')).not.toBeNull();
    });
  }

  it('names a shared warehouse batch', async () => {
    subject = { kind: 'batch', batchNo: 'B-7', records: 2, goods: ['Vaccines', 'Insulin'] };
    await mountPublic(TOKEN, 'ledger-overall');
    expect(text('ledger-subject')).toBe('Warehouse batch B-7: Vaccines, Insulin (2 approved records)');
    expect(text('ledger-signed-at')).toBe(dayjs(SIGNED_AT).format(DATETIME_FORMAT));
  });

  const ENDED = {
    en: { nope: 'This verification link is not valid', expired: 'This verification link has expired', revoked: 'This verification link was revoked' },
    zh: { nope: '此验证链接无效', expired: '此验证链接已过期', revoked: '此验证链接已被撤销' },
  } as const;
  for (const lang of ['en', 'zh'] as const) {
    for (const token of ['nope', 'expired', 'revoked'] as const) {
      it(`says a link that is ${token === 'nope' ? 'unknown' : token} so (${lang})`, async () => {
        await i18next.changeLanguage(lang);
        await mountPublic(token, 'ledger-invalid');
        expect(byTestId(document, 'ledger-invalid')!.dataset.reason).toBe(token === 'nope' ? 'invalid' : token);
        expect(text('ledger-invalid')).toContain(ENDED[lang][token]);
        expect(byTestId(document, 'ledger-overall')).toBeNull();
      });
    }
  }
});

// The verify screen and the public page against a mocked client, with ledgers made by the shared
// functions and checked for real in jsdom (Node's Web Crypto): all records verified in green; one
// changed reading flags exactly its minute in red with the reason, in English and Chinese; the
// "only problems" filter; the share dialog posts the same scope; a warehouse batch from the
// address (and a single record from an older one) is verified and shared; the signing time shows
// in local time; the public page flags the same record, names a shared batch, and an unknown link
// says it is not valid.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { API, type UserInfo } from '@iotc/shared/auth';
import { DEVICE_API } from '@iotc/shared/device';
import { LEDGER_API, type PublicRecordsAnswer, type RecordsAnswer, type ShareSubject } from '@iotc/shared/ledger/api';
import { WAREHOUSE_API } from '@iotc/shared/warehouse';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, type RequestOptions } from '../../../api/client.ts';
import { batchOptions } from '../api/pickers.ts';
import { BASE, makeLedger, SIGNED_AT, tamperReading } from '../lib/test-ledger.ts';
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
    if (path === LEDGER_API.shares) return { id: SHARE_ID, token: TOKEN, url: `/verify/${TOKEN}`, apiUrl: LEDGER_API.public(TOKEN), expiresAt: EXPIRES };
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

  it('shares the same scope and shows the public link', async () => {
    await mountScreen('ledger-share');
    click(byTestId(document, 'ledger-share'));
    await settleUntil(() => !!byTestId<HTMLInputElement>(document, 'ledger-share-url')?.value);
    expect(calls.find((c) => c.path === LEDGER_API.shares)!.opts).toMatchObject({ method: 'POST', body: { deviceId: DEVICE, from: FROM, to: TO } });
    expect(byTestId<HTMLInputElement>(document, 'ledger-share-url')!.value).toBe(`${window.location.origin}/verify/${TOKEN}`);
    expect(byTestId(document, 'ledger-certificate')).not.toBeNull();
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
    await settleUntil(() => !!byTestId<HTMLInputElement>(document, 'ledger-share-url')?.value);
    expect(calls.find((c) => c.path === LEDGER_API.shares)!.opts).toMatchObject({ method: 'POST', body: { warehouseBatch: 'B-7' } });
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

  it('says an unknown link is not valid', async () => {
    await mountPublic('nope', 'ledger-invalid');
    expect(text('ledger-invalid')).toContain('This verification link is not valid or has expired');
  });
});

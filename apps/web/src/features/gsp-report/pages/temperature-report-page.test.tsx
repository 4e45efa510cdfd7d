// The temperature and humidity record screen against a mocked client: nothing loads before an asset
// is picked; the header, summary and rows (no data, out of range highlighted) of a day; the PDF
// download with the same query; switching to the month sends YYYY-MM and shows the daily summary.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { GSP_REPORT_API, type GspReport, type GspRow } from '@iotc/shared/gsp-report';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, requestFile, type RequestOptions } from '../../../api/client.ts';
import TemperatureReportPage from './temperature-report-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
const requestMock = vi.mocked(request);
const requestFileMock = vi.mocked(requestFile);

const ORG = '00000000-0000-4000-8000-000000000001';
const ROOM = '00000000-0000-4000-8000-0000000000aa';

const row = (time: string, temperature: number | null, inRange: boolean | null, fine = false): GspRow => ({
  time,
  end: time,
  temperature,
  humidity: temperature === null ? null : 50,
  inRange,
  fine,
});

const summary = { temperature: { min: 5, max: 9.5, average: 5.38 }, humidity: { min: 50, max: 50, average: 50 }, slots: 4, slotsWithData: 3, completeness: 0.75, outOfRangeRows: 1, excursions: 1, outOfRangeS: 120 };
const DAY: GspReport = {
  orgName: 'Cold Chain Co',
  asset: { id: ROOM, code: 'CR-1', name: 'Room one', kind: 'cold_room' },
  mode: 'storage',
  devices: [{ deviceId: 'LOGGER-1', name: 'Logger' }],
  period: 'day',
  date: '2026-11-02',
  timezone: 'UTC',
  from: '2026-11-02T00:00:00.000Z',
  to: '2026-11-03T00:00:00.000Z',
  limits: { tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: null },
  intervals: { baseMin: 30, excursionMin: 2 },
  rows: [row('2026-11-02T00:00:00.000Z', null, null), row('2026-11-02T00:30:00.000Z', 5, true, true), row('2026-11-02T00:32:00.000Z', 9.5, false, true), row('2026-11-02T01:00:00.000Z', 5, true)],
  rowsTruncated: false,
  days: [],
  summary,
  generatedAt: '2026-11-03T00:00:00.000Z',
};

let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;
const restore: (() => void)[] = [];

function user(): UserInfo {
  return { id: 'u1', account: 'operator', name: 'Operator', orgId: ORG, orgName: 'Cold Chain Co', email: null, phone: null, roles: ['r'], permissions: ['device:read'], isPlatformAdmin: false, mustChangePassword: false };
}

beforeAll(() => {
  const url = URL as unknown as { createObjectURL?: unknown; revokeObjectURL?: unknown };
  const before = { create: url.createObjectURL, revoke: url.revokeObjectURL };
  url.createObjectURL = () => 'blob:x';
  url.revokeObjectURL = () => {};
  restore.push(() => {
    url.createObjectURL = before.create;
    url.revokeObjectURL = before.revoke;
  });
});
afterAll(() => restore.forEach((undo) => undo()));

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  calls = [];
  requestMock.mockReset();
  requestFileMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user();
    if (path === GSP_REPORT_API.temperature) {
      const q = opts?.query ?? {};
      return q.period === 'month' ? { ...DAY, period: 'month', date: String(q.date), rows: [DAY.rows[2]], days: [{ date: '2026-11-01', summary }] } : DAY;
    }
    throw new Error(`unexpected call ${path}`);
  });
  requestFileMock.mockResolvedValue({ blob: new Blob(['%PDF-']), disposition: 'attachment; filename="record.pdf"' });
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

function Where() {
  return <div data-testid="where">{useLocation().search}</div>;
}

async function mount(search: string, until: string) {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/report/temperature${search}`]}>
        <Routes>
          <Route
            path="/view/report/temperature"
            element={
              <>
                <TemperatureReportPage />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settleUntil(() => !!byTestId(document, until));
}

const reportCalls = () => calls.filter((c) => c.path === GSP_REPORT_API.temperature).map((c) => c.opts?.query);
const text = (id: string) => byTestId(document, id)?.textContent ?? null;
const bodyRows = (id: string) => [...byTestId(document, id)!.querySelectorAll('tbody tr.ant-table-row')];

describe('temperature and humidity record', { timeout: 60_000 }, () => {
  it('asks for an asset before loading anything', async () => {
    await mount('', 'gsp-empty');
    expect(text('screen-title')).toBe('Temperature and humidity reports');
    expect(reportCalls()).toEqual([]);
    expect(byTestId<HTMLButtonElement>(document, 'gsp-export-pdf')!.disabled).toBe(true);
  });

  it('shows the header, summary and rows with the out-of-range row highlighted, and downloads the PDF', async () => {
    await mount(`?kind=cold_room&assetId=${ROOM}&period=day&date=2026-11-02`, 'gsp-rows');
    expect(reportCalls()).toEqual([{ assetId: ROOM, period: 'day', date: '2026-11-02', format: 'json' }]);
    expect(text('gsp-interval')).toBe('Every 30 min; every 2 min while a value is out of range');
    expect(text('gsp-basis')).toBe('Sampled record (every 30 min), not every reading');
    expect(text('gsp-header')).toContain('Room one / CR-1');
    expect(text('gsp-header')).toContain('2.0 ~ 8.0 °C');
    expect(text('gsp-completeness')).toBe('75.0 % (3 of 4 slots with data)');
    expect(text('gsp-out-of-range')).toBe('1 records, 1 excursions, 0:02:00');
    const rows = bodyRows('gsp-rows');
    expect(rows).toHaveLength(4);
    expect(rows[0]!.textContent).toContain('No data');
    expect(rows.map((r) => r.classList.contains('gsp-out'))).toEqual([false, false, true, false]);
    expect(rows[2]!.textContent).toContain('9.5');
    expect(rows[2]!.textContent).toContain('No');

    click(byTestId(document, 'gsp-export-pdf'));
    await settleUntil(() => requestFileMock.mock.calls.length > 0);
    expect(requestFileMock.mock.calls[0]![0]).toBe(GSP_REPORT_API.temperature);
    expect(requestFileMock.mock.calls[0]![1]!.query).toEqual({ assetId: ROOM, period: 'day', date: '2026-11-02', format: 'pdf' });
  });

  it('switches to the month: sends YYYY-MM and shows the daily summary', async () => {
    await mount(`?kind=cold_room&assetId=${ROOM}&period=day&date=2026-11-02`, 'gsp-rows');
    click(byTestId(document, 'gsp-period-month'));
    await settleUntil(() => !!byTestId(document, 'gsp-days'));
    expect(reportCalls().at(-1)).toEqual({ assetId: ROOM, period: 'month', date: '2026-11', format: 'json' });
    expect(text('where')).toContain('period=month');
    expect(bodyRows('gsp-days')).toHaveLength(1);
    expect(bodyRows('gsp-days')[0]!.classList.contains('gsp-out')).toBe(true);
    expect(bodyRows('gsp-rows')).toHaveLength(1);
  });
});

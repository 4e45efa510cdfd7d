// The device online rate screen against a mocked client, in English and Chinese: the call built
// from the address (devices, week), the rate per day and overall, low rates marked, the chart; a
// day shows the devices with the lowest rate; nothing to report says so.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { OPS_REPORT_API, type OnlineReport } from '@iotc/shared/ops-report';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, requestFile, type RequestOptions } from '../../../api/client.ts';
import type { EChartOption, EChartProps } from '../../../components/chart/echart.tsx';
import { reportUrl } from '../components/ops-report-model.ts';
import OnlineReportPage from './online-report-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
// No canvas in jsdom: each chart is a stub holding the option it was given.
const charts = new Map<string, EChartOption>();
vi.mock('../../../components/chart/echart.tsx', () => ({
  EChart: (props: EChartProps) => {
    const id = props['data-testid'] ?? '';
    charts.set(id, props.option);
    return <div data-testid={id} />;
  },
}));
const requestMock = vi.mocked(request);
const requestFileMock = vi.mocked(requestFile);

const ORG = '00000000-0000-4000-8000-000000000001';
const D1 = '00000000-0000-4000-8000-0000000000d1';
const D2 = '00000000-0000-4000-8000-0000000000d2';
const DATES = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'];
const device = (deviceId: string, name: string, rate: number, days: (number | null)[], outages: number) => ({
  deviceId,
  name,
  asset: 'Room one',
  days,
  onlineS: rate * 7 * 86400,
  expectedS: 7 * 86400,
  rate,
  outages,
  longestOutageS: 3 * 3600,
  reports: 1000,
  lastSeenAt: '2026-11-22T23:59:00.000Z',
});
const WEEK: OnlineReport = {
  period: 'week',
  start: '2026-11-16',
  end: '2026-11-22',
  timezone: 'UTC',
  offlineAfterS: 1800,
  dates: DATES,
  rows: [device(D1, 'Logger one', 1, [1, 1, 1, 1, 1, 1, 1], 0), device(D2, 'Logger two', 0.5, [1, 1, 0.5, 0, 0, 0.5, null], 2)],
  overall: { days: [1, 1, 0.75, 0.5, 0.5, 0.75, 1], rate: 0.75 },
  generatedAt: '2026-11-23T00:00:00.000Z',
};
const DAY: OnlineReport = { ...WEEK, period: 'day', start: '2026-11-18', end: '2026-11-18', dates: ['2026-11-18'], rows: WEEK.rows.map((r) => ({ ...r, days: [r.rate] })), overall: { days: [0.75], rate: 0.75 } };

let answer: (q: Record<string, unknown>) => OnlineReport;
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
  charts.clear();
  calls = [];
  answer = (q) => (q.period === 'day' ? DAY : WEEK);
  requestMock.mockReset();
  requestFileMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user();
    if (path === OPS_REPORT_API.online) return answer(opts?.query ?? {});
    throw new Error(`unexpected call ${path}`);
  });
  requestFileMock.mockResolvedValue({ blob: new Blob(['%PDF-']), disposition: 'attachment; filename="alarm-report.pdf"' });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

function Where() {
  return <div data-testid="where">{useLocation().search}</div>;
}

async function mount(search: string, until = 'ops-table') {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/report/online${search}`]}>
        <Routes>
          <Route
            path="/view/report/online"
            element={
              <>
                <OnlineReportPage />
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

const reportCalls = () => calls.filter((c) => c.path === OPS_REPORT_API.online).map((c) => c.opts?.query ?? {});
const urls = () => reportCalls().map((q) => reportUrl(OPS_REPORT_API.online, q as Record<string, string>));
const text = (id: string) => byTestId(document, id)?.textContent ?? null;
const cells = (id: string) => [...document.querySelectorAll(`tbody tr.ant-table-row [data-testid="${id}"]`)].map((c) => c.textContent);
const headers = () => [...document.querySelectorAll('[data-testid="ops-table"] thead th')].map((th) => th.textContent);

describe('device online rate', { timeout: 60_000 }, () => {
  it('asks for the devices and week of the address and shows the rate per day and overall', async () => {
    await mount(`?period=week&date=2026-11-20&ids=${D1},${D2}`);
    expect(text('screen-title')).toBe('Device online rate');
    expect(urls()).toEqual([`/api/iot/v2/reports/online?period=week&date=2026-11-16&deviceIds=${D1}%2C${D2}&format=json`]);
    expect(headers()).toEqual(expect.arrayContaining(['Device', 'Asset', 'Online rate', '11-16', '11-22', 'Outages', 'Longest outage', 'Last report']));
    expect(cells('ops-cell-name')).toEqual(['Logger one', 'Logger two']);
    expect(cells('ops-cell-rate')).toEqual(['100.0%', '50.0%']);
    expect(cells('ops-cell-day-3')).toEqual(['100.0%', '0.0%']);
    expect(cells('ops-cell-day-6')).toEqual(['100.0%', '—']);
    // A rate under 90 % stands out.
    expect(document.querySelectorAll('tbody tr.ant-table-row [data-testid="ops-cell-rate"].ops-low')).toHaveLength(1);
    expect(text('ops-total-rate')).toBe('75.0%');
    expect(text('ops-card-rate')).toContain('75.0%');
    expect(text('ops-card-threshold')).toContain('30 min');
    const series = charts.get('ops-chart')!.series as { type: string; data: (number | null)[] }[];
    expect(series[0]!.type).toBe('line');
    expect(series[0]!.data).toEqual([100, 100, 75, 50, 50, 75, 100]);
  });

  it('for one day: no per-day columns, the lowest rates as bars', async () => {
    await mount('?period=day&date=2026-11-18');
    expect(urls()).toEqual(['/api/iot/v2/reports/online?period=day&date=2026-11-18&format=json']);
    expect(headers()).not.toContain('11-18');
    expect((charts.get('ops-chart')!.yAxis as { data: string[] }).data).toEqual(['Logger one', 'Logger two']);
  });

  it('switches to the month of the day shown', async () => {
    await mount('?period=day&date=2026-11-18');
    click(byTestId(document, 'ops-period-month'));
    await settleUntil(() => reportCalls().length > 1);
    expect(reportCalls().at(-1)).toEqual({ period: 'month', date: '2026-11-01', format: 'json' });
    expect(text('where')).toContain('period=month');
  });

  it('reads in Chinese and says when there is no device', async () => {
    await i18next.changeLanguage('zh');
    answer = () => ({ ...WEEK, rows: [], overall: { days: DATES.map(() => null), rate: null } });
    await mount('?period=week&date=2026-11-18', 'ops-empty');
    expect(text('screen-title')).toBe('设备在线率');
    expect(text('ops-empty')).toContain('没有可统计的设备');
    expect(text('ops-range')).toBe('周报：2026-11-16 ~ 2026-11-22（时区 UTC）');
    expect(text('ops-export-pdf')).toContain('下载 PDF');
  });
});

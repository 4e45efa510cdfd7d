// The mileage screen against a mocked client, in English and Chinese: the call built from the
// address (vehicles, month), km per day and in total, the source translated, the chart stacked per
// day; one day shows the vehicles that went furthest; the Excel download.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { OPS_REPORT_API, type MileageReport } from '@iotc/shared/ops-report';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, requestFile, type RequestOptions } from '../../../api/client.ts';
import type { EChartOption, EChartProps } from '../../../components/chart/echart.tsx';
import { reportUrl } from '../components/ops-report-model.ts';
import MileageReportPage from './mileage-report-page.tsx';

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
const V1 = '00000000-0000-4000-8000-0000000000e1';
const DATES = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
const vehicle = (assetId: string, name: string, plate: string | null, perDay: number, source: 'odometer' | 'gps' | 'none') => ({
  assetId,
  name,
  kind: 'vehicle',
  plate,
  days: DATES.map((_, i) => (i === 0 ? null : perDay)),
  totalKm: perDay * 29,
  source,
  drivingS: 3600 * 29,
  trips: 58,
  maxSpeedKmh: 92.4,
});
const MONTH: MileageReport = {
  period: 'month',
  start: '2026-11-01',
  end: '2026-11-30',
  timezone: 'UTC',
  dates: DATES,
  rows: [vehicle(V1, 'Truck one', '沪A12345', 100.25, 'odometer'), vehicle('v2', 'Truck two', null, 10, 'gps')],
  totalKm: 3197.25,
  generatedAt: '2026-12-01T00:00:00.000Z',
};
const DAY: MileageReport = { ...MONTH, period: 'day', start: '2026-11-18', end: '2026-11-18', dates: ['2026-11-18'], rows: MONTH.rows.map((r) => ({ ...r, days: [r.days[17]!], totalKm: r.days[17]! })), totalKm: 110.25 };

let answer: (q: Record<string, unknown>) => MileageReport;
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
  answer = (q: Record<string, unknown>) => (q.period === 'day' ? DAY : MONTH);
  requestMock.mockReset();
  requestFileMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user();
    if (path === OPS_REPORT_API.mileage) return answer(opts?.query ?? {});
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
      <MemoryRouter initialEntries={[`/view/report/mileage${search}`]}>
        <Routes>
          <Route
            path="/view/report/mileage"
            element={
              <>
                <MileageReportPage />
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

const reportCalls = () => calls.filter((c) => c.path === OPS_REPORT_API.mileage).map((c) => c.opts?.query ?? {});
const urls = () => reportCalls().map((q) => reportUrl(OPS_REPORT_API.mileage, q as Record<string, string>));
const text = (id: string) => byTestId(document, id)?.textContent ?? null;
const cells = (id: string) => [...document.querySelectorAll(`tbody tr.ant-table-row [data-testid="${id}"]`)].map((c) => c.textContent);
const headers = () => [...document.querySelectorAll('[data-testid="ops-table"] thead th')].map((th) => th.textContent);

describe('mileage', { timeout: 60_000 }, () => {
  it('asks for the vehicles and month of the address and shows km per day and in total', async () => {
    await mount(`?period=month&date=2026-11-18&ids=${V1}`);
    expect(text('screen-title')).toBe('Mileage');
    expect(urls()).toEqual([`/api/iot/v2/reports/mileage?period=month&date=2026-11-01&assetIds=${V1}&format=json`]);
    expect(headers()).toEqual(expect.arrayContaining(['Vehicle / container', 'Plate', '11-01', '11-30', 'Total (km)', 'Measured by', 'Driving time', 'Trips']));
    // The furthest first.
    expect(cells('ops-cell-name')).toEqual(['Truck one', 'Truck two']);
    expect(cells('ops-cell-day-0')).toEqual(['—', '—']);
    expect(cells('ops-cell-day-1')).toEqual(['100.3', '10.0']);
    expect(cells('ops-cell-total')).toEqual(['2907.3', '290.0']);
    expect(cells('ops-cell-source')).toEqual(['Odometer', 'GPS track']);
    expect(text('ops-total-km')).toBe('3197.3');
    expect(text('ops-card-totalKm')).toContain('3197.3 km');
    const series = charts.get('ops-chart')!.series as { name: string; stack: string; data: (number | null)[] }[];
    expect(series.map((s) => [s.name, s.stack])).toEqual([
      ['Truck one', 'km'],
      ['Truck two', 'km'],
    ]);
    expect(series[0]!.data[1]).toBe(100.3);
  });

  it('for one day: the vehicles that went furthest as bars, and the Excel download', async () => {
    await mount('?period=day&date=2026-11-18');
    expect(headers()).not.toContain('11-18');
    expect((charts.get('ops-chart')!.yAxis as { data: string[] }).data).toEqual(['Truck two', 'Truck one']);
    click(byTestId(document, 'ops-export-xlsx'));
    await settleUntil(() => requestFileMock.mock.calls.length > 0);
    expect(requestFileMock.mock.calls[0]![0]).toBe(OPS_REPORT_API.mileage);
    expect(requestFileMock.mock.calls[0]![1]!.query).toEqual({ period: 'day', date: '2026-11-18', format: 'xlsx' });
  });

  it('reads in Chinese', async () => {
    await i18next.changeLanguage('zh');
    await mount('?period=month&date=2026-11-18');
    expect(text('screen-title')).toBe('里程报表');
    expect(cells('ops-cell-source')).toEqual(['里程表', 'GPS 轨迹']);
    expect(headers()).toEqual(expect.arrayContaining(['车辆 / 集装箱', '车牌号', '合计（公里）', '行驶时长']));
    expect(text('ops-card-driving')).toContain('58小时0分钟');
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { PLATFORM_API, type OrgNode } from '@iotc/shared/platform';
import { REPORT_API, type ProductionReport, type ProductionRow } from '@iotc/shared/report';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, requestFile, type RequestOptions } from '../../../api/client.ts';
import type { EChartOption, EChartProps } from '../../../components/chart/echart.tsx';
import ProductionPage from './production-page.tsx';

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
const CHILD = '00000000-0000-4000-8000-000000000002';
// The server's own words (in the request's language), not a text of the client.
const TOO_LONG = 'Range too long: a production report covers at most 366 days';

function row(key: string, over: Partial<ProductionRow> = {}): ProductionRow {
  return { key, tasks: 0, pending: 0, inTransit: 0, delivered: 0, cancelled: 0, onTime: 0, late: 0, onTimeRate: null, withAlarms: 0, alarms: 0, alarmRate: null, distanceM: 0, goodsValue: 0, ...over };
}

const BY_WEEK: ProductionReport = {
  rows: [
    row('2026-03-02', { tasks: 5, delivered: 4, pending: 1, onTime: 4, late: 0, onTimeRate: 1, withAlarms: 1, alarms: 3, alarmRate: 0.2, distanceM: 120_400, goodsValue: 250_000 }),
    row('2026-03-09', { tasks: 7, delivered: 4, inTransit: 2, cancelled: 1, onTime: 3, late: 1, onTimeRate: 0.75, withAlarms: 0, alarms: 0, alarmRate: 0, distanceM: 80_000, goodsValue: 1_000 }),
    row('2026-03-16', { tasks: 0 }),
  ],
  totals: row('', { tasks: 12, delivered: 8, pending: 1, inTransit: 2, cancelled: 1, onTime: 7, late: 1, onTimeRate: 0.875, withAlarms: 1, alarms: 3, alarmRate: 1 / 11, distanceM: 200_400, goodsValue: 251_000 }),
};
const BY_CUSTOMER: ProductionReport = {
  rows: [row('City Hospital', { tasks: 9, delivered: 6, onTimeRate: 0.5 }), row('', { tasks: 3, delivered: 2 })],
  totals: row('', { tasks: 12, delivered: 8, onTimeRate: 0.5 }),
};

let permissions: string[];
let orgs: OrgNode[];
let answer: (query: Record<string, unknown>) => ProductionReport;
let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;
const restore: (() => void)[] = [];

function org(id: string, parentId: string | null, name: string, children: OrgNode[]): OrgNode {
  return { id, parentId, code: name.toLowerCase().replace(/\W+/g, '-'), name, kind: 'tenant', status: 'active', userCount: 1, createdAt: '2026-01-01T00:00:00.000Z', children };
}

function user(): UserInfo {
  return { id: 'u1', account: 'operator', name: 'Operator', orgId: ORG, orgName: 'Cold Chain Co', email: null, phone: null, roles: ['r'], permissions, isPlatformAdmin: false, mustChangePassword: false };
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
  permissions = ['transport:read'];
  orgs = [];
  calls = [];
  answer = (q) => (q.groupBy === 'customer' ? BY_CUSTOMER : BY_WEEK);
  requestMock.mockReset();
  requestFileMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user();
    if (path === PLATFORM_API.orgTree) return orgs;
    if (path === REPORT_API.production) {
      const q = opts?.query ?? {};
      const days = (Date.parse(String(q.to)) - Date.parse(String(q.from))) / 86_400_000;
      if (days > 366) throw new ApiError(400, 'REPORT_RANGE_TOO_LONG', TOO_LONG);
      return answer(q);
    }
    throw new Error(`unexpected call ${path}`);
  });
  requestFileMock.mockResolvedValue({ blob: new Blob(['x']), disposition: 'attachment; filename="production.csv"' });
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{loc.search}</div>;
}

async function mount(search: string) {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/transport/reports${search}`]}>
        <Routes>
          <Route
            path="/view/transport/reports"
            element={
              <>
                <ProductionPage />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settleUntil(() => !!byTestId(document, 'tr-totals') || !!byTestId(document, 'tr-error') || !!byTestId(document, 'tr-empty'));
}

const reportCalls = () => calls.filter((c) => c.path === REPORT_API.production).map((c) => c.opts?.query);
const text = (id: string) => byTestId(document, id)?.textContent ?? null;
const cells = (id: string) => [...document.querySelectorAll(`tbody tr.ant-table-row [data-testid=${id}]`)].map((c) => c.textContent);
const instant = (local: string) => dayjs(local).toISOString();

describe('production reports', { timeout: 60_000 }, () => {
  it('sends the range, grouping and period and shows totals, rates as percentages and the chart', async () => {
    await mount('?from=2026-03-01&to=2026-03-31&period=week');
    expect(text('screen-title')).toBe('Production reports');
    expect(reportCalls().at(-1)).toEqual({ from: instant('2026-03-01T00:00:00'), to: instant('2026-04-01T00:00:00'), groupBy: 'period', period: 'week' });
    expect(text('tr-card-tasks')).toContain('12');
    expect(text('tr-card-onTimeRate')).toContain('87.5%');
    expect(text('tr-card-alarmRate')).toContain('9.1%');
    expect(text('tr-card-distance')).toContain('200.4 km');
    expect(cells('tr-cell-key')).toEqual(['2026-03-02', '2026-03-09', '2026-03-16']);
    expect(cells('tr-cell-onTimeRate')).toEqual(['100%', '75%', '-']);
    expect(cells('tr-cell-alarmRate')).toEqual(['20%', '0%', '-']);
    expect(cells('tr-cell-distanceM')).toEqual(['120.4', '80.0', '0.0']);
    const totals = byTestId(document, 'tr-totals')!;
    // The totals are the table's last row.
    expect([...totals.closest('table')!.querySelectorAll('tr')].at(-1)).toBe(totals);
    expect(totals.textContent).toContain('Total');
    expect(text('tr-total-tasks')).toBe('12');
    expect(text('tr-total-onTimeRate')).toBe('87.5%');
    expect(text('tr-total-goodsValue')).toBe('251,000');
    const series = charts.get('tr-chart')!.series as { type: string; data: unknown[] }[];
    expect(series.map((s) => s.type)).toEqual(['bar', 'line']);
    expect(series[1]!.data).toEqual([100, 75, null]);
  });

  it('groups by customer: no period sent, "(none)" for tasks without one, top groups as horizontal bars', async () => {
    await mount('?from=2026-03-01&to=2026-03-31&period=week');
    click(byTestId(document, 'tr-group-customer'));
    await settleUntil(() => cells('tr-cell-key').includes('(none)'));
    expect(reportCalls().at(-1)).toEqual({ from: instant('2026-03-01T00:00:00'), to: instant('2026-04-01T00:00:00'), groupBy: 'customer' });
    expect(text('where')).toContain('groupBy=customer');
    expect(cells('tr-cell-key')).toEqual(['City Hospital', '(none)']);
    expect(cells('tr-cell-onTimeRate')).toEqual(['50%', '-']);
    const option = charts.get('tr-chart')!;
    expect((option.yAxis as { type: string }).type).toBe('category');
    expect((option.yAxis as { data: string[] }).data).toEqual(['(none)', 'City Hospital']);
  });

  it("shows the server's refusal of a range longer than 366 days", async () => {
    await mount('?from=2024-01-01&to=2025-12-31');
    expect(reportCalls()).toHaveLength(1);
    expect(text('tr-error')).toBe(TOO_LONG);
    expect(byTestId(document, 'tr-totals')).toBeNull();
  });

  it('says when no task falls in the period', async () => {
    answer = () => ({ rows: [], totals: row('') });
    await mount('?from=2026-03-01&to=2026-03-31');
    expect(text('tr-empty')).toContain('No tasks in this period');
    expect(byTestId(document, 'tr-chart')).toBeNull();
  });

  it('exports with the same filters, and offers the organisation when there is a choice', async () => {
    permissions = ['transport:read', 'org:read'];
    orgs = [org(ORG, null, 'Cold Chain Co', [org(CHILD, ORG, 'East', [])])];
    await mount(`?from=2026-03-01&to=2026-03-31&groupBy=route&orgId=${CHILD}`);
    await settleUntil(() => !!byTestId(document, 'tr-org'));
    expect(byTestId(document, 'tr-org')).not.toBeNull();
    expect(reportCalls().at(-1)).toMatchObject({ groupBy: 'route', orgId: CHILD });
    click(byTestId(document, 'tr-export-csv'));
    await settle();
    expect(requestFileMock).toHaveBeenCalledTimes(1);
    const [path, opts] = requestFileMock.mock.calls[0]!;
    expect(path).toBe(`${REPORT_API.production}/export`);
    expect(opts?.query).toEqual({ from: instant('2026-03-01T00:00:00'), to: instant('2026-04-01T00:00:00'), groupBy: 'route', orgId: CHILD, format: 'csv' });
  });
});

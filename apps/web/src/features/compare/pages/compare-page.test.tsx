// The comparison screen with a mocked client: nothing is asked before two targets are picked; the
// query carries the targets and both periods; bars of A beside B and the table with ▲/▼; the
// server's refusal; only the kinds the user may read and only the metrics of the kind.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { COMPARE_API, type CompareAnswer } from '@iotc/shared/compare';
import { render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, type RequestOptions } from '../../../api/client.ts';
import type { EChartOption, EChartProps } from '../../../components/chart/echart.tsx';
import ComparePage from './compare-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({ ...(await importOriginal<typeof client>()), request: vi.fn(), requestFile: vi.fn() }));
// No canvas in jsdom: the chart is a stub holding its option.
const charts = new Map<string, EChartOption>();
vi.mock('../../../components/chart/echart.tsx', () => ({
  EChart: (props: EChartProps) => {
    charts.set(props['data-testid'] ?? '', props.option);
    return <div data-testid={props['data-testid']} />;
  },
}));
const requestMock = vi.mocked(request);

const W1 = '00000000-0000-4000-8000-0000000000a1';
const W2 = '00000000-0000-4000-8000-0000000000a2';
const ANSWER: CompareAnswer = {
  metric: 'compliance',
  unit: '%',
  rows: [
    { id: W1, name: 'North', a: 80, b: 75.5, change: 4.5 },
    { id: W2, name: 'South', a: 50, b: 62, change: -12 },
  ],
};

let permissions: string[];
let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;

function user(): UserInfo {
  return { id: 'u1', account: 'op', name: 'Op', orgId: 'o', orgName: 'Org', email: null, phone: null, roles: ['r'], permissions, isPlatformAdmin: false, mustChangePassword: false };
}

beforeEach(async () => {
  await setEnglish();
  charts.clear();
  permissions = ['device:read', 'transport:read'];
  calls = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user();
    if (path === '/api/iot/v2/warehouses') return { rows: [{ id: W1, code: 'W1', name: 'North' }, { id: W2, code: 'W2', name: 'South' }], total: 2, page: 1, size: 100 };
    if (path === COMPARE_API.routes) return [{ key: 'A → B', tasks: 3 }];
    if (path === COMPARE_API.compare) {
      if (opts?.query?.metric === 'avgTemp') throw new ApiError(400, 'COMPARE_RANGE_TOO_LONG', 'A comparison period covers at most 92 days');
      return ANSWER;
    }
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

async function mount(search: string) {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/compare/index${search}`]}>
        <ComparePage />
      </MemoryRouter>
    </App>,
  );
  await settleUntil(() => !!byTestId(document, 'cmp-table') || !!byTestId(document, 'cmp-pick') || !!byTestId(document, 'cmp-error'));
}

const cells = (id: string) => [...document.querySelectorAll(`tbody tr.ant-table-row [data-testid=${id}]`)].map((c) => c.textContent);
const compareCalls = () => calls.filter((c) => c.path === COMPARE_API.compare).map((c) => c.opts?.query);

describe('operational data comparison', { timeout: 60_000 }, () => {
  it('asks for two targets before comparing', async () => {
    await mount(`?kind=warehouse&id=${W1}`);
    expect(byTestId(document, 'screen-title')?.textContent).toBe('Operational data comparison');
    expect(byTestId(document, 'cmp-pick')).not.toBeNull();
    expect(compareCalls()).toHaveLength(0);
  });

  it('sends the targets and both periods, and shows the bars of A beside B and the table with ▲/▼', async () => {
    await mount(`?kind=warehouse&id=${W1}&id=${W2}&metric=compliance&aFrom=2026-11-09&aTo=2026-11-15&bFrom=2026-11-02&bTo=2026-11-08`);
    expect(compareCalls().at(-1)).toEqual({
      kind: 'warehouse',
      ids: JSON.stringify([W1, W2]),
      metric: 'compliance',
      aFrom: dayjs('2026-11-09T00:00:00').toISOString(),
      aTo: dayjs('2026-11-16T00:00:00').toISOString(),
      bFrom: dayjs('2026-11-02T00:00:00').toISOString(),
      bTo: dayjs('2026-11-09T00:00:00').toISOString(),
    });
    expect(cells('cmp-cell-name')).toEqual(['North', 'South']);
    expect(cells('cmp-cell-a')).toEqual(['80', '50']);
    expect(cells('cmp-cell-b')).toEqual(['75.5', '62']);
    expect(cells('cmp-cell-change')).toEqual(['▲ 4.5', '▼ 12']);
    const option = charts.get('cmp-chart')!;
    expect((option.xAxis as { data: string[] }).data).toEqual(['North', 'South']);
    expect((option.series as { name: string; data: unknown[] }[]).map((s) => [s.name, s.data])).toEqual([
      ['Period A', [80, 50]],
      ['Period B', [75.5, 62]],
    ]);
  });

  it("shows the server's refusal", async () => {
    await mount(`?kind=warehouse&id=${W1}&id=${W2}&metric=avgTemp`);
    expect(byTestId(document, 'cmp-error')?.textContent).toBe('A comparison period covers at most 92 days');
  });

  it('offers only the kinds the user may read, and only the metrics of the kind', async () => {
    permissions = ['transport:read'];
    await mount(`?kind=route&id=A%20%E2%86%92%20B&id=C%20%E2%86%92%20D&metric=doorOpen`);
    expect(byTestId(document, 'cmp-kind-warehouse')).toBeNull();
    expect(byTestId(document, 'cmp-kind-route')).not.toBeNull();
    // doorOpen is not a route metric: the first route metric is sent instead.
    expect(compareCalls().at(-1)).toMatchObject({ kind: 'route', metric: 'onTime', ids: JSON.stringify(['A → B', 'C → D']) });
  });
});

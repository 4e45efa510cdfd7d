// The alarm report screen against a mocked client, in English and Chinese: the call built from
// the address, group labels translated, per-level columns, durations as h/min, the chart stacked
// by level; a new grouping re-asks and lands in the address; the PDF download; a failure.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { OPS_REPORT_API, type AlarmReport } from '@iotc/shared/ops-report';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, requestFile, type RequestOptions } from '../../../api/client.ts';
import type { EChartOption, EChartProps } from '../../../components/chart/echart.tsx';
import { reportUrl } from '../components/ops-report-model.ts';
import AlarmReportPage from './alarm-report-page.tsx';

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
const ROOM = '00000000-0000-4000-8000-0000000000aa';
const LEVELS = [
  { code: 'urgent', name: 'Urgent', color: '#f5222d' },
  { code: 'minor', name: 'Minor', color: '#fadb14' },
];
const row = (key: string, label: string, urgent: number, minor: number) => ({
  key,
  label,
  total: urgent + minor,
  byLevel: { urgent, minor },
  acknowledged: 1,
  open: 1,
  meanAckS: 90,
  meanDurationS: 2 * 3600 + 5 * 60,
  activeS: 3 * 3600,
});
const REPORT = (groupBy: AlarmReport['groupBy']): AlarmReport => ({
  period: 'week',
  start: '2026-11-16',
  end: '2026-11-22',
  timezone: 'Asia/Shanghai',
  groupBy,
  levels: LEVELS,
  rows: groupBy === 'type' ? [row('temp_high', 'temp_high', 2, 1), row('offline', 'offline', 0, 1)] : [row('urgent', 'urgent', 2, 0), row('minor', 'minor', 0, 2)],
  perDay: ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'].map((date, i) => ({ date, byLevel: (i === 0 ? { urgent: 2, minor: 2 } : {}) as Record<string, number>, total: i === 0 ? 4 : 0 })),
  totals: { total: 4, byLevel: { urgent: 2, minor: 2 }, acknowledged: 2, open: 2, meanAckS: 90, meanDurationS: 7500, activeS: 6 * 3600 },
  generatedAt: '2026-11-23T00:00:00.000Z',
});

let calls: { path: string; opts: RequestOptions | undefined }[];
let fail: boolean;
let mounted: Rendered | undefined;
const restore: (() => void)[] = [];

function user(): UserInfo {
  return { id: 'u1', account: 'operator', name: 'Operator', orgId: ORG, orgName: 'Cold Chain Co', email: null, phone: null, roles: ['r'], permissions: ['alarm:read'], isPlatformAdmin: false, mustChangePassword: false };
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
  fail = false;
  requestMock.mockReset();
  requestFileMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user();
    if (path === OPS_REPORT_API.alarm) {
      if (fail) throw new ApiError(400, 'VALIDATION', 'date must be a calendar day YYYY-MM-DD');
      return REPORT(opts?.query?.groupBy as AlarmReport['groupBy']);
    }
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
      <MemoryRouter initialEntries={[`/view/report/alarm${search}`]}>
        <Routes>
          <Route
            path="/view/report/alarm"
            element={
              <>
                <AlarmReportPage />
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

const reportCalls = () => calls.filter((c) => c.path === OPS_REPORT_API.alarm).map((c) => c.opts?.query ?? {});
const urls = () => reportCalls().map((q) => reportUrl(OPS_REPORT_API.alarm, q as Record<string, string>));
const text = (id: string) => byTestId(document, id)?.textContent ?? null;
const cells = (id: string) => [...document.querySelectorAll(`tbody tr.ant-table-row [data-testid="${id}"]`)].map((c) => c.textContent);
const headers = () => [...document.querySelectorAll('[data-testid="ops-table"] thead th')].map((th) => th.textContent);

describe('alarm reports', { timeout: 60_000 }, () => {
  it('asks for the week of the address and shows types translated, per-level counts and durations', async () => {
    await mount(`?period=week&date=2026-11-18&groupBy=type&ids=${ROOM}`);
    expect(text('screen-title')).toBe('Alarm reports');
    expect(urls()).toEqual([`/api/iot/v2/reports/alarm?period=week&date=2026-11-16&groupBy=type&assetIds=${ROOM}&format=json`]);
    expect(text('ops-range')).toBe('Week: 2026-11-16 ~ 2026-11-22 (time zone Asia/Shanghai)');
    expect(headers()).toEqual(expect.arrayContaining(['Type', 'Alarms', 'Urgent', 'Minor', 'Acknowledged', 'Open', 'Mean time to acknowledge', 'Mean duration']));
    expect(cells('ops-cell-label')).toEqual(['Temperature high', 'Device offline']);
    expect(cells('ops-cell-level-urgent')).toEqual(['2', '0']);
    expect(cells('ops-cell-meanAck')).toEqual(['2 min', '2 min']);
    expect(cells('ops-cell-meanDuration')).toEqual(['2 h 05 min', '2 h 05 min']);
    expect(text('ops-card-total')).toContain('4');
    expect(text('ops-totals')).toContain('Total');
    const series = charts.get('ops-chart')!.series as { name: string; stack: string; data: number[] }[];
    expect(series.map((s) => s.name)).toEqual(['Urgent', 'Minor']);
    expect(series[0]!.data).toEqual([2, 0, 0, 0, 0, 0, 0]);
  });

  it('groups by level: asks again, keeps it in the address, and labels levels by name', async () => {
    await mount('?period=week&date=2026-11-18&groupBy=type');
    click(byTestId(document, 'ops-group-level'));
    await settleUntil(() => cells('ops-cell-label').includes('Urgent'));
    expect(reportCalls().at(-1)).toEqual({ period: 'week', date: '2026-11-16', groupBy: 'level', format: 'json' });
    expect(text('where')).toContain('groupBy=level');
    expect(cells('ops-cell-label')).toEqual(['Urgent', 'Minor']);
  });

  it('downloads the PDF with the same filters', async () => {
    await mount('?period=week&date=2026-11-18&groupBy=type');
    click(byTestId(document, 'ops-export-pdf'));
    await settleUntil(() => requestFileMock.mock.calls.length > 0);
    expect(requestFileMock.mock.calls[0]![0]).toBe(OPS_REPORT_API.alarm);
    expect(requestFileMock.mock.calls[0]![1]!.query).toEqual({ period: 'week', date: '2026-11-16', groupBy: 'type', format: 'pdf' });
  });

  it('reads in Chinese', async () => {
    await i18next.changeLanguage('zh');
    await mount('?period=week&date=2026-11-18&groupBy=type');
    expect(text('screen-title')).toBe('告警报表');
    expect(cells('ops-cell-label')).toEqual(['温度过高', i18next.t('alarm.type.offline')]);
    expect(cells('ops-cell-meanDuration')).toEqual(['2小时5分钟', '2小时5分钟']);
    expect(headers()).toEqual(expect.arrayContaining(['类型', '告警数', '已确认', '平均确认时长']));
    expect(text('ops-export-xlsx')).toContain('下载 Excel');
  });

  it("shows the server's refusal with a retry", async () => {
    fail = true;
    await mount('?period=day&date=2026-11-18', 'ops-error');
    expect(text('ops-error')).toBe('date must be a calendar day YYYY-MM-DD');
    expect(byTestId(document, 'ops-table')).toBeNull();
  });
});

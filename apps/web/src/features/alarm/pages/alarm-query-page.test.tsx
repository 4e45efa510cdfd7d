import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ALARM_API, type AlarmRow, type AlarmStats } from '@iotc/shared/alarm';
import { API } from '@iotc/shared/auth';
import type { Page } from '@iotc/shared/envelope';
import { click, render, setEnglish, showColumns, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, requestFile, type RequestOptions } from '../../../api/client.ts';
import type { EChartOption, EChartProps } from '../../../components/chart/echart.tsx';
import { CHART_API, type ChartSvgBody } from '@iotc/shared/chart';
import { restoreStubs, stubProperty } from '../../../test/stub.ts';
import { alarm, LEVELS, MINOR, URGENT, user } from '../alarm-fixtures.ts';
import type { AlarmEvent } from '../api/alarm-detail.ts';
import AlarmQueryPage from './alarm-query-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
// No canvas in jsdom: each live chart is a stub holding the option it was given.
const charts = new Map<string, EChartOption>();
// The charts the server was asked to draw (their images come back as empty SVGs).
let drawnBodies: ChartSvgBody[] = [];
vi.mock('../../../components/chart/echart.tsx', () => ({
  loadTooltips: () => Promise.resolve(),
  EChart: (props: EChartProps) => {
    const id = props['data-testid'] ?? '';
    charts.set(id, props.option);
    return <div data-testid={id} />;
  },
}));
const requestMock = vi.mocked(request);
const requestFileMock = vi.mocked(requestFile);

const ROWS: AlarmRow[] = [
  alarm(2, { level: MINOR, type: 'humidity_low', unit: '%', value: 12, peak: 8.5, status: 'cleared', endedAt: '2026-03-01T02:45:00.000Z' }),
  alarm(1, { acknowledgedAt: '2026-03-01T01:10:00.000Z', acknowledgedBy: 'admin' }),
];
const CLOSED = alarm(3, { status: 'closed', closedBy: 'admin', closeReason: 'Sensor replaced', endedAt: '2026-03-01T03:30:00.000Z' });
const EVENTS: AlarmEvent[] = [
  { id: 1, at: '2026-03-01T01:00:00.000Z', kind: 'created', actor: null, detail: { value: 9.3 } },
  { id: 2, at: '2026-03-01T01:10:00.000Z', kind: 'acknowledged', actor: 'admin', detail: {} },
];
const CLOSED_EVENTS: AlarmEvent[] = [...EVENTS, { id: 3, at: '2026-03-01T03:30:00.000Z', kind: 'closed', actor: 'admin', detail: { reason: 'Sensor replaced' } }];
const STATS: AlarmStats = {
  byType: [
    { type: 'temp_high', count: 1 },
    { type: 'humidity_low', count: 1 },
  ],
  byLevel: [
    { levelId: URGENT.id, code: 'urgent', nameZh: '紧急', nameEn: 'Urgent', color: URGENT.color, count: 1 },
    { levelId: MINOR.id, code: 'minor', nameZh: '次要', nameEn: 'Minor', color: MINOR.color, count: 1 },
  ],
  overTime: [{ bucket: '2026-03-01T00:00:00', levelId: URGENT.id, count: 1 }],
};

let permissions: string[];
let rows: AlarmRow[];
let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;
const restore: (() => void)[] = [];

beforeAll(() => {
  // jsdom lays nothing out: the chart boxes are 400 pixels wide (the image is asked for at the box's width).
  stubProperty(HTMLElement.prototype, 'clientWidth', {
    get(this: HTMLElement) {
      return this.dataset.testid?.startsWith('alarm-chart') ? 400 : 0;
    },
  });
  restore.push(restoreStubs);
  // The export saves the file through an object URL, which jsdom lacks.
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
  charts.clear();
  drawnBodies = [];
  permissions = ['alarm:read', 'alarm:handle'];
  rows = ROWS;
  calls = [];
  requestMock.mockReset();
  requestFileMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    const one = (id: string) => `${ALARM_API.alarms}/${id}`;
    if (path === API.info) return user(permissions);
    if (path === ALARM_API.levels) return { rows: LEVELS, total: 2, page: 1, size: 100 };
    if (path === ALARM_API.alarms) return { rows, total: 12, page: Number(opts?.query?.page ?? 1), size: Number(opts?.query?.size ?? 10) } satisfies Page<AlarmRow>;
    if (path === `${ALARM_API.alarms}/stats`) return STATS;
    if (path === CHART_API.svg) {
      drawnBodies.push(opts!.body as ChartSvgBody);
      return { svg: '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="260"></svg>' };
    }
    if (path === one(ROWS[1]!.id)) return ROWS[1];
    if (path === `${one(ROWS[1]!.id)}/events`) return EVENTS;
    if (path === one(CLOSED.id)) return CLOSED;
    if (path === `${one(CLOSED.id)}/events`) return CLOSED_EVENTS;
    if (path === `${one(ROWS[1]!.id)}/close`) return { ...ROWS[1]!, status: 'closed', closeReason: (opts?.body as { reason: string }).reason };
    if (path === `${one(CLOSED.id)}/comments`) {
      const text = (opts?.body as { text: string }).text;
      return [...CLOSED_EVENTS, { id: 4, at: '2026-03-01T04:00:00.000Z', kind: 'commented', actor: 'operator', detail: { text } }] satisfies AlarmEvent[];
    }
    if (path.endsWith('/acknowledge')) {
      const id = path.split('/').at(-2)!;
      return { ...rows.find((r) => r.id === id)!, acknowledgedAt: '2026-03-01T05:10:00.000Z', acknowledgedBy: 'operator' };
    }
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{loc.search}</div>;
}

async function mount(search = ''): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/alarm/query${search}`]}>
        <Routes>
          <Route
            path="/view/alarm/query"
            element={
              <>
                <AlarmQueryPage />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(10);
  return mounted.container;
}

const listCalls = () => calls.filter((c) => c.path === ALARM_API.alarms);
const statsCalls = () => calls.filter((c) => c.path === `${ALARM_API.alarms}/stats`);
const row = (id: string) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);
const cell = (id: string, testId: string) => row(id)!.querySelector<HTMLElement>(`[data-testid=${testId}]`)!;

const FROM = '2026-03-01T00:00:00.000Z';
const TO = '2026-03-02T00:00:00.000Z';

/** Types into the close reason (a textarea) as a user does. */
function typeReason(text: string) {
  const el = document.getElementById('alarm-close-reason') as HTMLTextAreaElement;
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  act(() => {
    el.focus();
    setValue.call(el, text);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Opens an antd select and picks the option shown as `label`. */
async function pick(testId: string, label: string) {
  const select = byTestId(document, testId)!.closest('.ant-select') ?? byTestId(document, testId)!;
  act(() => {
    select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  });
  await settle();
  const option = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent === label);
  if (!option) throw new Error(`no option ${label}`);
  click(option);
  await settle();
}

// The first render loads antd's table, select, picker and drawer code: slow on a busy machine.
describe('alarm query', { timeout: 40_000 }, () => {
  it('asks for the last 7 days by default, newest first, with statistics per day', async () => {
    const before = Date.now();
    await mount();
    const query = listCalls()[0]!.opts!.query!;
    expect(query).toMatchObject({ page: 1, size: 10, sort: 'startedAt,desc' });
    const from = Date.parse(String(query.from));
    const to = Date.parse(String(query.to));
    expect(to - from).toBe(7 * 86_400_000);
    expect(to).toBeGreaterThanOrEqual(before - 1000);
    expect(statsCalls()[0]!.opts!.query).toMatchObject({ from: query.from, to: query.to, bucket: 'day' });
    expect(byTestId(document, 'alarm-stats')!.dataset.bucket).toBe('day');
  });

  it('sends the filters of the address as query values, and counts per hour for a window of a day', async () => {
    const search = `?f.timeFrom=${encodeURIComponent(FROM)}&f.timeTo=${encodeURIComponent(TO)}&f.type=temp_high,humidity_low&f.levelId=${URGENT.id}&f.status=active,cleared&f.acknowledged=false&f.keyword=truck&f.junk=1&sort=priority,asc&page=2&size=50`;
    await mount(search);
    const query = listCalls()[0]!.opts!.query!;
    expect(query).toEqual({
      from: FROM,
      to: TO,
      type: 'temp_high,humidity_low',
      levelId: URGENT.id,
      status: 'active,cleared',
      acknowledged: 'false',
      keyword: 'truck',
      page: 2,
      size: 50,
      sort: 'priority,asc',
    });
    expect(statsCalls()[0]!.opts!.query).toEqual({
      from: FROM,
      to: TO,
      type: 'temp_high,humidity_low',
      levelId: URGENT.id,
      status: 'active,cleared',
      acknowledged: 'false',
      keyword: 'truck',
      bucket: 'hour',
    });
    // The server draws the three charts at the box's width; the level chart takes the level
    // colours, and its image says what it shows.
    await settleUntil(() => drawnBodies.length === 3);
    expect(drawnBodies.map((b) => [b.width, b.height, b.dark])).toEqual([
      [400, 260, false],
      [400, 260, false],
      [400, 260, false],
    ]);
    const ring = drawnBodies.find((b) => (b.option.series as { type: string }[])[0]!.type === 'pie')!.option;
    const pie = (ring.series as unknown as { data: { itemStyle: { color: string } }[] }[])[0]!;
    expect(pie.data.map((d) => d.itemStyle.color)).toEqual([URGENT.color, MINOR.color]);
    await settleUntil(() => byTestId(document, 'alarm-chart-level-image') !== null);
    expect(byTestId(document, 'alarm-chart-level-image')!.getAttribute('alt')).toBe('Alarms by level: 1 Urgent, 1 Minor');
    expect(byTestId(document, 'alarm-chart-type-image')!.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    // The pointer on a chart: the live chart takes the image's place, with the same option.
    expect(charts.size).toBe(0);
    await act(async () => {
      byTestId(document, 'alarm-chart-level')!.dispatchEvent(new MouseEvent('pointerover', { bubbles: true }));
    });
    await settleUntil(() => charts.has('alarm-chart-level-live'));
    expect(charts.get('alarm-chart-level-live')).toEqual(ring);
  });

  it('draws the live charts when the server cannot draw them', async () => {
    const answer = requestMock.getMockImplementation()!;
    requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
      if (path === CHART_API.svg) {
        drawnBodies.push(opts!.body as ChartSvgBody);
        throw new Error('the server could not draw it');
      }
      return answer(path, opts);
    });
    await mount();
    await settleUntil(() => charts.size === 3);
    expect([...charts.keys()].sort()).toEqual(['alarm-chart-level-live', 'alarm-chart-time-live', 'alarm-chart-type-live']);
    expect(drawnBodies).toHaveLength(3);
    expect(byTestId(document, 'alarm-chart-level-image')).toBeNull();
  });

  it('sends the filters chosen in the bar', async () => {
    const root = await mount(`?f.timeFrom=${encodeURIComponent(FROM)}&f.timeTo=${encodeURIComponent(TO)}`);
    await pick('filter-status', 'Active');
    await pick('filter-levelId', 'Minor');
    await pick('filter-levelId', 'Urgent');
    await pick('filter-acknowledged', 'No');
    type(root, 'filter-keyword', ' Truck 1 ');
    click(byTestId(root, 'filter-search'));
    await settle(10);
    const query = listCalls().at(-1)!.opts!.query!;
    expect(query).toMatchObject({ from: FROM, to: TO, status: 'active', levelId: `${MINOR.id},${URGENT.id}`, acknowledged: 'false', keyword: 'Truck 1', page: 1 });
    expect(byTestId(root, 'where')!.textContent).toContain('f.status=active');
  });

  it('shows the rows with level, type, value and peak with the unit, status and who acknowledged', async () => {
    await mount();
    // Asset, who acknowledged and the policy do not fit 1280 px: custom columns shows them.
    expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).not.toContain('Policy');
    showColumns(document, ['asset', 'acknowledged', 'policyName']);
    const [minor, urgent] = ROWS;
    expect(cell(minor!.id, 'alarm-cell-level').textContent).toBe('Minor');
    expect(cell(urgent!.id, 'alarm-cell-level').querySelector<HTMLElement>('.ant-tag')!.style.background).toBe('rgb(220, 31, 40)');
    expect(cell(minor!.id, 'alarm-cell-type').textContent).toBe('Humidity low');
    expect(cell(urgent!.id, 'alarm-cell-type').textContent).toBe('Temperature high');
    expect(cell(minor!.id, 'alarm-cell-value').textContent).toBe('12 / 8.5 %');
    expect(cell(urgent!.id, 'alarm-cell-value').textContent).toBe('9.3 / 12.2 °C');
    expect(cell(minor!.id, 'alarm-cell-status').textContent).toBe('Cleared');
    expect(cell(urgent!.id, 'alarm-cell-status').textContent).toBe('Active');
    expect(row(urgent!.id)!.textContent).toContain(`admin · ${dayjs(urgent!.acknowledgedAt!).format('YYYY-MM-DD HH:mm:ss')}`);
    expect(row(minor!.id)!.textContent).toContain('45m');
    expect(row(urgent!.id)!.textContent).toContain('Reefer 1 (沪A00001)');
    const headers = [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).toEqual(expect.arrayContaining(['No.', 'Level', 'Alarm type', 'Device ID', 'Started', 'Duration', 'Value / peak', 'Status', 'Policy']));
    // Sortable by start, level and peak.
    const sortable = [...document.querySelectorAll('thead th.ant-table-column-has-sorters')].map((th) => th.textContent);
    expect(sortable).toEqual(['Level', 'Started', 'Value / peak']);
    // Acknowledged already: only Details and Close in its row.
    expect(row(urgent!.id)!.querySelector('[data-testid=alarm-row-acknowledge]')).toBeNull();
    expect(row(urgent!.id)!.querySelector('[data-testid=alarm-row-close]')).not.toBeNull();
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    await mount();
    const [minor, urgent] = ROWS;
    expect(byTestId(document, 'screen-title')!.textContent).toBe('告警查询');
    expect(cell(minor!.id, 'alarm-cell-level').textContent).toBe('次要');
    expect(cell(minor!.id, 'alarm-cell-type').textContent).toBe('湿度过低');
    expect(cell(urgent!.id, 'alarm-cell-type').textContent).toBe('温度过高');
    expect(cell(minor!.id, 'alarm-cell-status').textContent).toBe('已恢复');
    expect(cell(urgent!.id, 'alarm-cell-status').textContent).toBe('告警中');
    expect(row(minor!.id)!.textContent).toContain('45分');
    const headers = [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).toEqual(expect.arrayContaining(['序号', '告警等级', '告警类型', '设备编号', '开始时间']));
    // The window in the spec's format, 'to' between its ends.
    const bar = byTestId(document, 'filter-bar')!;
    expect(bar.textContent).toContain('至');
    const ends = [...bar.querySelectorAll<HTMLInputElement>('.iotc-filter-range input')].map((i) => i.value);
    expect(ends).toHaveLength(2);
    for (const end of ends) expect(end).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('exports the filters as Excel or CSV', async () => {
    requestFileMock.mockResolvedValue({ blob: new Blob(['x']), disposition: 'attachment; filename="alarms.csv"' });
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const root = await mount(`?f.timeFrom=${encodeURIComponent(FROM)}&f.timeTo=${encodeURIComponent(TO)}&f.status=active&sort=peak,desc&page=3`);
    click(byTestId(root, 'alarm-export-csv'));
    await settle();
    expect(requestFileMock).toHaveBeenCalledTimes(1);
    const [path, opts] = requestFileMock.mock.calls[0]!;
    expect(path).toBe(`${ALARM_API.alarms}/export`);
    expect(opts?.query).toEqual({ from: FROM, to: TO, status: 'active', sort: 'peak,desc', format: 'csv' });
    expect(saved.mock.contexts.map((a) => (a as HTMLAnchorElement).download)).toEqual(['alarms.csv']);
    saved.mockRestore();
  });

  it('opens the details with the timeline from a row, and closes the alarm only with a reason', async () => {
    const root = await mount();
    const target = ROWS[1]!;
    click(row(target.id)!.querySelector('td:nth-child(4)'));
    await settle(10);
    expect(byTestId(root, 'where')!.textContent).toContain(`alarm=${target.id}`);
    // The drawer's code comes the first time one opens.
    await settleUntil(() => byTestId(document, 'alarm-detail') !== null);
    const drawer = byTestId(document, 'alarm-detail')!;
    await settleUntil(() => drawer.querySelectorAll('[data-testid=alarm-event]').length === 2);
    const events = [...drawer.querySelectorAll<HTMLElement>('[data-testid=alarm-event]')];
    expect(events.map((e) => e.dataset.kind)).toEqual(['created', 'acknowledged']);
    expect(events[0]!.textContent).toContain('Opened');
    expect(events[0]!.textContent).toContain('By the system');
    expect(events[0]!.textContent).toContain('Value: 9.3 °C');
    expect(events[1]!.textContent).toContain('By admin');
    expect(events[1]!.textContent).toContain(dayjs(EVENTS[1]!.at).format('YYYY-MM-DD HH:mm:ss'));
    expect(byTestId(drawer, 'alarm-detail-fields')!.textContent).toContain('Cold chain');
    // Acknowledged already: Close only.
    expect(byTestId(document, 'alarm-detail-acknowledge')).toBeNull();

    click(byTestId(document, 'alarm-detail-close'));
    // The dialog's code comes when it first opens.
    await settleUntil(() => document.getElementById('alarm-close-submit') !== null);
    const modal = document.querySelector<HTMLElement>('.alarm-close-modal')!;
    click(document.getElementById('alarm-close-submit'));
    await settle(10);
    expect(modal.textContent).toContain('Enter the reason for closing the alarm');
    expect(calls.some((c) => c.path.endsWith('/close'))).toBe(false);
    // Blanks are no reason either.
    typeReason('   ');
    click(document.getElementById('alarm-close-submit'));
    await settle(10);
    expect(calls.some((c) => c.path.endsWith('/close'))).toBe(false);

    typeReason(' Sensor replaced ');
    click(document.getElementById('alarm-close-submit'));
    await settle(10);
    const closing = calls.find((c) => c.path.endsWith('/close'))!;
    expect(closing.path).toBe(`${ALARM_API.alarms}/${target.id}/close`);
    expect(closing.opts).toMatchObject({ method: 'POST', body: { reason: 'Sensor replaced' } });
    expect(document.body.textContent).toContain('Alarm closed');
  });

  it('shows a closed alarm with who closed it and why, and no actions', async () => {
    await mount(`?alarm=${CLOSED.id}`);
    // The drawer's code comes the first time one opens.
    await settleUntil(() => byTestId(document, 'alarm-detail') !== null);
    const drawer = byTestId(document, 'alarm-detail')!;
    await settleUntil(() => drawer.querySelectorAll('[data-testid=alarm-event]').length === 3);
    expect(byTestId(drawer, 'alarm-detail-reason')!.textContent).toBe('Sensor replaced');
    const closed = [...drawer.querySelectorAll<HTMLElement>('[data-testid=alarm-event]')].at(-1)!;
    expect(closed.dataset.kind).toBe('closed');
    expect(closed.textContent).toContain('By admin');
    expect(byTestId(closed, 'alarm-event-reason')!.textContent).toBe('Reason: Sensor replaced');
    expect(byTestId(document, 'alarm-detail-close')).toBeNull();
    expect(byTestId(document, 'alarm-detail-acknowledge')).toBeNull();
  });

  it('adds a comment to the timeline of a closed alarm, and offers no comment box without alarm:handle', async () => {
    await mount(`?alarm=${CLOSED.id}`);
    // The drawer's code comes the first time one opens.
    await settleUntil(() => byTestId(document, 'alarm-detail') !== null);
    const drawer = byTestId(document, 'alarm-detail')!;
    await settleUntil(() => drawer.querySelectorAll('[data-testid=alarm-event]').length === 3);
    const send = byTestId(drawer, 'alarm-comment-send') as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    const box = byTestId(drawer, 'alarm-comment-text') as HTMLTextAreaElement;
    const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
    act(() => {
      setValue.call(box, '  Checked the goods: all within range  ');
      box.dispatchEvent(new Event('input', { bubbles: true }));
    });
    click(byTestId(drawer, 'alarm-comment-send'));
    await settleUntil(() => drawer.querySelectorAll('[data-testid=alarm-event]').length === 4);
    const posted = calls.find((c) => c.path.endsWith('/comments'))!;
    expect(posted.opts).toMatchObject({ method: 'POST', body: { text: 'Checked the goods: all within range' } });
    const last = [...drawer.querySelectorAll<HTMLElement>('[data-testid=alarm-event]')].at(-1)!;
    expect(last.dataset.kind).toBe('commented');
    expect(last.textContent).toContain('Checked the goods: all within range');
    expect((byTestId(drawer, 'alarm-comment-text') as HTMLTextAreaElement).value).toBe('');
    mounted?.unmount();
    mounted = undefined;
    document.body.innerHTML = '';
    permissions = ['alarm:read'];
    await mount(`?alarm=${CLOSED.id}`);
    const readOnly = byTestId(document, 'alarm-detail')!;
    await settleUntil(() => readOnly.querySelectorAll('[data-testid=alarm-event]').length === 3);
    expect(byTestId(readOnly, 'alarm-comment')).toBeNull();
  });

  it('acknowledges from the row, and offers no handling without alarm:handle', async () => {
    const open = alarm(5);
    rows = [open];
    await mount();
    click(row(open.id)!.querySelector('[data-testid=alarm-row-acknowledge]'));
    await settle(10);
    expect(calls.find((c) => c.path.endsWith('/acknowledge'))).toMatchObject({ path: `${ALARM_API.alarms}/${open.id}/acknowledge`, opts: { method: 'POST' } });
    expect(document.body.textContent).toContain('Alarm acknowledged');
    // The list is read again after the change.
    expect(listCalls().length).toBeGreaterThan(1);

    mounted!.unmount();
    mounted = undefined;
    permissions = ['alarm:read'];
    await mount();
    expect(row(open.id)!.querySelector('[data-testid=alarm-row-details]')).not.toBeNull();
    expect(row(open.id)!.querySelector('[data-testid=alarm-row-acknowledge]')).toBeNull();
    expect(row(open.id)!.querySelector('[data-testid=alarm-row-close]')).toBeNull();
  });
});

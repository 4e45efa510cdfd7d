import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { LIVE_API } from '@iotc/shared/live';
import { TRANSPORT_API, type TaskDetail } from '@iotc/shared/transport';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request } from '../../../api/client.ts';
import { formatKm, orderTasks, percent } from '../components/monitor-model.ts';
import StatusPage from './status-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({ ...(await importOriginal<typeof client>()), request: vi.fn() }));
const mapProps: { tasks: readonly TaskDetail[]; selectedId: string | null }[] = [];
vi.mock('../components/monitor-map.tsx', () => ({
  MonitorMap: (props: { tasks: readonly TaskDetail[]; selectedId: string | null }) => {
    mapProps.push(props);
    return <div data-testid="status-map" />;
  },
}));
const requestMock = vi.mocked(request);

function task(id: string, code: string, over: Partial<TaskDetail> = {}): TaskDetail {
  const place = { name: 'Shanghai DC', address: '', lat: 31.2, lon: 121.4, radiusM: 500 };
  return {
    id,
    code,
    orgId: 'o1',
    orgName: 'Org',
    templateId: null,
    status: 'in_transit',
    abnormal: false,
    abnormalReasons: [],
    activeAlarms: 0,
    goodsName: 'Vaccines',
    goodsQuantity: null,
    goodsUnit: '',
    goodsValue: null,
    highValue: false,
    customer: '',
    asset: null,
    devices: [],
    origin: place,
    destination: { ...place, name: 'Hangzhou DC', lat: 30.3, lon: 120.2 },
    stops: [],
    routeSource: 'none',
    route: [],
    plannedDistanceM: 170_000,
    plannedStart: null,
    plannedArrival: '2026-03-01T10:00:00.000Z',
    driverName: '',
    driverPhone: '',
    contacts: [],
    remark: '',
    profile: null,
    tempMin: 2,
    tempMax: 8,
    humidityMin: null,
    humidityMax: null,
    alarm: { levelId: null, temperature: true, humidity: false, door: false, yawM: null, stayTimeoutS: null, overspeedKmh: null, durationS: 60 },
    recipients: [],
    detection: { auto: true, moveM: 200, moveS: 180, dwellS: 600 },
    startedAt: '2026-03-01T06:00:00.000Z',
    startMode: 'auto',
    arrivedAt: null,
    arriveMode: null,
    completedAt: null,
    cancelledAt: null,
    cancelReason: '',
    onTime: null,
    createdBy: 'admin',
    createdAt: '2026-03-01T00:00:00.000Z',
    updatedAt: '2026-03-01T00:00:00.000Z',
    live: { time: '2026-03-01T08:00:00.000Z', lat: 30.8, lon: 120.8, speed: 62, temp: 5.4, humidity: 60, doorOpen: false, progress: 0.42, remainingM: 98_765, eta: '2026-03-01T09:40:00.000Z' },
    ...over,
  };
}

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
let answer: TaskDetail[] = [];
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  mapProps.length = 0;
  answer = [task(A, 'TT-20260301-0001'), task(B, 'TT-20260301-0002', { abnormal: true, abnormalReasons: ['alarm'], activeAlarms: 1, highValue: true, plannedArrival: '2026-03-01T12:00:00.000Z' })];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string) => {
    if (path === TRANSPORT_API.monitor) return answer;
    if (path === LIVE_API.mapConfig) return { tileUrl: null, tileSubdomains: null, tileAttribution: null, tileMaxZoom: 18, tileCrs: 'wgs84' };
    throw new Error(`unexpected call ${path}`);
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

async function mount(): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/transport/status']}>
        <Routes>
          <Route path="/view/transport/status" element={<StatusPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(6);
  return mounted.container;
}

describe('transport status monitor', () => {
  it('lists abnormal tasks first with their live values, and links a selected task to its history track', async () => {
    const root = await mount();
    await settleUntil(() => byTestId(root, 'status-list') !== null);
    const items = [...root.querySelectorAll<HTMLElement>('[data-testid=status-task]')];
    expect(items.map((el) => el.dataset.id)).toEqual([B, A]);
    expect(items[0]!.textContent).toContain('High value');
    expect(items[0]!.textContent).toContain('Abnormal: open alarm (1)');
    expect(items[1]!.textContent).toContain('98.8 km');
    expect(items[1]!.textContent).toContain('5.4 °C');
    expect(byTestId(root, 'status-updated')?.textContent).toMatch(/Updated at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(mapProps.at(-1)?.tasks.map((t) => t.id)).toEqual([B, A]);

    click(items[1]);
    await settle(2);
    expect(mapProps.at(-1)?.selectedId).toBe(A);
    expect(byTestId(root, 'status-history-link')?.getAttribute('href')).toBe(`/view/transport/history?taskId=${A}`);
  });

  it('asks for abnormal tasks only when switched, and says when none are under way', async () => {
    answer = [];
    const root = await mount();
    await settleUntil(() => byTestId(root, 'status-empty') !== null);
    expect(byTestId(root, 'status-empty')?.textContent).toContain('No tasks in transit');
    click(byTestId(root, 'status-abnormal-only'));
    await settle(4);
    expect(requestMock.mock.calls.filter(([p]) => p === TRANSPORT_API.monitor).at(-1)?.[1]?.query).toEqual({ abnormal: 'true', keyword: undefined });
  });
});

describe('monitor model', () => {
  it('orders abnormal first, then by planned arrival', () => {
    const late = task('c', 'C', { plannedArrival: null });
    const early = task('d', 'D', { plannedArrival: '2026-01-01T00:00:00Z' });
    const bad = task('e', 'E', { abnormal: true, plannedArrival: null });
    expect(orderTasks([late, early, bad]).map((t) => t.id)).toEqual(['e', 'd', 'c']);
  });
  it('formats kilometres and progress', () => {
    expect(formatKm(98_765)).toBe('98.8');
    expect(formatKm(250_400)).toBe('250');
    expect(formatKm(null)).toBe('-');
    expect(percent(0.424)).toBe(42);
    expect(percent(1.3)).toBe(100);
    expect(percent(null)).toBeNull();
  });
});

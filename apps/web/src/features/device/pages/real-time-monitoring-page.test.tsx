import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { ScenarioType } from '@iotc/shared/constants';
import { DEVICE_API } from '@iotc/shared/device';
import { LIVE_API, type DeviceState, type MapPoint, type StatusCounts } from '@iotc/shared/live';
import { click, render, setEnglish, showColumns, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, type RequestOptions } from '../../../api/client.ts';
import { clearAuth, setToken } from '../../../lib/session.ts';
import type { LiveMapProps } from '../../../components/map/live-map.tsx';
import RealTimeMonitoringPage, { LIVE_FLUSH_MS, mapHeightFor, tableFlushMs } from './real-time-monitoring-page.tsx';

// The api modules run as they are; only the one HTTP client under them answers from the test.
vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

// Leaflet and ECharts need a real browser (layout, canvas); here the map shows its points as
// plain elements with LiveMap's own hooks, and the chart as an empty box.
vi.mock('../../../components/map/live-map.tsx', () => ({
  LiveMap: ({ points, selectedId, onSelect }: LiveMapProps) => (
    <div data-testid="live-map" data-selected={selectedId ?? ''}>
      {points.map((p) => (
        <span key={p.id} data-testid="map-marker" data-device-id={p.id} data-lat={p.lat} data-lon={p.lon} data-status={p.status} onClick={() => onSelect?.(p.id)} />
      ))}
    </div>
  ),
}));
vi.mock('../../../components/chart/echart.tsx', () => ({
  EChart: (props: { 'data-testid'?: string }) => <div data-testid={props['data-testid']} />,
}));

/** A WebSocket the test drives: the page's live channel connects to it. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
  send(msg: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(msg) } as MessageEvent));
  }
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function device(n: number, over: Partial<DeviceState> = {}): DeviceState {
  return {
    id: id(n),
    deviceId: `86000000000${String(n).padStart(4, '0')}`,
    name: `Truck ${n}`,
    orgId: 'o',
    orgName: 'Demo Logistics',
    status: 'driving',
    time: '2026-03-01T04:05:06Z',
    lastSeenAt: '2026-03-01T04:05:06Z',
    lat: 31 + n / 10,
    lon: 121,
    positioning: 'GPS',
    network: '4G',
    speed: 40,
    course: 90,
    acc: true,
    sensors: { temperature: 5, humidity: 60, battery: 80, door: 'closed' },
    asset: { id: `a${n}`, kind: 'vehicle', code: `沪A0000${n}`, name: `Reefer ${n}`, tempMin: 2, tempMax: 8, humidityMin: 30, humidityMax: 90 },
    ...over,
  };
}

const COUNTS: StatusCounts = { all: 3, unused: 0, shutdown: 0, offline: 1, parked: 0, driving: 2 };
let devices: DeviceState[];
let failStates: boolean;
let calls: { path: string; query: RequestOptions['query'] }[];
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  setToken('test-token');
  devices = [device(1), device(2, { sensors: { temperature: 9.5, humidity: 50, battery: 12, door: 'open' } }), device(3, { status: 'offline' })];
  failStates = false;
  calls = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, query: opts?.query });
    const status = opts?.query?.status;
    const matching = devices.filter((d) => !status || d.status === status);
    if (path === LIVE_API.summary) return COUNTS;
    if (path === LIVE_API.states) {
      if (failStates) throw new ApiError(500, 'INTERNAL', 'boom');
      return { rows: matching, total: matching.length, page: 1, size: 10 };
    }
    if (path === LIVE_API.points) return matching.map((d): MapPoint => ({ id: d.id, deviceId: d.deviceId, name: d.name, status: d.status, lat: d.lat!, lon: d.lon! }));
    if (path === LIVE_API.mapConfig) return { tileUrl: null, tileSubdomains: null, tileAttribution: null, tileCrs: 'wgs84', tileMaxZoom: 18 };
    if (path.startsWith(`${DEVICE_API.devices}/`) && path.endsWith('/latest')) {
      const found = devices.find((d) => path.includes(d.id));
      if (!found) throw new ApiError(404, 'NOT_FOUND', 'no such device');
      return found;
    }
    if (path === LIVE_API.series) return { times: ['2026-03-01T00:00:00Z'], values: { temperature: [5] }, total: 1 };
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  clearAuth();
  vi.unstubAllGlobals();
  await setEnglish();
});

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{`${loc.pathname}${loc.search}`}</div>;
}

async function mount(search = '', scenarioType?: ScenarioType): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/deviceManage/realTimeMonitoring${search}`]}>
        <Routes>
          <Route
            path="/view/deviceManage/realTimeMonitoring"
            element={
              <>
                <RealTimeMonitoringPage scenarioType={scenarioType} />
                <Where />
              </>
            }
          />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(10);
  return mounted.container;
}

const text = (root: ParentNode, testId: string) => byTestId(root as HTMLElement, testId)?.textContent;
const row = (n: number) => document.querySelector<HTMLElement>(`tr[data-row-key="${id(n)}"]`);
const marker = (n: number) => document.querySelector<HTMLElement>(`[data-testid=map-marker][data-device-id="${id(n)}"]`);

async function flushLive() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, LIVE_FLUSH_MS + 100));
  });
  await settle();
}

describe('live layout rules', () => {
  it('redraws a large page less often and sizes the map to the window', () => {
    expect(tableFlushMs(10)).toBe(LIVE_FLUSH_MS);
    expect(tableFlushMs(50)).toBe(2000);
    expect(tableFlushMs(100)).toBe(2000);
    expect(mapHeightFor(900)).toBe(378);
    expect(mapHeightFor(500)).toBe(300);
    expect(mapHeightFor(2000)).toBe(560);
  });
});

// The first render loads antd's table, tabs and drawer code: slow on a busy machine.
describe('real-time monitoring', { timeout: 40_000 }, () => {
  it('shows the title, the status counts, the map and the table with out-of-range readings marked', async () => {
    const root = await mount();
    expect(text(root, 'screen-title')).toBe('Real-time monitoring');
    expect(text(root, 'monitor-tab-all')).toBe('All3');
    for (const [key, n] of Object.entries(COUNTS)) expect(text(root, `monitor-tab-${key}-count`)).toBe(String(n));
    expect(document.querySelectorAll('[data-testid=map-marker]')).toHaveLength(3);
    expect(row(1)!.textContent).toContain('860000000000001');
    // The bound asset and the door do not fit 1280 px: custom columns shows them.
    showColumns(root, ['asset', 'door']);
    expect(row(1)!.textContent).toContain('沪A00001 Reefer 1');
    const cold = row(1)!.querySelector('[data-testid=monitor-cell-temperature]')!;
    expect(cold.textContent).toBe('5.0°C');
    expect(cold.getAttribute('data-out-of-range')).toBeNull();
    const warm = row(2)!.querySelector('[data-testid=monitor-cell-temperature]')!;
    expect(warm.getAttribute('data-out-of-range')).toBe('true');
    expect(row(2)!.querySelector('.iotc-battery-low')!.textContent).toBe('12%');
    expect(row(2)!.textContent).toContain('Open');
    expect(byTestId(root, 'monitor-keyword')).not.toBeNull();
    // The live channel is addressed with the session's token.
    expect(FakeSocket.all[0]!.url).toMatch(/\/api\/iot\/v2\/live\?access_token=test-token$/);
    expect(byTestId(root, 'monitor-live')!.dataset.state).toBe('connecting');
  });

  it('opens with the status tab and the device of the address, details in the panel', async () => {
    await mount(`?status=offline&device=${id(3)}`);
    expect(document.querySelector('.ant-tabs-tab-active')!.textContent).toContain('Offline');
    expect(calls.find((c) => c.path === LIVE_API.states)!.query).toMatchObject({ status: 'offline' });
    expect(calls.find((c) => c.path === LIVE_API.points)!.query).toMatchObject({ status: 'offline' });
    expect(row(3)!.classList.contains('iotc-row-active')).toBe(true);
    expect(byTestId(document, 'live-map')!.dataset.selected).toBe(id(3));
    // The drawer's code comes the first time one opens.
    await settleUntil(() => byTestId(document, 'monitor-detail-status') !== null);
    const drawer = byTestId(document, 'monitor-detail')!;
    expect(text(drawer, 'monitor-detail-status')).toBe('Offline');
    expect(text(drawer, 'monitor-detail-temperature')).toBe('5.0 °C');
    expect(text(drawer, 'monitor-detail-door')).toBe('Closed');
    expect(text(drawer, 'monitor-detail-light')).toBe('-');
    expect(byTestId(drawer, 'monitor-detail-history')!.getAttribute('href')).toBe(`/view/deviceManage/sensors?device=${id(3)}`);
    // The chart's code is a chunk of its own, loaded when the first panel opens.
    await settleUntil(() => byTestId(drawer, 'monitor-curve-chart') !== null);
    expect(byTestId(drawer, 'monitor-curve-chart')).not.toBeNull();
  });

  it('selects a device from a table row or a map marker', async () => {
    const root = await mount();
    click(row(2)!.querySelector('td:nth-child(3)'));
    await settle(10);
    expect(text(root, 'where')).toContain(`device=${id(2)}`);
    expect(row(2)!.classList.contains('iotc-row-active')).toBe(true);
    const drawer = byTestId(document, 'monitor-detail')!;
    expect(text(drawer, 'monitor-detail-temperature')).toBe('9.5 °C');
    expect(byTestId(drawer, 'monitor-detail-temperature')!.dataset.alarm).toBe('true');
    click(marker(1));
    await settle(10);
    expect(text(root, 'where')).toContain(`device=${id(1)}`);
  });

  it('applies live batches to the rows, the map and the open panel, and reads everything again after a reconnect', async () => {
    const root = await mount(`?device=${id(1)}`);
    const socket = FakeSocket.all[0]!;
    const count = (path: string) => calls.filter((c) => c.path === path).length;
    const before = count(LIVE_API.summary);
    socket.send({ type: 'hello', data: { offlineAfterMs: 600_000 } });
    await settle();
    expect(byTestId(root, 'monitor-live')!.dataset.state).toBe('open');
    expect(text(root, 'monitor-live')).toBe('Live');
    // The counts were read a moment ago: the first greeting needs no second read.
    expect(count(LIVE_API.summary)).toBe(before);

    socket.send({
      type: 'device-states',
      data: [
        device(1, { status: 'parked', lat: 30.5, sensors: { temperature: 12.25, humidity: 60, battery: 80, door: 'open' } }),
        device(7, { name: 'Newcomer' }),
      ],
    });
    // Nothing moves before the flush.
    expect(marker(1)!.dataset.lat).toBe('31.1');
    await flushLive();
    const cell = row(1)!.querySelector('[data-testid=monitor-cell-temperature]')!;
    expect(cell.textContent).toBe('12.3°C');
    expect(cell.getAttribute('data-out-of-range')).toBe('true');
    expect(marker(1)!.dataset).toMatchObject({ lat: '30.5', status: 'parked' });
    expect(marker(7)).not.toBeNull();
    // The new device joins the map only; the table page waits for the next read.
    expect(row(7)).toBeNull();
    const drawer = byTestId(document, 'monitor-detail')!;
    expect(text(drawer, 'monitor-detail-temperature')).toBe('12.3 °C');
    expect(text(drawer, 'monitor-detail-status')).toBe('Parked');
    expect(text(drawer, 'monitor-detail-door')).toBe('Open');

    // A dropped connection says so, comes back after a second and reads everything again.
    act(() => socket.onclose?.({ code: 1006 } as CloseEvent));
    expect(byTestId(root, 'monitor-live')!.dataset.state).toBe('connecting');
    expect(text(root, 'monitor-live')).toBe('Reconnecting…');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 1100));
    });
    expect(FakeSocket.all).toHaveLength(2);
    const reads = [LIVE_API.summary, LIVE_API.states, LIVE_API.points].map(count);
    FakeSocket.all[1]!.send({ type: 'hello', data: { offlineAfterMs: 600_000 } });
    await settle(10);
    expect([LIVE_API.summary, LIVE_API.states, LIVE_API.points].map(count)).toEqual(reads.map((n) => n + 1));
    expect(byTestId(root, 'monitor-live')!.dataset.state).toBe('open');
  });

  it('stays closed when the server refuses the session', async () => {
    const root = await mount();
    act(() => FakeSocket.all[0]!.onclose?.({ code: 4403 } as CloseEvent));
    await settle();
    expect(byTestId(root, 'monitor-live')!.dataset.state).toBe('closed');
    expect(text(root, 'monitor-live')).toBe('Not live');
  });

  it('asks for the scenario asset kind and the keyword, and says No devices when none match', async () => {
    devices = [];
    const root = await mount('?f.keyword=nothing', 104);
    for (const path of [LIVE_API.states, LIVE_API.summary, LIVE_API.points]) {
      expect(calls.find((c) => c.path === path)!.query).toMatchObject({ assetKind: 'vehicle', keyword: 'nothing' });
    }
    expect(root.querySelector('.ant-empty')!.textContent).toContain('No devices');
  });

  it('shows a failed list with a retry that reads it again', async () => {
    failStates = true;
    const root = await mount();
    expect(byTestId(root, 'table-error')).not.toBeNull();
    failStates = false;
    click(byTestId(root, 'table-retry'));
    await settle(10);
    expect(byTestId(root, 'table-error')).toBeNull();
    expect(row(1)).not.toBeNull();
  });

  it('speaks Chinese', async () => {
    const i18next = (await import('i18next')).default;
    await i18next.changeLanguage('zh');
    const root = await mount();
    expect(text(root, 'screen-title')).toBe('实时监控');
    expect(text(root, 'monitor-tab-shutdown')).toBe('熄火0');
    showColumns(root, ['door']);
    expect(row(2)!.textContent).toContain('开');
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import { LIVE_API, type DeviceState, type Series, type TelemetryRow } from '@iotc/shared/live';
import type { Page } from '@iotc/shared/envelope';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, requestFile, type RequestOptions } from '../../../api/client.ts';
import type { EChartOption, EChartProps } from '../../../components/chart/echart.tsx';
import { curveOption, CURVE_FIELDS, presentCurves } from '../components/sensor-curves.ts';
import SensorsPage, { readWindow } from './sensors-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
// No canvas in jsdom: each chart is a stub holding the option it was given.
const options = new Map<string, EChartOption>();
vi.mock('../../../components/chart/echart.tsx', () => ({
  EChart: (props: EChartProps) => {
    const id = props['data-testid'] ?? '';
    options.set(id, props.option);
    return <div data-testid={id} data-group={props.group} />;
  },
}));
const requestMock = vi.mocked(request);
const requestFileMock = vi.mocked(requestFile);

const DEVICE = '0b7c1f9e-5a3d-4f43-9d1e-2a6b7c8d9e0f';
const FROM = '2026-03-01T00:00:00.000Z';
const TO = '2026-03-02T00:00:00.000Z';

const LATEST: DeviceState = {
  id: DEVICE,
  deviceId: '860000000000001',
  name: 'Reefer 1',
  orgId: 'o1',
  orgName: 'Org',
  status: 'parked',
  time: TO,
  lastSeenAt: TO,
  lat: 31.2,
  lon: 121.4,
  positioning: 'GPS',
  network: '4G',
  speed: 0,
  course: 0,
  acc: null,
  sensors: { temperature: 9.3, door: 'open' },
  asset: { id: 'a1', kind: 'container', code: 'C-01', name: 'Container 01', tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: null },
};

const SERIES: Series = {
  times: ['2026-03-01T01:00:00.000Z', '2026-03-01T02:00:00.000Z', '2026-03-01T03:00:00.000Z'],
  values: { temperature: [4.5, 6.1, 9.3], door: [0, 1, 1], humidity: [null, null, null], speed: [0, 12.5, 0] },
  total: 3,
};

function row(time: string, temperature: number, door: 'open' | 'closed'): TelemetryRow {
  return {
    time,
    receivedAt: time,
    lat: 31.2,
    lon: 121.4,
    positioning: 'GPS',
    network: '4G',
    speed: 0,
    course: 90,
    sensors: { temperature, door, battery: 85.6 },
    raw: {},
  };
}

const ROWS: TelemetryRow[] = [row('2026-03-01T03:00:00.000Z', 9.3, 'open'), row('2026-03-01T02:00:00.000Z', 6.1, 'closed')];

let mounted: Rendered | undefined;
const restore: (() => void)[] = [];

beforeAll(() => {
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
  options.clear();
  requestMock.mockReset();
  requestFileMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    if (path === `${DEVICE_API.devices}/${DEVICE}/latest`) return LATEST;
    if (path === LIVE_API.series) return SERIES;
    if (path === LIVE_API.telemetry) return { rows: ROWS, total: 2, page: Number(opts?.query?.page ?? 1), size: Number(opts?.query?.size ?? 10) } satisfies Page<TelemetryRow>;
    if (path === DEVICE_API.devices) return { rows: [] as DeviceRow[], total: 0, page: 1, size: 20 };
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  await setEnglish();
});

async function mount(search: string): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/transport/sensors${search}`]}>
        <Routes>
          <Route path="/view/transport/sensors" element={<SensorsPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(8);
  return mounted.container;
}

const WINDOW = `?device=${DEVICE}&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;

// The first render loads the table, the date picker and the select: slow on a busy machine.
describe('sensor curve screen', { timeout: 30_000 }, () => {
  it('asks for a device before showing anything', async () => {
    const root = await mount('');
    expect(byTestId(root, 'screen-title')?.textContent).toBe('Sensor curve monitoring');
    expect(byTestId(root, 'sensors-no-device')).not.toBeNull();
    expect(byTestId(root, 'sensor-charts')).toBeNull();
    expect(byTestId<HTMLButtonElement>(root, 'sensors-export-xlsx')?.disabled).toBe(true);
    expect(requestMock.mock.calls.some(([p]) => p === LIVE_API.series)).toBe(false);
  });

  it('draws one linked chart per sensor that has values, with the asset limits', async () => {
    const root = await mount(WINDOW);
    const series = requestMock.mock.calls.find(([p]) => p === LIVE_API.series);
    expect(series?.[1]?.query).toEqual({ device: DEVICE, from: FROM, to: TO, maxPoints: 2000 });

    const charts = [...root.querySelectorAll('[data-testid^=sensor-chart-][data-testid$=-canvas]')].map((el) => el.getAttribute('data-testid'));
    // Humidity came back all empty: no chart for it; the door comes last.
    expect(charts).toEqual(['sensor-chart-temperature-canvas', 'sensor-chart-speed-canvas', 'sensor-chart-door-canvas']);
    expect(root.querySelectorAll('[data-group=sensor-curves]')).toHaveLength(3);
    expect(byTestId(root, 'sensor-chart-temperature')?.textContent).toContain('Temperature(°C)');
    expect(byTestId(root, 'sensor-chart-temperature-limits')?.textContent).toBe('Range 2 to 8 °C');

    const temp = options.get('sensor-chart-temperature-canvas')!;
    const line = (Array.isArray(temp.series) ? temp.series[0] : temp.series) as { markLine?: { data: { yAxis: number }[] } };
    expect(line.markLine?.data.map((d) => d.yAxis)).toEqual([8, 2]);
    expect(byTestId(root, 'sensors-asset')?.textContent).toContain('Container 01');
  });

  it('lists the readings in the table with units and the door as text', async () => {
    const root = await mount(WINDOW);
    const call = requestMock.mock.calls.find(([p]) => p === LIVE_API.telemetry);
    expect(call?.[1]?.query).toMatchObject({ device: DEVICE, from: FROM, to: TO, page: 1, size: 10, sort: 'time,desc' });
    const table = root.querySelector<HTMLElement>('[data-table-id=telemetry]') ?? root;
    const body = [...table.querySelectorAll('tbody tr.ant-table-row')];
    expect(body).toHaveLength(2);
    expect(body[0]!.textContent).toContain('9.3°C');
    expect(body[0]!.textContent).toContain('Open');
    expect(body[1]!.textContent).toContain('Closed');
    const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).toContain('Temperature');
    expect(headers).toContain('Door');
    // No humidity in this window: no humidity column either.
    expect(headers).not.toContain('Humidity');
  });

  it('exports the window with the chosen format', async () => {
    requestFileMock.mockResolvedValue({ blob: new Blob(['x']), disposition: 'attachment; filename="sensor-data.xlsx"' });
    // jsdom cannot follow the download link; what it would save is checked instead.
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const root = await mount(WINDOW);
    click(byTestId(root, 'sensors-export-xlsx'));
    await settle();
    expect(requestFileMock).toHaveBeenCalledTimes(1);
    const [path, opts] = requestFileMock.mock.calls[0]!;
    expect(path).toBe(`${LIVE_API.telemetry}/export`);
    expect(opts?.query).toMatchObject({ device: DEVICE, from: FROM, to: TO, format: 'xlsx' });
    expect(saved.mock.contexts.map((a) => (a as HTMLAnchorElement).download)).toEqual(['sensor-data.xlsx']);
    saved.mockRestore();
  });

  it('says so when the window has no readings', async () => {
    requestMock.mockImplementation(async (path: string) => {
      if (path === LIVE_API.series) return { times: [], values: {}, total: 0 } satisfies Series;
      if (path === LIVE_API.telemetry) return { rows: [], total: 0, page: 1, size: 10 };
      if (path.endsWith('/latest')) return { ...LATEST, asset: null };
      throw new Error(`unexpected call ${path}`);
    });
    const root = await mount(WINDOW);
    expect(byTestId(root, 'sensor-charts-empty')?.textContent).toContain('No readings in this period');
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    const root = await mount(WINDOW);
    expect(byTestId(root, 'screen-title')?.textContent).toBe('传感器曲线监控');
    expect(byTestId(root, 'sensor-chart-door')?.textContent).toContain('门状态');
    const body = [...root.querySelectorAll('tbody tr.ant-table-row')];
    expect(body[0]!.textContent).toContain('开');
    expect(body[1]!.textContent).toContain('关');
  });
});

describe('curves', () => {
  it('keeps only sensors with values, in display order', () => {
    expect(presentCurves(SERIES).map((f) => f.key)).toEqual(['temperature', 'speed', 'door']);
    expect(presentCurves({ times: [], values: {}, total: 0 })).toEqual([]);
  });

  it('draws the door as a 0/1 step line labelled closed/open', () => {
    const door = CURVE_FIELDS.find((f) => f.key === 'door')!;
    const option = curveOption({
      field: door,
      times: [1, 2],
      values: [0, 1],
      from: 0,
      to: 3,
      limits: null,
      texts: { name: 'Door', upper: 'Upper limit', lower: 'Lower limit', doorOpen: 'Open', doorClosed: 'Closed' },
      withSlider: true,
    });
    const y = option.yAxis as { min: number; max: number; axisLabel: { formatter: (v: number) => string } };
    expect([y.min, y.max]).toEqual([0, 1]);
    expect([y.axisLabel.formatter(0), y.axisLabel.formatter(1)]).toEqual(['Closed', 'Open']);
    const line = (option.series as { step?: string }[])[0]!;
    expect(line.step).toBe('end');
  });

  it('reads device and window from the address, falling back to the default window', () => {
    const w = readWindow(new URLSearchParams(WINDOW), [null, null] as never);
    expect(w.device).toBe(DEVICE);
    expect(w.range.map((d) => d.toISOString())).toEqual([FROM, TO]);
    const bad = readWindow(new URLSearchParams('device=not-an-id&from=x'), ['a', 'b'] as never);
    expect(bad.device).toBeUndefined();
    expect(bad.range).toEqual(['a', 'b']);
  });
});

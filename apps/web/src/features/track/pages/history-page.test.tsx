import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { TRACK_API, type TrackAnswer, type TrackSummary } from '@iotc/shared/track';
import { LIVE_API } from '@iotc/shared/live';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, type RequestOptions } from '../../../api/client.ts';
import type { EChartOption, EChartProps } from '../../../components/chart/echart.tsx';
import HistoryPage, { last24Hours, rangeProblem, readTarget } from './history-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
// No canvas in jsdom: the chart is a stub holding its option.
const charts = new Map<string, EChartOption>();
vi.mock('../../../components/chart/echart.tsx', () => ({
  EChart: (props: EChartProps) => {
    charts.set(props['data-testid'] ?? '', props.option);
    return <div data-testid={props['data-testid']} />;
  },
}));
// Leaflet is driven in the browser test; here the page's calls to the map are recorded.
const mapCalls: { method: string; args: unknown[] }[] = [];
vi.mock('../components/track-map.tsx', async () => {
  const { useEffect } = await import('react');
  return {
    TrackMap: ({ onView }: { onView: (v: unknown) => void }) => {
      useEffect(() => {
        const view = new Proxy({} as Record<string, unknown>, {
          get: (_target, method: string) => (method === 'then' ? undefined : (...args: unknown[]) => mapCalls.push({ method, args })),
          set: () => true,
        });
        onView(view);
        return () => onView(null);
      }, [onView]);
      return <div data-testid="track-map" />;
    },
  };
});
const requestMock = vi.mocked(request);

const TASK = '4d2f8a1c-0b3e-4c5d-8e6f-7a8b9c0d1e2f';
const DEVICE = '0b7c1f9e-5a3d-4f43-9d1e-2a6b7c8d9e0f';
const T0 = Date.parse('2026-03-01T02:00:00.000Z');

const TRACK: TrackAnswer = {
  device: { id: DEVICE, deviceId: '860000000000001', name: 'Reefer 1' },
  task: { id: TASK, code: 'TT-20260301-0001' },
  from: '2026-03-01T02:00:00.000Z',
  to: '2026-03-01T03:00:00.000Z',
  simplified: false,
  bucketS: null,
  points: {
    t: [T0, T0 + 60_000, T0 + 120_000, T0 + 180_000],
    lat: [31.2, 31.21, 31.22, 31.23],
    lon: [121.4, 121.41, 121.42, 121.43],
    lbs: [0, 0, 0, 0],
    speed: [0, 40, 55, 10],
    temp: [4, 5, 9, 6],
    humidity: [60, 61, 62, 63],
    door: [0, 0, 1, 0],
  },
  limits: { tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: null },
};

const SUMMARY: TrackSummary = {
  trips: [],
  stops: [{ startT: T0 + 120_000, endT: T0 + 180_000, durationS: 60, lat: 31.22, lon: 121.42, open: false }],
  alarms: [{ id: 'a1', type: 'temp_high', startedAt: new Date(T0 + 120_000).toISOString(), lat: 31.22, lon: 121.42, levelName: 'Urgent', levelColor: '#f5222d', value: 9 }],
  stats: { distanceM: 12_345, durationS: 3 * 3600 + 300, movingS: 7200, maxSpeedKmh: 55, avgSpeedKmh: 37.4, stopCount: 1, points: 4, jumps: 2 },
};

let mounted: Rendered | undefined;
let trackAnswer: TrackAnswer | Error = TRACK;

beforeEach(async () => {
  await setEnglish();
  charts.clear();
  mapCalls.length = 0;
  trackAnswer = TRACK;
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, _opts?: RequestOptions) => {
    if (path === TRACK_API.track) {
      if (trackAnswer instanceof Error) throw trackAnswer;
      return trackAnswer;
    }
    if (path === TRACK_API.summary) return SUMMARY;
    if (path === LIVE_API.mapConfig) return { tileUrl: null, tileSubdomains: null, tileAttribution: null, tileMaxZoom: 18, tileCrs: 'wgs84' };
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

async function mount(search: string): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={[`/view/transport/history${search}`]}>
        <Routes>
          <Route path="/view/transport/history" element={<HistoryPage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(8);
  return mounted.container;
}

describe('history track screen', () => {
  it('asks for the task of a ?taskId= address and shows its statistics, stops and curves', async () => {
    const root = await mount(`?taskId=${TASK}`);
    await settleUntil(() => byTestId(root, 'track-stats') !== null);

    const trackCall = requestMock.mock.calls.find(([p]) => p === TRACK_API.track);
    expect(trackCall?.[1]?.query).toEqual({ deviceId: undefined, taskId: TASK, from: undefined, to: undefined, maxPoints: 5000 });
    expect(requestMock.mock.calls.find(([p]) => p === TRACK_API.summary)?.[1]?.query).toEqual({ deviceId: undefined, taskId: TASK, from: undefined, to: undefined });

    expect(byTestId(root, 'track-stat-distance')?.textContent).toBe('12.35 km');
    expect(byTestId(root, 'track-stat-duration')?.textContent).toBe('3 h 5 min');
    expect(byTestId(root, 'track-stat-max')?.textContent).toBe('55.0 km/h');
    expect(byTestId(root, 'track-stat-avg')?.textContent).toBe('37.4 km/h');
    expect(byTestId(root, 'track-stat-stops')?.textContent).toBe('1');
    expect(byTestId(root, 'track-stat-jumps')?.textContent).toBe('2');
    expect(root.querySelectorAll('[data-testid=track-stop]')).toHaveLength(1);
    expect(byTestId(root, 'track-detail-note')?.textContent).toBe('Full detail');
    expect(byTestId(root, 'track-info')?.textContent).toContain('TT-20260301-0001');

    // The map got the track (fitted) and the stop and alarm markers; the marker sits at the start.
    const setTrack = mapCalls.find((c) => c.method === 'setTrack');
    expect(setTrack?.args[2]).toBe(true);
    const marks = mapCalls.filter((c) => c.method === 'setStopsAndAlarms').at(-1);
    expect((marks?.args[0] as unknown[]).length).toBe(1);
    expect((marks?.args[1] as unknown[]).length).toBe(1);
    const lastVehicle = mapCalls.filter((c) => c.method === 'setVehicle').at(-1);
    expect(lastVehicle?.args[0]).toEqual([31.2, 121.4]);
    expect(byTestId(root, 'playback-time')?.textContent).toBe(dayjs(T0).format('YYYY-MM-DD HH:mm:ss'));
    expect(byTestId(root, 'track-curves')?.dataset.playhead).toBe(String(T0));
    for (const id of ['playback-play', 'playback-speed', 'playback-slider', 'playback-time', 'playback-follow', 'track-map', 'track-color-mode']) expect(byTestId(root, id), id).not.toBeNull();

    // The curves: temperature with the task's limits as lines.
    const option = charts.get('track-curves-chart') as { series: { id: string; data: unknown[]; markLine?: { data: { yAxis: number }[] } }[] };
    expect(option.series.map((s) => s.id)).toEqual(['temp', 'humidity', 'speed']);
    expect(option.series[0]!.data).toHaveLength(4);
    expect(option.series[0]!.markLine?.data.map((d) => d.yAxis)).toEqual([2, 8]);

    // A stop in the list seeks the playback to where it began.
    click(root.querySelector('[data-testid=track-stop]'));
    await settle(2);
    expect(byTestId(root, 'track-curves')?.dataset.playhead).toBe(String(T0 + 120_000));
    expect(mapCalls.filter((c) => c.method === 'setVehicle').at(-1)?.args[0]).toEqual([31.22, 121.42]);
    expect(byTestId(root, 'playback-time')?.textContent).toBe(dayjs(T0 + 120_000).format('YYYY-MM-DD HH:mm:ss'));
  });

  it('says so when the range holds no track', async () => {
    trackAnswer = { ...TRACK, task: null, limits: null, points: { t: [], lat: [], lon: [], lbs: [], speed: [], temp: [], humidity: [], door: [] } };
    const root = await mount(`?deviceId=${DEVICE}&from=2026-03-01T00:00:00.000Z&to=2026-03-02T00:00:00.000Z`);
    await settleUntil(() => byTestId(root, 'track-empty') !== null);
    expect(byTestId(root, 'track-empty')?.textContent).toContain('No track data in this period');
    const trackCall = requestMock.mock.calls.find(([p]) => p === TRACK_API.track);
    expect(trackCall?.[1]?.query).toMatchObject({ deviceId: DEVICE, from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' });
  });

  it('shows a failure with a retry', async () => {
    trackAnswer = new ApiError(500, 'INTERNAL', 'Server busy');
    const root = await mount(`?taskId=${TASK}`);
    await settleUntil(() => byTestId(root, 'track-error') !== null);
    expect(byTestId(root, 'track-error')?.textContent).toContain('The track could not be loaded');
    expect(byTestId(root, 'track-retry')).not.toBeNull();
  });

  it('marks a simplified track with its bucket', async () => {
    trackAnswer = { ...TRACK, simplified: true, bucketS: 30 };
    const root = await mount(`?taskId=${TASK}`);
    await settleUntil(() => byTestId(root, 'track-detail-note') !== null);
    expect(byTestId(root, 'track-detail-note')?.textContent).toContain('one point per 30 s');
  });
});

describe('address and range rules', () => {
  const fallback = last24Hours(dayjs('2026-03-02T00:00:00Z'));
  it('reads a task, a device with its range, and ignores what is not a uuid', () => {
    expect(readTarget(new URLSearchParams(`taskId=${TASK}`), fallback)).toEqual({ kind: 'task', id: TASK, range: undefined });
    const d = readTarget(new URLSearchParams(`deviceId=${DEVICE}&from=2026-03-01T00:00:00Z&to=2026-03-01T05:00:00Z`), fallback);
    expect(d.kind).toBe('device');
    expect(d.range?.[1].diff(d.range[0], 'hour')).toBe(5);
    expect(readTarget(new URLSearchParams('deviceId=nope'), fallback)).toEqual({ kind: 'device', id: undefined, range: fallback });
  });

  it('refuses a range over 31 days or backwards', () => {
    const a = dayjs('2026-01-01T00:00:00Z');
    expect(rangeProblem([a, a.add(31, 'day')])).toBeNull();
    expect(rangeProblem([a, a.add(31, 'day').add(1, 'second')])).toBe('tooLong');
    expect(rangeProblem([a, a])).toBe('order');
    expect(rangeProblem(undefined)).toBeNull();
  });
});

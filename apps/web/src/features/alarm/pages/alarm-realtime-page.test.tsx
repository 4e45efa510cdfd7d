import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ALARM_API, type AlarmRow, type AlarmStats } from '@iotc/shared/alarm';
import { API } from '@iotc/shared/auth';
import { LIVE_API } from '@iotc/shared/live';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, type RequestOptions } from '../../../api/client.ts';
import type * as liveModule from '../../../lib/live.ts';
import type { LiveChannel } from '../../../lib/live.ts';
import type { LiveMapProps } from '../../../components/map/live-map.tsx';
import { alarm, LEVELS, MINOR, URGENT, user } from '../alarm-fixtures.ts';
import AlarmRealtimePage, { LIVE_FLUSH_MS } from './alarm-realtime-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

// The live channel as the test drives it: the page's handlers are kept, its state is the test's.
const live = vi.hoisted(() => ({
  onAlarms: undefined as ((rows: AlarmRow[]) => void) | undefined,
  onHello: undefined as (() => void) | undefined,
  channel: { status: 'open' } as LiveChannel,
}));
vi.mock('../../../lib/live.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof liveModule>()),
  useLiveAlarms: (onAlarms: (rows: AlarmRow[]) => void, onHello?: () => void) => {
    live.onAlarms = onAlarms;
    live.onHello = onHello;
    return live.channel;
  },
}));

// Leaflet needs a real browser: the map shows its points as plain elements with LiveMap's hooks.
vi.mock('../../../components/map/live-map.tsx', () => ({
  LiveMap: ({ points, selectedId, onSelect, palette }: LiveMapProps<string>) => (
    <div data-testid="live-map" data-selected={selectedId ?? ''}>
      {points.map((p) => (
        <span key={p.id} data-testid="map-marker" data-id={p.id} data-level={p.status} data-color={palette?.color(p.status)} onClick={() => onSelect?.(p.id)} />
      ))}
    </div>
  ),
}));

let rows: AlarmRow[];
let calls: { path: string; opts: RequestOptions | undefined }[];
let mounted: Rendered | undefined;

function stats(urgent: number, minor: number): AlarmStats {
  return {
    byType: [],
    byLevel: [
      { levelId: URGENT.id, code: 'urgent', nameZh: '紧急', nameEn: 'Urgent', color: URGENT.color, count: urgent },
      { levelId: MINOR.id, code: 'minor', nameZh: '次要', nameEn: 'Minor', color: MINOR.color, count: minor },
    ],
    overTime: [],
  };
}
let counts: AlarmStats;

beforeEach(async () => {
  await setEnglish();
  live.onAlarms = undefined;
  live.onHello = undefined;
  live.channel = { status: 'open' };
  // Newest first.
  rows = [alarm(3), alarm(2, { level: MINOR, type: 'humidity_low', unit: '%', value: 12, peak: 10 }), alarm(1, { lat: null, lon: null })];
  counts = stats(2, 1);
  calls = [];
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    calls.push({ path, opts });
    if (path === API.info) return user(['alarm:read', 'alarm:handle']);
    if (path === ALARM_API.levels) return { rows: LEVELS, total: 2, page: 1, size: 100 };
    if (path === ALARM_API.alarms) return { rows, total: rows.length, page: 1, size: 10 };
    if (path === `${ALARM_API.alarms}/stats`) return counts;
    if (path === LIVE_API.mapConfig) return { tileUrl: null, tileSubdomains: null, tileAttribution: null, tileCrs: 'wgs84', tileMaxZoom: 18 };
    if (path.endsWith('/acknowledge')) {
      const id = path.split('/').at(-2)!;
      return { ...rows.find((r) => r.id === id)!, acknowledgedAt: '2026-03-01T05:00:00.000Z', acknowledgedBy: 'operator' };
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

async function mount(): Promise<HTMLElement> {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/alarm/realtime']}>
        <Routes>
          <Route path="/view/alarm/realtime" element={<AlarmRealtimePage />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
  await settle(10);
  return mounted.container;
}

const tableRows = () => [...document.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')].map((r) => r.getAttribute('data-row-key'));
const row = (a: AlarmRow) => document.querySelector<HTMLElement>(`tr[data-row-key="${a.id}"]`);
const markers = () => [...document.querySelectorAll<HTMLElement>('[data-testid=map-marker]')].map((m) => m.dataset.id);
const text = (testId: string) => byTestId(document, testId)?.textContent;

function push(...pushed: AlarmRow[]) {
  act(() => live.onAlarms!(pushed));
}
async function flushLive() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, LIVE_FLUSH_MS + 100));
  });
  await settle();
}

describe('real-time alarms', { timeout: 40_000 }, () => {
  it('lists the active alarms newest first, 10 a page (spec section 9), with counters per level and a marker per positioned alarm', async () => {
    await mount();
    expect(text('screen-title')).toBe('Real-time alarm monitoring');
    const list = calls.find((c) => c.path === ALARM_API.alarms)!;
    expect(list.opts!.query).toEqual({ status: 'active', page: 1, size: 10, sort: 'startedAt,desc' });
    expect(calls.find((c) => c.path === `${ALARM_API.alarms}/stats`)!.opts!.query).toMatchObject({ status: 'active' });
    expect(tableRows()).toEqual([alarm(3).id, alarm(2).id, alarm(1).id]);
    expect(text('alarm-counter-all-count')).toBe('3');
    // Counters and markers go by level code (the same level of several organisations is one).
    expect(text(`alarm-counter-${URGENT.code}`)).toBe('2');
    expect(text(`alarm-counter-${MINOR.code}`)).toBe('1');
    // Alarm 1 has no position: no marker. Markers take the level colours.
    expect(markers()).toEqual([alarm(3).id, alarm(2).id]);
    const minor = document.querySelector<HTMLElement>(`[data-testid=map-marker][data-id="${alarm(2).id}"]`)!;
    expect(minor.dataset).toMatchObject({ level: MINOR.code, color: MINOR.color });
    expect(row(alarm(2))!.querySelector('[data-testid=alarm-cell-level]')!.textContent).toBe('Minor');
    expect(text('alarm-live')).toBe('Live');
  });

  it('merges pushed alarms per id at the next flush: a new one joins, an acknowledged one changes, a cleared one leaves', async () => {
    await mount();
    push(
      alarm(4, { device: { id: 'd4', deviceId: '860000000000004', name: 'Newcomer' } }),
      alarm(2, { level: MINOR, type: 'humidity_low', unit: '%', value: 12, peak: 10, acknowledgedAt: '2026-03-01T02:10:00.000Z', acknowledgedBy: 'admin', count: 3 }),
    );
    push(alarm(3, { status: 'cleared', endedAt: '2026-03-01T03:20:00.000Z' }));
    // Nothing changes before the flush.
    expect(tableRows()).toEqual([alarm(3).id, alarm(2).id, alarm(1).id]);
    await flushLive();
    expect(tableRows()).toEqual([alarm(4).id, alarm(2).id, alarm(1).id]);
    // The device's name is behind custom columns at 1280 px on this screen; its id shows.
    expect(row(alarm(4))!.textContent).toContain('860000000000004');
    expect(row(alarm(2))!.textContent).toContain('admin');
    // Acknowledged: no Acknowledge button any more, Close stays.
    expect(row(alarm(2))!.querySelector('[data-testid=alarm-row-acknowledge]')).toBeNull();
    expect(row(alarm(2))!.querySelector('[data-testid=alarm-row-close]')).not.toBeNull();
    expect(markers()).toEqual([alarm(4).id, alarm(2).id]);
    // One joined, one left.
    expect(document.querySelector('.ant-pagination')!.textContent).toContain('Total 3 items');

    // The counters are read again after alarms opened or ended.
    counts = stats(2, 1);
    const reads = calls.filter((c) => c.path === `${ALARM_API.alarms}/stats`).length;
    await act(async () => {
      await new Promise((r) => setTimeout(r, 1100));
    });
    await settle();
    expect(calls.filter((c) => c.path === `${ALARM_API.alarms}/stats`).length).toBe(reads + 1);

    // A closed alarm leaves too.
    push(alarm(1, { status: 'closed', closedBy: 'admin', closeReason: 'x' }));
    await flushLive();
    expect(tableRows()).toEqual([alarm(4).id, alarm(2).id]);
    expect(document.querySelector('.ant-pagination')!.textContent).toContain('Total 2 items');
  });

  it('focuses the marker of a clicked row, and selects the row of a clicked marker', async () => {
    await mount();
    click(row(alarm(2))!.querySelector('td:nth-child(4)'));
    await settle();
    expect(byTestId(document, 'live-map')!.dataset.selected).toBe(alarm(2).id);
    expect(row(alarm(2))!.classList.contains('iotc-row-active')).toBe(true);
    click(document.querySelector(`[data-testid=map-marker][data-id="${alarm(3).id}"]`));
    await settle();
    expect(row(alarm(3))!.classList.contains('iotc-row-active')).toBe(true);
  });

  it('acknowledges from the row', async () => {
    await mount();
    click(row(alarm(3))!.querySelector('[data-testid=alarm-row-acknowledge]'));
    await settle(10);
    expect(calls.find((c) => c.path.endsWith('/acknowledge'))).toMatchObject({ path: `${ALARM_API.alarms}/${alarm(3).id}/acknowledge`, opts: { method: 'POST' } });
    expect(row(alarm(3))!.textContent).toContain('operator');
  });

  it('reads the list again after a reconnect and shows the channel state', async () => {
    live.channel = { status: 'connecting' };
    const root = await mount();
    expect(byTestId(root, 'alarm-live')!.dataset.state).toBe('connecting');
    const reads = calls.filter((c) => c.path === ALARM_API.alarms).length;
    act(() => live.onHello!());
    await settle();
    // The first greeting follows the first read: nothing read twice.
    expect(calls.filter((c) => c.path === ALARM_API.alarms).length).toBe(reads);
    act(() => live.onHello!());
    await settle(10);
    expect(calls.filter((c) => c.path === ALARM_API.alarms).length).toBe(reads + 1);
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    await mount();
    expect(text('screen-title')).toBe('实时告警监控');
    expect(row(alarm(2))!.querySelector('[data-testid=alarm-cell-type]')!.textContent).toBe('湿度过低');
    expect(byTestId(document, 'alarm-counters')!.textContent).toContain('紧急');
  });
});

// @vitest-environment jsdom
// Leaflet in jsdom: no layout and no canvas, so the container is given a size and the offline
// (canvas) layer is left out; what is checked is the markers' DOM, the legend and the life cycle.
// Drawing, panning and the offline land layer are covered in a real browser.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, StrictMode } from 'react';
import * as L from 'leaflet';
import type { DeviceStatus, MapConfig, MapPoint } from '@iotc/shared/live';
import { click, mapsMade, render, type Rendered } from '../../test/dom.tsx';
import { LiveMap, type LiveMapProps } from './live-map.tsx';
import { toDisplay } from './coords.ts';
import { BaseMap } from './base-map.ts';
import { ClusterLayer, type ClusterLayerOptions, type MapPalette } from './cluster-layer.ts';
import { stubElementSize, restoreStubs } from '../../test/stub.ts';

vi.mock('./offline-layer.ts', async () => {
  const leaflet = await import('leaflet');
  return { createOfflineLayer: () => leaflet.layerGroup(), offlineRenderer: () => leaflet.svg() };
});

beforeAll(() => {
  stubElementSize(800, 600);
});
afterAll(restoreStubs);

/** The live map without React: the shared map with the devices as its layer. */
function liveMap(el: HTMLElement, options: ClusterLayerOptions) {
  const base = new BaseMap(el);
  const layer = new ClusterLayer(base, options);
  return {
    map: base.map,
    setConfig: (config: MapConfig | null) => base.setConfig(config),
    setPoints: (points: MapPoint[]) => layer.setPoints(points),
    setSelected: (id: string | null) => layer.setSelected(id),
    destroy: () => {
      layer.destroy();
      base.destroy();
    },
  };
}

let mounted: Rendered | undefined;
afterEach(() => {
  vi.useRealTimers();
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

const labels: Record<DeviceStatus, string> = {
  unused: 'Unused',
  shutdown: 'Shut down',
  offline: 'Offline',
  parked: 'Parked',
  driving: 'Driving',
};
const statusLabel = (s: DeviceStatus) => labels[s];

function point(id: string, lat: number, lon: number, status: DeviceStatus = 'parked'): MapPoint {
  return { id, deviceId: `dev-${id}`, name: `Truck ${id}`, status, lat, lon };
}

// Far apart: at the fitted zoom each stands alone.
const spread = [point('bj', 39.9087, 116.3975, 'driving'), point('sh', 31.2304, 121.4737, 'offline'), point('gz', 23.1291, 113.2644)];

function map(props: Partial<LiveMapProps> & { points: MapPoint[] }) {
  return (
    <StrictMode>
      <div style={{ height: 600 }}>
        <LiveMap config={null} statusLabel={statusLabel} {...props} />
      </div>
    </StrictMode>
  );
}

function markers(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="map-marker"]')];
}
function marker(id: string): HTMLElement | undefined {
  return markers().find((m) => m.dataset.deviceId === id);
}

describe('LiveMap', () => {
  it('draws one marker per device with its status and WGS-84 position, and a legend', async () => {
    mounted = render(map({ points: spread }));
    await mapsMade();
    const container = document.querySelector('[data-testid="live-map"]')!;
    expect(container.classList.contains('leaflet-container')).toBe(true);
    expect(document.querySelectorAll('.leaflet-map-pane')).toHaveLength(1);
    expect(markers().map((m) => m.dataset.deviceId).sort()).toEqual(['bj', 'gz', 'sh']);
    expect(marker('sh')!.dataset).toMatchObject({ status: 'offline', lat: '31.2304', lon: '121.4737', selected: 'false' });
    const legend = document.querySelector('[data-testid="map-legend"]')!;
    expect(legend.textContent).toBe('UnusedShut downOfflineParkedDriving');
  });

  it('clusters devices close together and always shows the selected one on its own', async () => {
    const near = [point('a', 31.23, 121.47, 'driving'), point('b', 31.2301, 121.4701, 'offline'), point('c', 31.2302, 121.4702), point('far', 45.8, 126.5)];
    mounted = render(map({ points: near }));
    await mapsMade();
    // Fitted to Shanghai and Harbin: the three in Shanghai are one cluster.
    const cluster = document.querySelector<HTMLElement>('[data-testid="map-cluster"]')!;
    expect(cluster.dataset).toMatchObject({ count: '3', status: 'offline' });
    expect(markers().map((m) => m.dataset.deviceId)).toEqual(['far']);

    mounted.rerender(map({ points: near, selectedId: 'b' }));
    expect(marker('b')!.dataset.selected).toBe('true');
  });

  it('colours points, clusters and the legend by another palette (alarm levels)', async () => {
    const palette: MapPalette<string> = { severity: ['urgent', 'minor'], color: (c) => (c === 'urgent' ? '#f5222d' : '#fadb14') };
    const names: Record<string, string> = { urgent: 'Urgent', minor: 'Minor' };
    const alarms = [
      { id: 'a', name: 'Truck a', status: 'minor', lat: 31.23, lon: 121.47 },
      { id: 'b', name: 'Truck b', status: 'urgent', lat: 31.2301, lon: 121.4701 },
      { id: 'far', name: 'Truck far', status: 'minor', lat: 45.8, lon: 126.5 },
    ];
    mounted = render(
      <div style={{ height: 600 }}>
        <LiveMap<string> points={alarms} config={null} statusLabel={(c) => names[c]!} palette={palette} />
      </div>,
    );
    await mapsMade();
    expect(document.querySelector('[data-testid="map-legend"]')!.textContent).toBe('UrgentMinor');
    // The cluster of a and b is marked by its most severe level.
    expect(document.querySelector<HTMLElement>('[data-testid="map-cluster"]')!.dataset).toMatchObject({ count: '2', status: 'urgent' });
    const far = marker('far')!;
    expect(far.dataset.status).toBe('minor');
    expect(far.style.getPropertyValue('--iotc-dot')).toBe('#fadb14');
  });

  it('reports a click on a marker', async () => {
    const onSelect = vi.fn();
    mounted = render(map({ points: spread, onSelect }));
    await mapsMade();
    click(marker('gz'));
    expect(onSelect).toHaveBeenCalledWith('gz');
  });

  it('moves a marker when its device moves, reusing the element', async () => {
    vi.useFakeTimers();
    mounted = render(map({ points: spread }));
    await mapsMade();
    const before = marker('bj')!;
    const moved = spread.map((p) => (p.id === 'bj' ? { ...p, lat: 39.95, status: 'parked' as const } : p));
    mounted.rerender(map({ points: moved }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(300);
    });
    const after = marker('bj')!;
    expect(after).toBe(before);
    expect(after.dataset).toMatchObject({ lat: '39.95', status: 'parked' });
  });

  it('keeps WGS-84 in the data attributes while placing markers in GCJ-02 on GCJ-02 tiles', async () => {
    const config: MapConfig = { tileUrl: 'https://t{s}.example.com/{z}/{x}/{y}.png', tileSubdomains: '1234', tileAttribution: '© Example', tileCrs: 'gcj02', tileMaxZoom: 18 };
    mounted = render(map({ points: [spread[0]!], config }));
    await mapsMade();
    const el = marker('bj')!;
    expect(el.dataset).toMatchObject({ lat: '39.9087', lon: '116.3975' });
    expect(document.querySelectorAll('.leaflet-tile-pane .leaflet-layer')).toHaveLength(1);
    // The attribution shows once the sanitiser is fetched.
    await vi.waitFor(() => expect(document.querySelector('.leaflet-control-attribution')!.textContent).toContain('© Example'));
  });

  it('places devices at their GCJ-02 position on GCJ-02 tiles, and back on WGS-84 tiles', () => {
    const el = document.createElement('div');
    document.body.append(el);
    const view = liveMap(el, { onSelect: () => {}, statusLabel });
    const config: MapConfig = { tileUrl: 'https://t{s}.example.com/{z}/{x}/{y}.png', tileSubdomains: null, tileAttribution: null, tileCrs: 'gcj02', tileMaxZoom: 18 };
    view.setConfig(config);
    view.setPoints([spread[0]!]);
    // One device: the first view centres on it.
    const [lat, lon] = toDisplay(39.9087, 116.3975, 'gcj02');
    expect(view.map.getCenter().lat).toBeCloseTo(lat, 5);
    expect(view.map.getCenter().lng).toBeCloseTo(lon, 5);
    const shown = () => {
      const el = marker('bj')!;
      return L.DomUtil.getPosition(el).equals(view.map.latLngToLayerPoint([lat, lon]).round());
    };
    expect(shown()).toBe(true);
    view.setConfig({ ...config, tileCrs: 'wgs84' });
    expect(shown()).toBe(false);
    view.setConfig(null);
    expect(shown()).toBe(false);
    expect(el.querySelectorAll('.leaflet-tile-pane .leaflet-layer')).toHaveLength(0);
    view.destroy();
  });

  it('can be mounted again on the same element after it was removed (StrictMode remount)', () => {
    const el = document.createElement('div');
    document.body.append(el);
    const options = { onSelect: () => {}, statusLabel };
    const first = liveMap(el, options);
    first.setPoints(spread);
    first.destroy();
    const second = liveMap(el, options);
    second.setPoints(spread);
    expect(el.querySelectorAll('.leaflet-map-pane')).toHaveLength(1);
    expect(el.querySelectorAll('[data-testid="map-legend"]')).toHaveLength(1);
    expect(markers()).toHaveLength(3);
    second.destroy();
    expect(markers()).toHaveLength(0);
  });

  it('fits the first devices, then keeps the view of the user; takes new lists at most every 250 ms', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const el = document.createElement('div');
    document.body.append(el);
    const view = liveMap(el, { onSelect: () => {}, statusLabel });
    expect(view.map.getCenter()).toMatchObject({ lat: 35, lng: 105 });
    view.setPoints(spread);
    const fitted = view.map.getBounds();
    for (const p of spread) expect(fitted.contains([p.lat, p.lon])).toBe(true);

    view.map.setView([50, 10], 6, { animate: false }); // the user looks at Europe
    const moved = (lat: number) => spread.map((p) => (p.id === 'bj' ? { ...p, lat } : p));
    view.setPoints(moved(40));
    view.setPoints(moved(41)); // within 250 ms of the first list: waits, and only the newest counts
    vi.advanceTimersByTime(100);
    expect(view.map.getCenter()).toMatchObject({ lat: 50, lng: 10 });
    view.map.setView([39.9, 116.4], 6, { animate: false });
    expect(marker('bj')!.dataset.lat).toBe('39.9087');
    vi.advanceTimersByTime(200);
    expect(marker('bj')!.dataset.lat).toBe('41');
    expect(view.map.getCenter().lat).toBeCloseTo(39.9, 5); // not refitted
    view.destroy();
  });

  it('pans to the selected device once per selection, even when it was in a cluster', () => {
    const el = document.createElement('div');
    document.body.append(el);
    const view = liveMap(el, { onSelect: () => {}, statusLabel });
    const near = [point('a', 31.23, 121.47), point('b', 31.2301, 121.4701), point('far', 45.8, 126.5)];
    view.setSelected('b'); // before the devices are known: focused when they arrive
    view.setPoints(near);
    expect(view.map.getCenter().lat).toBeCloseTo(31.2301, 4);
    expect(view.map.getZoom()).toBeGreaterThanOrEqual(12);
    expect(marker('b')!.dataset.selected).toBe('true');
    view.map.setView([45.8, 126.5], 8, { animate: false });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    view.setPoints(near.map((p) => ({ ...p, lat: p.lat + 0.001 })));
    vi.advanceTimersByTime(300);
    expect(view.map.getCenter().lat).toBeCloseTo(45.8, 4); // no second focus on updates
    expect(marker('b')!.dataset.selected).toBe('true'); // still drawn, outside the view
    view.destroy();
  });

  it('removes the Leaflet map on unmount', () => {
    mounted = render(map({ points: spread }));
    const container = document.querySelector('[data-testid="live-map"]')!;
    mounted.unmount();
    mounted = undefined;
    expect(container.querySelector('.leaflet-pane, .leaflet-control')).toBeNull();
    expect((container as { _leaflet_id?: number })._leaflet_id).toBeUndefined();
  });
});

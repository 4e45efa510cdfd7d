// @vitest-environment jsdom
// The one map component: a <MapView> makes one Leaflet map, its layer components add their
// layers to it on mount and take them off on unmount. Leaflet in jsdom as in live-map.test.tsx:
// a sized container and the offline (canvas) layer left out.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { StrictMode, useEffect } from 'react';
import * as L from 'leaflet';
import type { MapConfig, MapPoint } from '@iotc/shared/live';
import { mapsMade, render, type Rendered } from '../../test/dom.tsx';
import { toDisplay } from './coords.ts';
import type { BaseMap } from './base-map.ts';
import { MapClusters } from './map-clusters.tsx';
import { MapPick } from './map-pick.tsx';
import { MapView, useMap } from './map-view.tsx';
import { stubElementSize, restoreStubs } from '../../test/stub.ts';

vi.mock('./offline-layer.ts', async () => {
  const leaflet = await import('leaflet');
  return { createOfflineLayer: () => leaflet.layerGroup(), offlineRenderer: () => leaflet.svg() };
});

beforeAll(() => {
  stubElementSize(800, 600);
});
afterAll(restoreStubs);

let mounted: Rendered | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

const GCJ: MapConfig = { tileUrl: 'https://t{s}.example.com/{z}/{x}/{y}.png', tileSubdomains: '1234', tileAttribution: '© Example', tileCrs: 'gcj02', tileMaxZoom: 17 };
const BEIJING: [number, number] = [39.9087, 116.3975];

/** A layer as the screens write them: a marker at a WGS-84 point, added in an effect, removed in its cleanup. */
function Pin({ at, id }: { at: [number, number]; id: string }) {
  const base = useMap();
  useEffect(() => {
    const marker = L.marker(base.display(at[0], at[1]), { icon: L.divIcon({ className: `pin pin-${id}` }) }).addTo(base.map);
    const unsubscribe = base.subscribe((change) => {
      if (change === 'config') marker.setLatLng(base.display(at[0], at[1]));
    });
    return () => {
      unsubscribe();
      marker.remove();
    };
  }, [base, at, id]);
  return null;
}

function pins(root: ParentNode = document): string[] {
  return [...root.querySelectorAll<HTMLElement>('.pin')].map((el) => el.className.match(/pin-(\w+)/)![1]!).sort();
}

/** Hands out the map of its MapView, for a test to act on it as a user would. */
let grabbed: BaseMap | null = null;
function Grab() {
  grabbed = useMap();
  return null;
}

describe('MapView', () => {
  it('makes one Leaflet map per MapView, also under StrictMode, each with its own layers', async () => {
    mounted = render(
      <StrictMode>
        <MapView config={null} testId="one">
          <Pin id="a" at={BEIJING} />
        </MapView>
        <MapView config={null} testId="two">
          <Pin id="b" at={[31.2304, 121.4737]} />
          <Pin id="c" at={[23.1291, 113.2644]} />
        </MapView>
      </StrictMode>,
    );
    await mapsMade(2);
    const one = document.querySelector('[data-testid="one"]')!;
    const two = document.querySelector('[data-testid="two"]')!;
    expect(document.querySelectorAll('.leaflet-map-pane')).toHaveLength(2);
    expect(one.querySelectorAll('.leaflet-map-pane')).toHaveLength(1);
    expect(one.querySelectorAll('.leaflet-iotc-offline-pane')).toHaveLength(1);
    expect(one.querySelectorAll('.leaflet-control-attribution')).toHaveLength(1);
    expect(pins(one)).toEqual(['a']);
    expect(pins(two)).toEqual(['b', 'c']);
  });

  it('adds a layer when it mounts and takes it off when it unmounts, leaving the map', async () => {
    const view = (shown: string[]) => (
      <MapView config={null} testId="map">
        {shown.map((id) => (
          <Pin key={id} id={id} at={BEIJING} />
        ))}
      </MapView>
    );
    mounted = render(view(['a']));
    await mapsMade();
    const pane = document.querySelector('[data-testid="map"] .leaflet-map-pane');
    expect(pins()).toEqual(['a']);
    mounted.rerender(view(['a', 'b']));
    expect(pins()).toEqual(['a', 'b']);
    mounted.rerender(view(['b']));
    expect(pins()).toEqual(['b']);
    mounted.rerender(view([]));
    expect(pins()).toEqual([]);
    // The same map throughout.
    expect(document.querySelector('[data-testid="map"] .leaflet-map-pane')).toBe(pane);
  });

  it('takes the devices and their legend off when the clusters layer unmounts', async () => {
    const points: MapPoint[] = [{ id: 'bj', deviceId: 'dev-bj', name: 'Truck', status: 'parked', lat: BEIJING[0], lon: BEIJING[1] }];
    const view = (withDevices: boolean) => (
      <MapView config={null} testId="map">
        {withDevices ? <MapClusters points={points} statusLabel={(s) => s} /> : null}
      </MapView>
    );
    mounted = render(view(true));
    await mapsMade();
    expect(document.querySelectorAll('[data-testid="map-marker"]')).toHaveLength(1);
    expect(document.querySelectorAll('[data-testid="map-legend"]')).toHaveLength(1);
    mounted.rerender(view(false));
    expect(document.querySelectorAll('[data-testid="map-marker"]')).toHaveLength(0);
    expect(document.querySelectorAll('[data-testid="map-legend"]')).toHaveLength(0);
    expect(document.querySelectorAll('[data-testid="map"] .leaflet-map-pane')).toHaveLength(1);
  });

  it('puts the configured tiles over the base and moves its layers to GCJ-02 on GCJ-02 tiles', async () => {
    const view = (config: MapConfig | null) => (
      <MapView config={config} testId="map">
        <Pin id="a" at={BEIJING} />
        <Grab />
      </MapView>
    );
    mounted = render(view(null));
    await mapsMade();
    // Close enough in for the few hundred metres between the two systems to be many pixels.
    grabbed!.map.setView(BEIJING, 16, { animate: false });
    const el = document.querySelector<HTMLElement>('.pin-a')!;
    const container = document.querySelector('[data-testid="map"]')!;
    expect(container.querySelectorAll('.leaflet-tile-pane .leaflet-layer')).toHaveLength(0);
    const position = () => L.DomUtil.getPosition(el);
    const wgs = position();
    mounted.rerender(view(GCJ));
    expect(container.querySelectorAll('.leaflet-tile-pane .leaflet-layer')).toHaveLength(1);
    // The attribution shows once the sanitiser is fetched.
    await vi.waitFor(() => expect(container.querySelector('.leaflet-control-attribution')!.textContent).toContain('© Example'));
    expect(position().equals(wgs)).toBe(false);
    mounted.rerender(view(null));
    expect(container.querySelectorAll('.leaflet-tile-pane .leaflet-layer')).toHaveLength(0);
    expect(container.querySelector('.leaflet-control-attribution')!.textContent).not.toContain('© Example');
    expect(position().equals(wgs)).toBe(true);
  });

  it('shows a configured attribution as links and text only', async () => {
    const attribution = '<a href="https://tiles.example.com" onclick="window.hacked = 1">© Tiles</a><img src="x" onerror="window.hacked = 1"><script>window.hacked = 1</script>';
    mounted = render(<MapView config={{ ...GCJ, tileAttribution: attribution }} testId="map" />);
    const control = () => document.querySelector('[data-testid="map"] .leaflet-control-attribution')!;
    await vi.waitFor(() => expect(control().textContent).toContain('© Tiles'));
    const link = control().querySelector('a[href="https://tiles.example.com"]')!;
    expect(link.getAttribute('onclick')).toBeNull();
    expect(control().querySelector('img, script')).toBeNull();
  });

  it('reports a click as the WGS-84 point under the mouse on GCJ-02 tiles', async () => {
    const picked: [number, number][] = [];
    mounted = render(
      <MapView config={GCJ} testId="map">
        <MapPick onPick={(lat, lon) => picked.push([lat, lon])} />
        <Grab />
      </MapView>,
    );
    await mapsMade();
    const map = grabbed!.map;
    // A click where Beijing is drawn on GCJ-02 tiles (a few hundred metres off its WGS-84 point).
    const shown = toDisplay(BEIJING[0], BEIJING[1], 'gcj02');
    map.fire('click', { latlng: L.latLng(shown[0], shown[1]) });
    expect(picked).toHaveLength(1);
    expect(picked[0]![0]).toBeCloseTo(BEIJING[0], 5);
    expect(picked[0]![1]).toBeCloseTo(BEIJING[1], 5);
    expect(picked[0]![0]).not.toBeCloseTo(shown[0], 4);
  });

  it('removes the Leaflet map when it unmounts', () => {
    mounted = render(
      <MapView config={null} testId="map">
        <Pin id="a" at={BEIJING} />
      </MapView>,
    );
    const container = document.querySelector('[data-testid="map"]')!;
    mounted.unmount();
    mounted = undefined;
    expect(container.querySelector('.leaflet-pane, .leaflet-control')).toBeNull();
    expect((container as { _leaflet_id?: number })._leaflet_id).toBeUndefined();
  });
});

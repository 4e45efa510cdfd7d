// @vitest-environment jsdom
// Tiles that cannot be reached (issue 26, item 1): several tile errors with no tile loaded in a
// round of loading hide the tile layer and show a note over the offline outline; a tile that
// loads brings them back; some missing tiles among loaded ones are no outage. Leaflet in jsdom
// as in map-view.test.tsx (a sized container, the offline canvas layer left out); the tile
// layer's events are fired as Leaflet fires them.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as L from 'leaflet';
import type { MapConfig } from '@iotc/shared/live';
import { BaseMap, TILE_ERRORS_UNREACHABLE } from './base-map.ts';
import { restoreStubs, stubElementSize } from '../../test/stub.ts';

vi.mock('./offline-layer.ts', async () => {
  const leaflet = await import('leaflet');
  return { createOfflineLayer: () => leaflet.layerGroup(), offlineRenderer: () => leaflet.svg() };
});

beforeAll(() => stubElementSize(800, 600));
afterAll(restoreStubs);

const TILES: MapConfig = { tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png', tileSubdomains: null, tileAttribution: '© Test', tileCrs: 'wgs84', tileMaxZoom: 18 };
let base: BaseMap | undefined;
afterEach(() => {
  base?.destroy();
  base = undefined;
  document.body.innerHTML = '';
});

function make(config: MapConfig | null): { base: BaseMap; tiles: () => L.TileLayer | undefined; note: () => HTMLElement | null } {
  const el = document.createElement('div');
  document.body.append(el);
  base = new BaseMap(el);
  base.setUnreachableText('街道地图无法访问：显示离线轮廓');
  base.setConfig(config);
  const b = base;
  const tiles = () => {
    let found: L.TileLayer | undefined;
    b.map.eachLayer((l) => {
      if (l instanceof L.TileLayer) found = l;
    });
    return found;
  };
  return { base: b, tiles, note: () => el.querySelector<HTMLElement>('[data-testid=map-tiles-unreachable]') };
}

const fire = (layer: L.TileLayer, event: string, times = 1) => {
  for (let i = 0; i < times; i++) layer.fire(event, { tile: document.createElement('img'), coords: L.point(0, 0) });
};

describe('unreachable tiles', () => {
  it('are hidden with a note after several errors and none loaded, and shown again when a tile loads', () => {
    const m = make(TILES);
    const layer = m.tiles()!;
    fire(layer, 'loading');
    fire(layer, 'tileerror', TILE_ERRORS_UNREACHABLE - 1);
    expect(m.note()).toBeNull();
    expect(m.base.tilesUnreachable).toBe(false);
    fire(layer, 'tileerror');
    expect(m.base.tilesUnreachable).toBe(true);
    expect(m.note()?.textContent).toBe('街道地图无法访问：显示离线轮廓');
    expect(layer.getContainer()?.style.opacity).toBe('0');
    // The language changes: the note follows.
    m.base.setUnreachableText('Street map unreachable: offline outline shown');
    expect(m.note()?.textContent).toBe('Street map unreachable: offline outline shown');

    fire(layer, 'tileload');
    expect(m.base.tilesUnreachable).toBe(false);
    expect(m.note()).toBeNull();
    expect(layer.getContainer()?.style.opacity).toBe('1');
  });

  it('some missing tiles among loaded ones are no outage; a new round counts afresh', () => {
    const m = make(TILES);
    const layer = m.tiles()!;
    fire(layer, 'loading');
    fire(layer, 'tileload');
    fire(layer, 'tileerror', TILE_ERRORS_UNREACHABLE + 2);
    expect(m.note()).toBeNull();
    fire(layer, 'loading');
    fire(layer, 'tileerror', TILE_ERRORS_UNREACHABLE);
    expect(m.note()).not.toBeNull();
  });

  it('new tiles start shown; no tiles, no note', () => {
    const m = make(TILES);
    fire(m.tiles()!, 'loading');
    fire(m.tiles()!, 'tileerror', TILE_ERRORS_UNREACHABLE);
    expect(m.note()).not.toBeNull();
    m.base.setConfig({ ...TILES, tileUrl: 'http://127.0.0.1:10/{z}/{x}/{y}.png' });
    expect(m.note()).toBeNull();
    m.base.setConfig(null);
    expect(m.tiles()).toBeUndefined();
    expect(m.note()).toBeNull();
  });
});

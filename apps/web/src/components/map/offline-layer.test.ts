// @vitest-environment jsdom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as L from 'leaflet';
import { createOfflineLayer, offlineRenderer } from './offline-layer.ts';
import { stubElementSize, stubProperty, restoreStubs } from '../../test/stub.ts';

beforeAll(() => {
  // jsdom has no layout and no canvas: a sized container and a context that draws nothing.
  stubElementSize(800, 600);
  const ctx = new Proxy({}, { get: () => () => undefined, set: () => true });
  stubProperty(HTMLCanvasElement.prototype, 'getContext', { value: () => ctx });
});
afterAll(restoreStubs);

const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

describe('offline layer', () => {
  it('draws land and borders on its own canvas pane', () => {
    const el = document.createElement('div');
    document.body.append(el);
    const map = L.map(el, { center: [35, 105], zoom: 4 });
    map.createPane('offline');
    const layer = createOfflineLayer(offlineRenderer('offline')).addTo(map);
    expect(layer.getLayers()).toHaveLength(2);
    expect(map.getPane('offline')!.querySelector('canvas')).not.toBeNull();
    map.remove();
    el.remove();
  });

  it('survives the map being removed in the frame it was drawn (StrictMode remount)', async () => {
    const errors: unknown[] = [];
    const onError = (e: ErrorEvent) => errors.push(e.error);
    window.addEventListener('error', onError);
    try {
      const el = document.createElement('div');
      document.body.append(el);
      const map = L.map(el, { center: [35, 105], zoom: 4 });
      map.createPane('offline');
      createOfflineLayer(offlineRenderer('offline')).addTo(map);
      // A move redraws at once, leaving the frame queued when the layer was added pending.
      map.setView([30, 110], 5, { animate: false });
      map.remove();
      await frame();
      await frame();
      el.remove();
    } finally {
      window.removeEventListener('error', onError);
    }
    expect(errors).toEqual([]);
  });
});

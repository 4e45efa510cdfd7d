// The base map that needs no network: Natural Earth land and country borders (bundled with the
// app, see world-shapes.ts) drawn as vector shapes on a canvas. It always lies under the tile
// layer, so when the tiles cannot load (no internet, a wrong URL) the map still shows land.
import * as L from 'leaflet';
import { worldShapes } from './world-shapes.ts';

/** Colours of the offline layer (the ocean is the map container's background, see live-map.css). */
export const OFFLINE_STYLE = {
  land: '#f4f3ee',
  coast: '#b8c4cf',
  border: '#c9ced6',
} as const;

/**
 * Leaflet's canvas renderer redraws at once on `update` but leaves an already queued redraw frame
 * running; when the map is removed within that frame (React StrictMode's remount, a quick
 * navigation) that frame draws on a canvas that is gone and throws (see Leaflet issue #6030).
 * This renderer skips a redraw once its canvas is gone.
 */
const GuardedCanvas = L.Canvas.extend({
  _redraw(this: { _ctx?: unknown }) {
    if (this._ctx) (L.Canvas.prototype as unknown as { _redraw: (this: unknown) => void })._redraw.call(this);
  },
}) as unknown as typeof L.Canvas;

/** A canvas renderer for the offline layer, on `pane`. */
export function offlineRenderer(pane: string): L.Canvas {
  return new GuardedCanvas({ pane, padding: 0.5 });
}

/** The offline base layer, drawn by `renderer` (see offlineRenderer). */
export function createOfflineLayer(renderer: L.Renderer): L.LayerGroup {
  const { land, borders } = worldShapes();
  const common = { renderer, interactive: false, smoothFactor: 1.5 } as const;
  return L.layerGroup([
    L.geoJSON(land, {
      ...common,
      style: { fillColor: OFFLINE_STYLE.land, fillOpacity: 1, color: OFFLINE_STYLE.coast, weight: 0.8, opacity: 1 },
    }),
    L.geoJSON(borders, { ...common, style: { color: OFFLINE_STYLE.border, weight: 0.8, opacity: 1, fill: false } }),
  ]);
}

// The one Leaflet map of the console, kept out of React (map-view.tsx wraps it): the map itself,
// the offline land layer under everything, the configured tiles over it, and where a WGS-84
// position is drawn on those tiles (GCJ-02 on Chinese tiles). What a screen shows on it (devices,
// a track, tasks, places) are layers that take this map and listen for its changes. Tiles that
// cannot be reached are hidden, with a note, until one loads (watchTiles).
import * as L from 'leaflet';
import { loadSanitizer } from '../../lib/sanitize.ts';
import type { MapConfig } from '@iotc/shared/live';
import { fromDisplay, toDisplay, type TileCrs } from './coords.ts';
import { createOfflineLayer, offlineRenderer } from './offline-layer.ts';

/** The view before anything is known: mainland China. */
export const DEFAULT_CENTER: [number, number] = [35, 105];
export const DEFAULT_ZOOM = 4;
const DEFAULT_MAX_ZOOM = 18;
/** What a tile attribution may keep: links and text. */
const ATTRIBUTION_HTML = { ALLOWED_TAGS: ['a', 'b', 'strong', 'i', 'em', 'span'], ALLOWED_ATTR: ['href', 'target', 'rel', 'title'] };

/** The offline layer's pane, under the tiles (tilePane is at z-index 200); the dark theme inverts it. */
export const OFFLINE_PANE = 'iotc-offline';

/** Tile errors in a round of loading, with no tile loaded in it, after which the tiles count as unreachable. */
export const TILE_ERRORS_UNREACHABLE = 3;

/** What changed: the base map's configuration (tiles, coordinate system, zoom limit) or the map's size. */
export type BaseMapChange = 'config' | 'size';

function splitSubdomains(s: string | null): string | string[] {
  if (!s) return 'abc';
  return s.includes(',') ? s.split(',').map((d) => d.trim()).filter(Boolean) : s.trim();
}

function tileKey(config: MapConfig | null): string {
  if (!config?.tileUrl) return '';
  return JSON.stringify([config.tileUrl, config.tileSubdomains, config.tileAttribution, config.tileMaxZoom]);
}

/** Fits the view to `bounds` without animation; a single point is shown at `pointZoom` (default `maxZoom`). */
export function fitView(map: L.Map, bounds: L.LatLngBounds, options: { padding: number; maxZoom: number; pointZoom?: number }): void {
  if (!bounds.isValid()) return;
  if (bounds.getNorthEast().equals(bounds.getSouthWest())) map.setView(bounds.getCenter(), options.pointZoom ?? options.maxZoom, { animate: false });
  else map.fitBounds(bounds, { padding: [options.padding, options.padding], maxZoom: options.maxZoom, animate: false });
}

export class BaseMap {
  readonly map: L.Map;
  readonly container: HTMLElement;
  /** The coordinate system positions are drawn in: the tiles', WGS-84 without tiles. */
  crs: TileCrs = 'wgs84';
  private tiles: L.TileLayer | null = null;
  private tilesKey = '';
  private canvas: L.Canvas | null = null;
  private readonly listeners = new Set<(change: BaseMapChange) => void>();
  private readonly resizeObserver: ResizeObserver | null = null;
  private destroyed = false;
  /** Tiles failed and loaded in the current round of loading (Leaflet's `loading` starts one). */
  private tileErrors = 0;
  private tileLoads = 0;
  /** The note shown while the tiles are hidden as unreachable (null: shown). */
  private note: HTMLElement | null = null;
  private noteText = 'Street map unreachable: offline outline shown';
  private readonly attribution: L.Control.Attribution;
  /** The tiles' attribution as shown (sanitised), removed with the tiles. */
  private tileAttribution: string | null = null;

  constructor(container: HTMLElement) {
    this.container = container;
    this.map = L.map(container, {
      center: DEFAULT_CENTER,
      zoom: DEFAULT_ZOOM,
      minZoom: 2,
      maxZoom: DEFAULT_MAX_ZOOM,
      maxBounds: L.latLngBounds([-85, -180], [85, 180]),
      maxBoundsViscosity: 1,
      attributionControl: false,
      worldCopyJump: false,
    });
    this.attribution = L.control.attribution({ prefix: '<a href="https://leafletjs.com" target="_blank" rel="noreferrer">Leaflet</a>' }).addTo(this.map);
    const pane = this.map.createPane(OFFLINE_PANE);
    pane.style.zIndex = '150';
    pane.style.pointerEvents = 'none';
    createOfflineLayer(offlineRenderer(OFFLINE_PANE)).addTo(this.map);
    if (typeof ResizeObserver !== 'undefined') {
      this.resizeObserver = new ResizeObserver(() => {
        if (this.destroyed) return;
        this.map.invalidateSize({ pan: false });
        // A map mounted hidden (a closed tab, a drawer) is placed by its layers once it has a size.
        this.notify('size');
      });
      this.resizeObserver.observe(container);
    }
  }

  /** Tiles over the offline layer (or none), their coordinate system and zoom limit. */
  setConfig(config: MapConfig | null): void {
    if (this.destroyed) return;
    let changed = false;
    const key = tileKey(config);
    if (key !== this.tilesKey) {
      changed = true;
      this.tilesKey = key;
      this.tiles?.remove();
      this.tiles = null;
      if (this.tileAttribution !== null) this.attribution.removeAttribution(this.tileAttribution);
      this.tileAttribution = null;
      if (config?.tileUrl) {
        this.tiles = L.tileLayer(config.tileUrl, { subdomains: splitSubdomains(config.tileSubdomains), maxZoom: config.tileMaxZoom }).addTo(this.map);
        if (config.tileAttribution) this.showAttribution(config.tileAttribution, this.tiles);
        this.watchTiles(this.tiles);
      }
      this.showTiles(true);
      this.map.setMaxZoom(config?.tileUrl ? config.tileMaxZoom : DEFAULT_MAX_ZOOM);
    }
    const crs: TileCrs = config?.tileUrl ? config.tileCrs : 'wgs84';
    if (crs !== this.crs) {
      changed = true;
      this.crs = crs;
    }
    if (changed) this.notify('config');
  }

  /**
   * The attribution is HTML from the server's configuration: links and text only. It shows once
   * the sanitiser is in (fetched by the first map with one), if the same tile layer is still
   * shown (a change of tiles and back makes a new layer, whose own attribution follows).
   */
  private showAttribution(html: string, layer: L.TileLayer): void {
    void loadSanitizer(ATTRIBUTION_HTML).then((sanitize) => {
      if (this.destroyed || this.tiles !== layer) return;
      this.tileAttribution = sanitize(html);
      this.attribution.addAttribution(this.tileAttribution);
    });
  }

  /** The note shown while the tiles cannot be reached (the caller's language). */
  setUnreachableText(text: string): void {
    this.noteText = text;
    if (this.note) this.note.textContent = text;
  }

  /** Whether the tiles are hidden because they could not be reached. */
  get tilesUnreachable(): boolean {
    return this.note !== null;
  }

  /**
   * Tiles that keep failing with none loaded (no network, a closed port, a blocked host) are
   * hidden, so the offline outline shows without broken images, and a discreet note says so; the
   * layer stays and keeps asking for the tiles of the view, and the first that loads shows them again.
   */
  private watchTiles(layer: L.TileLayer): void {
    this.tileErrors = 0;
    this.tileLoads = 0;
    layer.on('loading', () => {
      this.tileErrors = 0;
      this.tileLoads = 0;
    });
    layer.on('tileload', () => {
      if (layer !== this.tiles) return;
      this.tileLoads += 1;
      this.showTiles(true);
    });
    layer.on('tileerror', () => {
      if (layer !== this.tiles) return;
      this.tileErrors += 1;
      // Some missing tiles (beyond a server's area) while others load are not an outage.
      if (this.tileLoads === 0 && this.tileErrors >= TILE_ERRORS_UNREACHABLE) this.showTiles(false);
    });
  }

  private showTiles(show: boolean): void {
    if (this.destroyed) return;
    const hide = !show && this.tiles !== null;
    if (hide === (this.note !== null)) return;
    this.tiles?.setOpacity(hide ? 0 : 1);
    this.container.classList.toggle('iotc-map-tiles-unreachable', hide);
    if (hide) {
      this.note = L.DomUtil.create('div', 'iotc-map-tile-note', this.container);
      this.note.setAttribute('role', 'status');
      this.note.dataset.testid = 'map-tiles-unreachable';
      this.note.textContent = this.noteText;
    } else {
      this.note?.remove();
      this.note = null;
    }
  }

  /** Where a WGS-84 position is drawn on this map. */
  display(lat: number, lon: number): [number, number] {
    return this.crs === 'gcj02' ? toDisplay(lat, lon, this.crs) : [lat, lon];
  }

  /** The WGS-84 position of a point on this map. */
  wgs84(lat: number, lon: number): [number, number] {
    return fromDisplay(lat, lon, this.crs);
  }

  hasSize(): boolean {
    const size = this.map.getSize();
    return size.x > 0 && size.y > 0;
  }

  /**
   * One canvas on the overlay pane for the layers with many shapes (a track's thousands of
   * segments, a few hundred tasks), guarded against drawing after the map is gone (offline-layer.ts).
   */
  overlayCanvas(): L.Canvas {
    this.canvas ??= offlineRenderer('overlayPane');
    return this.canvas;
  }

  /** Calls `listener` on every change until the returned function is called. */
  subscribe(listener: (change: BaseMapChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  destroy(): void {
    this.destroyed = true;
    this.listeners.clear();
    this.resizeObserver?.disconnect();
    this.map.remove();
  }

  private notify(change: BaseMapChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

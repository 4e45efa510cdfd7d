// The Leaflet side of the status monitor: per task its planned route (dashed), origin and
// destination circles and the current position (red when abnormal), on one canvas renderer. A
// refresh every 15 s redraws the few hundred tasks whole; the user's view is kept, only the first
// load fits the map to the tasks and a selection focuses its task. Place names are text: a
// string tooltip is HTML to Leaflet, so they are escaped.
import * as L from 'leaflet';
import type { MapConfig } from '@iotc/shared/live';
import type { TaskDetail } from '@iotc/shared/transport';
import { plannedPath } from '@iotc/shared/transport-progress';
import { toDisplay, type TileCrs } from '../../../components/live-map/coords.ts';
import { createOfflineLayer, offlineRenderer } from '../../../components/live-map/offline-layer.ts';
import { escapeHtml } from '../../../lib/html.ts';
import { ABNORMAL_COLOR, DESTINATION_COLOR, NORMAL_COLOR, ORIGIN_COLOR } from './monitor-model.ts';

export class MonitorMapView {
  readonly map: L.Map;
  /** A canvas guarded against drawing after the map is gone (see offline-layer.ts). */
  private readonly renderer = offlineRenderer('overlayPane');
  private readonly layer = L.layerGroup();
  private readonly resizeObserver: ResizeObserver | null = null;
  private tiles: L.TileLayer | null = null;
  private tilesKey = '';
  private crs: TileCrs = 'wgs84';
  private tasks: readonly TaskDetail[] = [];
  private selected: string | null = null;
  private placed = false;
  private destroyed = false;
  onSelect: ((id: string) => void) | null = null;

  constructor(container: HTMLElement) {
    this.map = L.map(container, { center: [35, 105], zoom: 4, minZoom: 2, maxZoom: 18, attributionControl: false, preferCanvas: true, maxBounds: L.latLngBounds([-85, -180], [85, 180]) });
    const pane = this.map.createPane('iotc-offline');
    pane.style.zIndex = '150';
    pane.style.pointerEvents = 'none';
    createOfflineLayer(offlineRenderer('iotc-offline')).addTo(this.map);
    this.layer.addTo(this.map);
    if (typeof ResizeObserver !== 'undefined') {
      this.resizeObserver = new ResizeObserver(() => {
        if (this.destroyed) return;
        this.map.invalidateSize({ pan: false });
        this.place();
      });
      this.resizeObserver.observe(container);
    }
  }

  setConfig(config: MapConfig | null): void {
    const key = config?.tileUrl ? JSON.stringify([config.tileUrl, config.tileSubdomains, config.tileMaxZoom, config.tileCrs]) : '';
    if (key === this.tilesKey) return;
    this.tilesKey = key;
    this.tiles?.remove();
    this.tiles = null;
    if (config?.tileUrl) {
      const sub = config.tileSubdomains ? (config.tileSubdomains.includes(',') ? config.tileSubdomains.split(',').map((s) => s.trim()) : config.tileSubdomains) : 'abc';
      this.tiles = L.tileLayer(config.tileUrl, { subdomains: sub, maxZoom: config.tileMaxZoom }).addTo(this.map);
    }
    this.crs = config?.tileUrl ? config.tileCrs : 'wgs84';
    this.draw();
  }

  setTasks(tasks: readonly TaskDetail[], tooltip: (t: TaskDetail) => HTMLElement): void {
    this.tasks = tasks;
    this.tooltip = tooltip;
    this.draw();
    this.place();
  }

  /** Highlights a task and brings its route and position into view. */
  setSelected(id: string | null): void {
    if (id === this.selected) return;
    this.selected = id;
    this.draw();
    const task = id ? this.tasks.find((t) => t.id === id) : undefined;
    if (task) {
      const bounds = this.boundsOf([task]);
      if (bounds) this.map.fitBounds(bounds, { padding: [40, 40], maxZoom: 14 });
    }
  }

  destroy(): void {
    this.destroyed = true;
    this.resizeObserver?.disconnect();
    this.map.remove();
  }

  private tooltip: (t: TaskDetail) => HTMLElement = () => document.createElement('span');

  private d(lat: number, lon: number): [number, number] {
    return this.crs === 'gcj02' ? toDisplay(lat, lon, this.crs) : [lat, lon];
  }

  private boundsOf(tasks: readonly TaskDetail[]): L.LatLngBounds | null {
    const pts: [number, number][] = [];
    for (const t of tasks) {
      pts.push(this.d(t.origin.lat, t.origin.lon), this.d(t.destination.lat, t.destination.lon));
      if (t.live.lat !== null && t.live.lon !== null) pts.push(this.d(t.live.lat, t.live.lon));
    }
    return pts.length ? L.latLngBounds(pts) : null;
  }

  private place(): void {
    if (this.placed || this.tasks.length === 0) return;
    const size = this.map.getSize();
    if (size.x === 0 || size.y === 0) return;
    const bounds = this.boundsOf(this.tasks);
    if (!bounds) return;
    this.placed = true;
    this.map.fitBounds(bounds, { padding: [32, 32], maxZoom: 12, animate: false });
  }

  private draw(): void {
    if (this.destroyed) return;
    this.layer.clearLayers();
    // The selected task last, so it lies on top.
    const ordered = [...this.tasks].sort((a, b) => Number(a.id === this.selected) - Number(b.id === this.selected) || Number(a.abnormal) - Number(b.abnormal));
    for (const task of ordered) {
      const selected = task.id === this.selected;
      const dim = this.selected !== null && !selected;
      const color = task.abnormal ? ABNORMAL_COLOR : NORMAL_COLOR;
      const select = () => this.onSelect?.(task.id);
      // The planned path: origin, the route's points, destination.
      const path = plannedPath(task);
      if (path.length > 1) {
        L.polyline(
          path.map(([la, lo]) => this.d(la, lo)),
          { renderer: this.renderer, color, weight: selected ? 5 : 3, opacity: dim ? 0.25 : 0.75, dashArray: selected ? undefined : '6 6' },
        )
          .on('click', select)
          .addTo(this.layer);
      }
      for (const [place, c] of [
        [task.origin, ORIGIN_COLOR],
        [task.destination, DESTINATION_COLOR],
      ] as const) {
        L.circle(this.d(place.lat, place.lon), { renderer: this.renderer, radius: place.radiusM, color: c, weight: 1.5, fillColor: c, fillOpacity: dim ? 0.05 : 0.15, opacity: dim ? 0.3 : 0.9 })
          .bindTooltip(escapeHtml(place.name), { direction: 'top' })
          .addTo(this.layer);
      }
      if (task.live.lat !== null && task.live.lon !== null) {
        L.circleMarker(this.d(task.live.lat, task.live.lon), { renderer: this.renderer, radius: selected ? 10 : 7, color: '#fff', weight: 2, fillColor: color, fillOpacity: dim ? 0.4 : 1 })
          .bindTooltip(() => this.tooltip(task), { direction: 'top' })
          .on('click', select)
          .addTo(this.layer);
      }
    }
  }
}

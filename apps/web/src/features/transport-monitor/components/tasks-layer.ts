// The status monitor's tasks as a layer of the shared map (components/map): per task its planned
// route (dashed), origin and destination circles and the current position (red when abnormal), on
// the map's overlay canvas. A
// re-read (on each live change, at most every 2 s) redraws the few hundred tasks whole; the user's view is kept, only the first
// load fits the map to the tasks and a selection focuses its task. Place names are text: a
// string tooltip is HTML to Leaflet, so they are escaped.
import * as L from 'leaflet';
import type { TaskDetail } from '@iotc/shared/transport';
import { plannedPath } from '@iotc/shared/transport-progress';
import { fitView, type BaseMap, type BaseMapChange } from '../../../components/map/base-map.ts';
import { escapeHtml } from '../../../lib/html.ts';
import { ABNORMAL_COLOR, DESTINATION_COLOR, NORMAL_COLOR, ORIGIN_COLOR } from './monitor-model.ts';

export class TasksLayer {
  private readonly base: BaseMap;
  private readonly map: L.Map;
  private readonly renderer: L.Canvas;
  private readonly layer = L.layerGroup();
  private readonly unsubscribe: () => void;
  private tasks: readonly TaskDetail[] = [];
  private selected: string | null = null;
  private placed = false;
  private destroyed = false;
  onSelect: ((id: string) => void) | null = null;

  constructor(base: BaseMap) {
    this.base = base;
    this.map = base.map;
    this.renderer = base.overlayCanvas();
    this.layer.addTo(this.map);
    this.unsubscribe = base.subscribe((change) => this.changed(change));
  }

  /** Other tiles: the tasks drawn in their coordinate system; a map shown later is placed then. */
  private changed(change: BaseMapChange): void {
    if (change === 'size') this.place();
    else this.draw();
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

  /** Takes the tasks off the map. */
  destroy(): void {
    this.destroyed = true;
    this.unsubscribe();
    this.layer.remove();
  }

  private tooltip: (t: TaskDetail) => HTMLElement = () => document.createElement('span');

  private d(lat: number, lon: number): [number, number] {
    return this.base.display(lat, lon);
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
    if (this.placed || this.tasks.length === 0 || !this.base.hasSize()) return;
    const bounds = this.boundsOf(this.tasks);
    if (!bounds) return;
    this.placed = true;
    fitView(this.map, bounds, { padding: 32, maxZoom: 12 });
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

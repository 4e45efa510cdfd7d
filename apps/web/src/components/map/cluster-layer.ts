// The devices of the live map as a layer of the shared map (base-map.ts), kept out of React: one
// instance per mounted layer, which React hands the latest props (map-clusters.tsx); it keeps a clustering index of the devices and draws only what is in view,
// reusing marker instances between renders so thousands of moving devices stay smooth. Points are
// coloured by their category: the device statuses by default, or another palette (alarm levels).
import * as L from 'leaflet';
import { DEVICE_STATUSES, STATUS_COLORS, type DeviceStatus } from '@iotc/shared/live';
import { fitView, type BaseMap, type BaseMapChange } from './base-map.ts';
import { DisplayPositions } from './coords.ts';
import {
  buildIndex,
  CLUSTER_MAX_ZOOM,
  isCluster,
  samePoints,
  statusBreakdown,
  viewBbox,
  worstStatus,
  STATUS_SEVERITY,
  type CategoryCounts,
  type DeviceIndex,
  type LivePoint,
} from './cluster.ts';

/** Rebuild the clustering index at most this often while points keep arriving. */
export const REBUILD_INTERVAL_MS = 250;
/** Zoom at least this far in when focusing a device. */
export const FOCUS_ZOOM = 12;
const FIT_MAX_ZOOM = 12;

/** The categories points are coloured by, and their colours. */
export interface MapPalette<S extends string = DeviceStatus> {
  /** Every category, most severe first: a cluster is marked by the first it holds, its slices and tooltip follow this order. */
  severity: readonly S[];
  /** The legend's entries in order (default: `severity`). */
  legend?: readonly S[];
  color: (category: S) => string;
}

/** The device statuses in their status colours. */
export const DEVICE_PALETTE: MapPalette<DeviceStatus> = {
  severity: STATUS_SEVERITY,
  legend: DEVICE_STATUSES,
  color: (s) => STATUS_COLORS[s],
};

export interface ClusterLayerOptions<S extends string = DeviceStatus> {
  onSelect: (id: string) => void;
  statusLabel: (s: S) => string;
  /** Default: the device statuses. */
  palette?: MapPalette<S>;
}

interface PointEntry<S extends string> {
  marker: L.Marker;
  /** Display position (after any GCJ-02 conversion). */
  lat: number;
  lon: number;
  point: LivePoint<S>;
  selected: boolean;
}

interface ClusterEntry<S extends string> {
  marker: L.Marker;
  clusterId: number;
  counts: CategoryCounts<S>;
  /** Count and colours last drawn, to skip redrawing an unchanged icon. */
  drawn: string;
}

/** A cluster to draw in this render. */
interface ClusterDraw<S extends string> {
  id: number;
  lat: number;
  lon: number;
  count: number;
  label: string | number;
  counts: CategoryCounts<S>;
}

/** Every single device shares this icon; colour and state come from the element's attributes. */
const DOT_ICON = L.divIcon({
  className: 'iotc-map-dot',
  html: '<span class="iotc-map-dot-core"></span>',
  iconSize: [22, 22],
  tooltipAnchor: [0, -9],
});

function clusterSize(count: number): number {
  if (count < 10) return 30;
  if (count < 100) return 36;
  if (count < 1000) return 42;
  return 48;
}

/** A conic gradient with a slice per category, most severe first from twelve o'clock. */
function clusterGradient<S extends string>(counts: CategoryCounts<S>, total: number, palette: MapPalette<S>): string {
  const stops: string[] = [];
  let from = 0;
  for (const { status, count } of statusBreakdown(counts, palette.severity)) {
    const to = from + (count / total) * 100;
    stops.push(`${palette.color(status)} ${from.toFixed(2)}% ${to.toFixed(2)}%`);
    from = to;
  }
  return stops.length ? `conic-gradient(${stops.join(', ')})` : STATUS_COLORS.unused;
}

export class ClusterLayer<S extends string = DeviceStatus> {
  private readonly base: BaseMap;
  private readonly map: L.Map;
  private readonly options: ClusterLayerOptions<S>;
  private palette: MapPalette<S>;
  private readonly legend: L.Control;
  private readonly legendBody: HTMLElement;
  private readonly unsubscribe: () => void;
  private positions = new DisplayPositions('wgs84');
  private indexKey = '';
  private points: readonly LivePoint<S>[] = [];
  private byId = new Map<string, LivePoint<S>>();
  private index: DeviceIndex<S> | null = null;
  private selectedId: string | null = null;
  /** A selected device to pan to once it is known. */
  private pendingFocus: string | null = null;
  /** Whether the initial view has been decided (fitted to the devices or focused on one). */
  private placed = false;
  private pending: readonly LivePoint<S>[] | null = null;
  private lastBuild = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly pointMarkers = new Map<string, PointEntry<S>>();
  private readonly clusterMarkers = new Map<number, ClusterEntry<S>>();
  private destroyed = false;

  constructor(base: BaseMap, options: ClusterLayerOptions<S>) {
    this.base = base;
    this.map = base.map;
    this.options = { ...options };
    this.palette = options.palette ?? (DEVICE_PALETTE as unknown as MapPalette<S>);

    this.legendBody = L.DomUtil.create('div', 'iotc-map-legend');
    this.legendBody.dataset.testid = 'map-legend';
    L.DomEvent.disableClickPropagation(this.legendBody);
    L.DomEvent.disableScrollPropagation(this.legendBody);
    this.legend = new L.Control({ position: 'bottomleft' });
    this.legend.onAdd = () => this.legendBody;
    this.legend.addTo(this.map);
    this.drawLegend();

    this.map.on('moveend', this.render, this);
    // A tooltip belongs to what was under the mouse before a zoom; markers are reused after it.
    this.map.on('zoomstart', this.closeTooltips, this);
    this.unsubscribe = base.subscribe((change) => this.changed(change));
    this.changed('config');
  }

  /** The base map's coordinate system or zoom limit changed, or its size (a map mounted hidden places itself once it has one). */
  private changed(change: BaseMapChange): void {
    if (change === 'size') {
      this.focus();
      this.place();
      return;
    }
    const crs = this.base.crs;
    if (crs !== this.positions.crs) this.positions = new DisplayPositions(crs);
    // The clustering depends on both: where devices are drawn and the deepest zoom.
    const indexKey = `${crs}|${this.map.getMaxZoom()}`;
    if (indexKey !== this.indexKey) {
      this.indexKey = indexKey;
      this.reindex();
    }
  }

  /** The devices to draw; a new list is taken at most every REBUILD_INTERVAL_MS. */
  setPoints(points: readonly LivePoint<S>[]): void {
    this.pending = points;
    if (this.timer !== undefined) return;
    const wait = this.lastBuild + REBUILD_INTERVAL_MS - performance.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Highlights a device, always as a marker of its own, and pans to it (once per change). */
  setSelected(id: string | null): void {
    if (id === this.selectedId) return;
    this.selectedId = id;
    this.pendingFocus = id;
    this.reindex();
    this.focus();
  }

  setStatusLabel(statusLabel: (s: S) => string): void {
    this.options.statusLabel = statusLabel;
    this.drawLegend();
  }

  /** New categories or colours: the legend, clusters and markers are drawn afresh. */
  setPalette(palette: MapPalette<S>): void {
    if (palette === this.palette) return;
    this.palette = palette;
    for (const { marker } of this.pointMarkers.values()) marker.remove();
    for (const { marker } of this.clusterMarkers.values()) marker.remove();
    this.pointMarkers.clear();
    this.clusterMarkers.clear();
    this.drawLegend();
    this.reindex();
  }

  /** Takes the devices and the legend off the map. */
  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unsubscribe();
    this.map.off('moveend', this.render, this);
    this.map.off('zoomstart', this.closeTooltips, this);
    for (const { marker } of this.pointMarkers.values()) marker.remove();
    for (const { marker } of this.clusterMarkers.values()) marker.remove();
    this.legend.remove();
    this.pointMarkers.clear();
    this.clusterMarkers.clear();
  }

  private flush(): void {
    this.timer = undefined;
    const points = this.pending;
    this.pending = null;
    if (!points || this.destroyed) return;
    this.lastBuild = performance.now();
    if (samePoints(points, this.points)) return;
    this.points = points;
    this.byId = new Map(points.map((p) => [p.id, p]));
    this.reindex();
    this.focus();
    this.place();
  }

  /** Rebuilds the clustering index and redraws. */
  private reindex(): void {
    if (this.destroyed) return;
    const maxZoom = Math.max(0, Math.min(CLUSTER_MAX_ZOOM, this.map.getMaxZoom() - 1));
    this.positions.trim(this.points.length);
    this.index = this.points.length ? buildIndex(this.points, this.positions, this.selectedId, maxZoom, this.palette.severity) : null;
    this.render();
  }

  private display(point: LivePoint<S>): L.LatLngTuple {
    return this.positions.of(point);
  }

  /** The first view: fitted to the devices once there are some (later updates keep the user's view). */
  private place(): void {
    if (this.placed || !this.points.length || !this.base.hasSize()) return;
    this.placed = true;
    fitView(this.map, L.latLngBounds(this.points.map((p) => this.display(p))), { padding: 32, maxZoom: FIT_MAX_ZOOM });
  }

  /** Pans and zooms to the selected device once it is known. */
  private focus(): void {
    const id = this.pendingFocus;
    if (!id) return;
    const point = this.byId.get(id);
    if (!point || !this.base.hasSize()) return;
    this.pendingFocus = null;
    this.placed = true;
    const zoom = Math.min(Math.max(this.map.getZoom(), FOCUS_ZOOM), this.map.getMaxZoom());
    this.map.setView(this.display(point), zoom);
  }

  /** Draws the clusters and devices in (and a little around) the current view. */
  private render(): void {
    if (this.destroyed) return;
    const seenPoints = new Set<string>();
    const clusters: ClusterDraw<S>[] = [];
    if (this.index) {
      const b = this.map.getBounds().pad(0.25);
      const bbox = viewBbox(b.getWest(), b.getSouth(), b.getEast(), b.getNorth());
      for (const f of this.index.getClusters(bbox, Math.round(this.map.getZoom()))) {
        const [lon, lat] = f.geometry.coordinates as [number, number];
        if (isCluster(f)) {
          const p = f.properties;
          clusters.push({ id: p.cluster_id, lat, lon, count: p.point_count, label: p.point_count_abbreviated, counts: p });
        } else {
          this.upsertPoint(f.properties.point, lat, lon, false);
          seenPoints.add(f.properties.point.id);
        }
      }
    }
    const selected = this.selectedId ? this.byId.get(this.selectedId) : undefined;
    if (selected) {
      const [lat, lon] = this.display(selected);
      this.upsertPoint(selected, lat, lon, true);
      seenPoints.add(selected.id);
    }
    for (const [id, entry] of this.pointMarkers) {
      if (!seenPoints.has(id)) {
        entry.marker.remove();
        this.pointMarkers.delete(id);
      }
    }
    this.drawClusters(clusters);
  }

  private upsertPoint(point: LivePoint<S>, lat: number, lon: number, selected: boolean): void {
    let entry = this.pointMarkers.get(point.id);
    if (!entry) {
      const id = point.id;
      const marker = L.marker([lat, lon], { icon: DOT_ICON, keyboard: false, riseOnHover: true });
      marker.on('click', () => this.options.onSelect(id));
      marker.bindTooltip(() => this.pointTooltip(id), { direction: 'top' });
      marker.addTo(this.map);
      entry = { marker, lat, lon, point, selected };
      this.pointMarkers.set(id, entry);
      const el = marker.getElement()!;
      el.dataset.testid = 'map-marker';
      el.dataset.deviceId = id;
      this.styleDot(entry, point, selected, true);
      return;
    }
    if (entry.lat !== lat || entry.lon !== lon) {
      entry.lat = lat;
      entry.lon = lon;
      entry.marker.setLatLng([lat, lon]);
    }
    this.styleDot(entry, point, selected, false);
  }

  private styleDot(entry: PointEntry<S>, point: LivePoint<S>, selected: boolean, fresh: boolean): void {
    const el = entry.marker.getElement();
    if (!el) return;
    const before = entry.point;
    if (fresh || before.status !== point.status) {
      el.dataset.status = point.status;
      el.style.setProperty('--iotc-dot', this.palette.color(point.status));
    }
    if (fresh || before.lat !== point.lat) el.dataset.lat = String(point.lat);
    if (fresh || before.lon !== point.lon) el.dataset.lon = String(point.lon);
    if (fresh || entry.selected !== selected) {
      el.dataset.selected = String(selected);
      entry.marker.setZIndexOffset(selected ? 10_000 : 0);
    }
    entry.point = point;
    entry.selected = selected;
  }

  /** Places the clusters, reusing markers: the same cluster id first, then any left over. */
  private drawClusters(clusters: ClusterDraw<S>[]): void {
    const spare: ClusterEntry<S>[] = [];
    const wanted = new Set(clusters.map((c) => c.id));
    for (const [id, entry] of this.clusterMarkers) {
      if (!wanted.has(id)) {
        this.clusterMarkers.delete(id);
        spare.push(entry);
      }
    }
    for (const c of clusters) {
      let entry = this.clusterMarkers.get(c.id) ?? spare.pop();
      if (!entry) {
        const marker = L.marker([c.lat, c.lon], { keyboard: false, zIndexOffset: 1000, icon: DOT_ICON });
        const created: ClusterEntry<S> = { marker, clusterId: c.id, counts: c.counts, drawn: '' };
        marker.on('click', () => this.expand(created));
        marker.bindTooltip(() => this.clusterTooltip(created), { direction: 'top' });
        entry = created;
      } else {
        if (!entry.marker.getLatLng().equals([c.lat, c.lon])) entry.marker.setLatLng([c.lat, c.lon]);
        // An open tooltip shows the new counts, or closes when the marker now shows another cluster.
        const tooltip = entry.marker.getTooltip();
        if (tooltip?.isOpen()) {
          if (entry.clusterId === c.id) tooltip.update();
          else entry.marker.closeTooltip();
        }
      }
      entry.clusterId = c.id;
      entry.counts = c.counts;
      this.clusterMarkers.set(c.id, entry);
      const gradient = clusterGradient(c.counts, c.count, this.palette);
      const drawn = `${c.label}|${gradient}`;
      if (drawn !== entry.drawn) {
        entry.drawn = drawn;
        const size = clusterSize(c.count);
        entry.marker.setIcon(
          L.divIcon({
            className: 'iotc-map-cluster',
            html: `<div class="iotc-map-cluster-ring" style="background:${gradient}"><span class="iotc-map-cluster-count">${c.label}</span></div>`,
            iconSize: [size, size],
            tooltipAnchor: [0, -size / 2],
          }),
        );
      }
      if (!this.map.hasLayer(entry.marker)) entry.marker.addTo(this.map);
      const el = entry.marker.getElement();
      if (el) {
        el.dataset.testid = 'map-cluster';
        el.dataset.count = String(c.count);
        el.dataset.status = worstStatus(c.counts, this.palette.severity);
      }
    }
    for (const entry of spare) entry.marker.remove();
  }

  private closeTooltips(): void {
    for (const { marker } of this.clusterMarkers.values()) marker.closeTooltip();
    for (const { marker } of this.pointMarkers.values()) marker.closeTooltip();
  }

  /** Zooms to where a clicked cluster splits up. */
  private expand(entry: ClusterEntry<S>): void {
    const center = entry.marker.getLatLng();
    let zoom = this.map.getZoom() + 2;
    try {
      if (this.index) zoom = this.index.getClusterExpansionZoom(entry.clusterId);
    } catch {
      // The index was rebuilt since this cluster was drawn: zoom in a little instead.
    }
    this.map.setView(center, Math.min(Math.max(zoom, this.map.getZoom() + 1), this.map.getMaxZoom()));
  }

  private pointTooltip(id: string): HTMLElement {
    const el = document.createElement('span');
    const point = this.byId.get(id) ?? this.pointMarkers.get(id)?.point;
    if (point) el.textContent = `${point.name} · ${this.options.statusLabel(point.status)}`;
    return el;
  }

  private clusterTooltip(entry: ClusterEntry<S>): HTMLElement {
    const el = document.createElement('div');
    el.className = 'iotc-map-cluster-tip';
    for (const { status, count } of statusBreakdown(entry.counts, this.palette.severity)) {
      const row = document.createElement('div');
      const dot = document.createElement('span');
      dot.className = 'iotc-map-swatch';
      dot.style.background = this.palette.color(status);
      row.append(dot, `${this.options.statusLabel(status)} ${count}`);
      el.append(row);
    }
    return el;
  }

  private drawLegend(): void {
    this.legendBody.replaceChildren(
      ...(this.palette.legend ?? this.palette.severity).map((status) => {
        const row = document.createElement('div');
        row.className = 'iotc-map-legend-row';
        row.dataset.status = status;
        const dot = document.createElement('span');
        dot.className = 'iotc-map-swatch';
        dot.style.background = this.palette.color(status);
        row.append(dot, this.options.statusLabel(status));
        return row;
      }),
    );
  }
}

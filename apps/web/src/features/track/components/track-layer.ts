// The history track as a layer of the shared map (components/map), kept out of React: the track as
// coloured polylines on the map's overlay canvas (thousands of segments stay smooth), start and end flags, stops and alarms, and
// the vehicle marker, which the playback moves every animation frame through setVehicle() without
// React. The map's container carries the marker's WGS-84 position in `data-marker` for browser tests.
// Tooltip strings are HTML to Leaflet: every text (an alarm's level name is people's) is escaped.
import * as L from 'leaflet';
import type { TrackAlarmMarker, TrackStop } from '@iotc/shared/track';
import { DEFAULT_CENTER, fitView, type BaseMap, type BaseMapChange } from '../../../components/map/base-map.ts';
import type { TileCrs } from '../../../components/map/coords.ts';
import { escapeHtml } from '../../../lib/html.ts';
import type { ColoredPiece, TrackFixes } from './track-model.ts';

const FIT_MAX_ZOOM = 16;
/** The followed vehicle is kept inside this share of the map around its centre. */
const FOLLOW_BOX = 0.4;

export interface TrackMapTexts {
  start: string;
  end: string;
  /** The letters on the start and end flags. */
  startShort: string;
  endShort: string;
  stop: (s: TrackStop) => string;
  alarm: (a: TrackAlarmMarker) => string;
}

function flagIcon(kind: 'start' | 'end', text: string): L.DivIcon {
  const el = document.createElement('span');
  el.className = 'track-flag-core';
  el.textContent = text;
  return L.divIcon({ className: `track-flag track-flag-${kind}`, html: el.outerHTML, iconSize: [22, 22], tooltipAnchor: [0, -11] });
}

const VEHICLE_ICON = L.divIcon({ className: 'track-vehicle', html: '<span class="track-vehicle-core"></span>', iconSize: [20, 20], tooltipAnchor: [0, -10] });

export class TrackLayer {
  private readonly base: BaseMap;
  private readonly map: L.Map;
  private readonly container: HTMLElement;
  private readonly renderer: L.Canvas;
  private readonly lines: L.LayerGroup;
  private readonly marks: L.LayerGroup;
  private readonly vehicle: L.Marker;
  private readonly unsubscribe: () => void;
  private crs: TileCrs;
  private fixes: TrackFixes | null = null;
  private pieces: readonly ColoredPiece[] = [];
  private stops: readonly TrackStop[] = [];
  private alarms: readonly TrackAlarmMarker[] = [];
  private texts: TrackMapTexts | null = null;
  private follow = false;
  private vehicleAt: [number, number] | null = null;
  private fitPending = false;
  private destroyed = false;
  onSeek: ((t: number) => void) | null = null;

  constructor(base: BaseMap) {
    this.base = base;
    this.map = base.map;
    this.container = base.container;
    this.crs = base.crs;
    // One canvas for every line of the track; its padding keeps a pan from redrawing at once.
    this.renderer = base.overlayCanvas();
    this.lines = L.layerGroup().addTo(this.map);
    this.marks = L.layerGroup().addTo(this.map);
    this.vehicle = L.marker(DEFAULT_CENTER, { icon: VEHICLE_ICON, keyboard: false, interactive: false, zIndexOffset: 5000 });
    this.unsubscribe = base.subscribe((change) => this.changed(change));
  }

  /** On other tiles the track is drawn in their coordinate system; a map shown later is fitted then. */
  private changed(change: BaseMapChange): void {
    if (change === 'size') {
      if (this.fitPending) this.fit();
      return;
    }
    if (this.base.crs === this.crs) return;
    this.crs = this.base.crs;
    this.drawLines();
    this.drawMarks();
    if (this.vehicleAt) this.setVehicle(this.vehicleAt);
  }

  setTexts(texts: TrackMapTexts): void {
    this.texts = texts;
    this.drawMarks();
  }

  /** A new track: its lines, flags, and the view fitted to it when `fit` (not for a zoomed window). */
  setTrack(fixes: TrackFixes, pieces: readonly ColoredPiece[], fit: boolean): void {
    this.fixes = fixes;
    this.pieces = pieces;
    this.drawLines();
    this.drawMarks();
    if (fit) this.fit();
  }

  /** The same track in other colours (speed or temperature). */
  setPieces(pieces: readonly ColoredPiece[]): void {
    this.pieces = pieces;
    this.drawLines();
    // The canvas paints in the order layers were added: the stops and alarms again over the new lines.
    this.drawMarks();
  }

  setStopsAndAlarms(stops: readonly TrackStop[], alarms: readonly TrackAlarmMarker[]): void {
    this.stops = stops;
    this.alarms = alarms;
    this.drawMarks();
  }

  setFollow(follow: boolean): void {
    this.follow = follow;
    if (follow && this.vehicleAt) this.keepInView(this.display(this.vehicleAt[0], this.vehicleAt[1]), true);
  }

  /**
   * Moves the vehicle (WGS-84), with a tooltip when `tip` is given (a hovered time); null hides it.
   * Called every animation frame while playing: it touches one marker and one attribute.
   */
  setVehicle(at: [number, number] | null, tip?: HTMLElement): void {
    if (this.destroyed) return;
    this.vehicleAt = at;
    if (!at) {
      this.vehicle.remove();
      delete this.container.dataset.marker;
      return;
    }
    const shown = this.display(at[0], at[1]);
    this.vehicle.setLatLng(shown);
    if (!this.map.hasLayer(this.vehicle)) this.vehicle.addTo(this.map);
    this.container.dataset.marker = JSON.stringify(at);
    if (tip) {
      if (!this.vehicle.getTooltip()) this.vehicle.bindTooltip('', { direction: 'top', permanent: true, className: 'track-hover-tip' });
      this.vehicle.setTooltipContent(tip);
      this.vehicle.openTooltip();
    } else if (this.vehicle.getTooltip()) {
      this.vehicle.unbindTooltip();
    }
    if (this.follow) this.keepInView(shown, false);
  }

  fit(): void {
    const f = this.fixes;
    if (!f || f.count === 0 || !this.base.hasSize()) {
      this.fitPending = !!f && f.count > 0;
      return;
    }
    this.fitPending = false;
    let south = Infinity;
    let west = Infinity;
    let north = -Infinity;
    let east = -Infinity;
    for (let k = 0; k < f.count; k += 1) {
      const [la, lo] = this.display(f.lat[k]!, f.lon[k]!);
      if (la < south) south = la;
      if (la > north) north = la;
      if (lo < west) west = lo;
      if (lo > east) east = lo;
    }
    fitView(this.map, L.latLngBounds([south, west], [north, east]), { padding: 28, maxZoom: FIT_MAX_ZOOM, pointZoom: FIT_MAX_ZOOM - 2 });
  }

  /** Takes the track off the map. */
  destroy(): void {
    this.destroyed = true;
    this.unsubscribe();
    this.lines.remove();
    this.marks.remove();
    this.vehicle.remove();
    delete this.container.dataset.marker;
  }

  private display(lat: number, lon: number): [number, number] {
    return this.base.display(lat, lon);
  }

  /** Pans when the vehicle leaves the box around the centre (or at once, to centre it). */
  private keepInView(at: [number, number], force: boolean): void {
    const size = this.map.getSize();
    if (size.x === 0 || size.y === 0) return;
    const p = this.map.latLngToContainerPoint(at);
    const dx = Math.abs(p.x - size.x / 2);
    const dy = Math.abs(p.y - size.y / 2);
    if (force || dx > (size.x * FOLLOW_BOX) / 2 || dy > (size.y * FOLLOW_BOX) / 2) this.map.panTo(at, { animate: false });
  }

  private drawLines(): void {
    this.lines.clearLayers();
    const f = this.fixes;
    if (!f) return;
    for (const piece of this.pieces) {
      const latlngs: L.LatLngTuple[] = [];
      for (let k = piece.from; k <= piece.to; k += 1) latlngs.push(this.display(f.lat[k]!, f.lon[k]!));
      L.polyline(latlngs, { renderer: this.renderer, color: piece.color, weight: 4, opacity: 0.9, interactive: false, smoothFactor: 1 }).addTo(this.lines);
    }
  }

  private drawMarks(): void {
    this.marks.clearLayers();
    const f = this.fixes;
    const texts = this.texts;
    if (!texts) return;
    for (const stop of this.stops) {
      const m = L.circleMarker(this.display(stop.lat, stop.lon), { renderer: this.renderer, radius: 7, color: '#fff', weight: 2, fillColor: '#722ed1', fillOpacity: 0.95 });
      m.bindTooltip(escapeHtml(texts.stop(stop)), { direction: 'top' });
      m.on('click', () => this.onSeek?.(stop.startT));
      m.addTo(this.marks);
    }
    for (const alarm of this.alarms) {
      if (alarm.lat === null || alarm.lon === null) continue;
      const m = L.circleMarker(this.display(alarm.lat, alarm.lon), { renderer: this.renderer, radius: 6, color: '#fff', weight: 2, fillColor: alarm.levelColor || '#f5222d', fillOpacity: 1 });
      m.bindTooltip(escapeHtml(texts.alarm(alarm)), { direction: 'top' });
      m.on('click', () => this.onSeek?.(Date.parse(alarm.startedAt)));
      m.addTo(this.marks);
    }
    if (f && f.count > 0) {
      const first = this.display(f.lat[0]!, f.lon[0]!);
      const last = this.display(f.lat[f.count - 1]!, f.lon[f.count - 1]!);
      L.marker(first, { icon: flagIcon('start', texts.startShort), keyboard: false, zIndexOffset: 1000 }).bindTooltip(escapeHtml(texts.start), { direction: 'top' }).addTo(this.marks);
      L.marker(last, { icon: flagIcon('end', texts.endShort), keyboard: false, zIndexOffset: 1000 }).bindTooltip(escapeHtml(texts.end), { direction: 'top' }).addTo(this.marks);
    }
  }
}

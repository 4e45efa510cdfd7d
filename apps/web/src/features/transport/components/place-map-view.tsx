// A small Leaflet map of one task or template (loaded by place-map.tsx when a drawer shows it):
// the origin and destination with their circles, the planned route and, for a task on the road,
// where it is now. Over the same base layers as
// the live map (the offline land layer, the configured tiles on top); a click reports the WGS-84
// point under the mouse, which is how the form picks places and draws the route.
import 'leaflet/dist/leaflet.css';
import { useCallback, useEffect, useRef } from 'react';
import * as L from 'leaflet';
import gcoord from 'gcoord';
import type { MapConfig } from '@iotc/shared/live';
import type { MapCircle, PlaceMapProps } from './place-map.tsx';
import { plannedPath } from '@iotc/shared/transport-progress';
import { toDisplay } from '../../../components/live-map/coords.ts';
import { DEFAULT_CENTER, DEFAULT_ZOOM } from '../../../components/live-map/map-view.ts';
import { createOfflineLayer, offlineRenderer } from '../../../components/live-map/offline-layer.ts';

export const ORIGIN_COLOR = '#52c41a';
export const DESTINATION_COLOR = '#f5222d';
export const ROUTE_COLOR = '#1677ff';
export const CURRENT_COLOR = '#722ed1';
const FIT_MAX_ZOOM = 13;

/** The WGS-84 point of a click on a base map drawn in `crs`. */
export function fromDisplay(lat: number, lon: number, crs: MapConfig['tileCrs'] | undefined): [number, number] {
  if (crs !== 'gcj02') return [lat, lon];
  const [x, y] = gcoord.transform<[number, number]>([lon, lat], gcoord.GCJ02, gcoord.WGS84);
  return [y, x];
}

function validPoint(lat: number | null | undefined, lon: number | null | undefined): boolean {
  return typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

export default function PlaceMapView({ config, origin, destination, route, routePoints = true, current, onPick, height = 320, testId = 'place-map' }: PlaceMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const shapesRef = useRef<L.LayerGroup | null>(null);
  const tilesRef = useRef<L.TileLayer | null>(null);
  const fittedRef = useRef(false);
  const pickRef = useRef(onPick);
  const crsRef = useRef<MapConfig['tileCrs'] | undefined>(undefined);
  const boundsRef = useRef<L.LatLngTuple[]>([]);

  // The first view shows everything there is, once the map has a size (a drawer opening later);
  // later edits keep the user's view.
  const fit = useCallback(() => {
    const map = mapRef.current;
    const bounds = boundsRef.current;
    if (!map || fittedRef.current || !bounds.length) return;
    const size = map.getSize();
    if (size.x <= 0 || size.y <= 0) return;
    fittedRef.current = true;
    const b = L.latLngBounds(bounds);
    if (b.getNorthEast().equals(b.getSouthWest())) map.setView(b.getCenter(), FIT_MAX_ZOOM, { animate: false });
    else map.fitBounds(b, { padding: [24, 24], maxZoom: FIT_MAX_ZOOM, animate: false });
  }, []);

  useEffect(() => {
    pickRef.current = onPick;
  }, [onPick]);

  useEffect(() => {
    const map = L.map(containerRef.current!, { center: DEFAULT_CENTER, zoom: DEFAULT_ZOOM, minZoom: 2, attributionControl: false, worldCopyJump: false });
    const pane = map.createPane('tt-offline');
    pane.style.zIndex = '150';
    pane.style.pointerEvents = 'none';
    createOfflineLayer(offlineRenderer('tt-offline')).addTo(map);
    shapesRef.current = L.layerGroup().addTo(map);
    map.on('click', (e: L.LeafletMouseEvent) => {
      const [lat, lon] = fromDisplay(e.latlng.lat, e.latlng.lng, crsRef.current);
      pickRef.current?.(Number(lat.toFixed(6)), Number(lon.toFixed(6)));
    });
    mapRef.current = map;
    const observer = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(() => {
            map.invalidateSize({ pan: false });
            fit();
          }) : null;
    observer?.observe(containerRef.current!);
    return () => {
      observer?.disconnect();
      mapRef.current = null;
      shapesRef.current = null;
      tilesRef.current = null;
      fittedRef.current = false;
      map.remove();
    };
  }, [fit]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    crsRef.current = config?.tileUrl ? config.tileCrs : 'wgs84';
    tilesRef.current?.remove();
    tilesRef.current = config?.tileUrl ? L.tileLayer(config.tileUrl, { subdomains: config.tileSubdomains ? config.tileSubdomains.split(',').map((s) => s.trim()) : 'abc', maxZoom: config.tileMaxZoom }).addTo(map) : null;
  }, [config]);

  useEffect(() => {
    const map = mapRef.current;
    const shapes = shapesRef.current;
    if (!map || !shapes) return;
    const crs = crsRef.current ?? 'wgs84';
    const at = (lat: number, lon: number) => toDisplay(lat, lon, crs);
    shapes.clearLayers();
    const bounds: L.LatLngTuple[] = [];
    const points = route.filter(([lat, lon]) => validPoint(lat, lon));
    // The planned path: from the origin's centre through the points to the destination's (the points alone while a place is not set).
    const ends = origin && destination && validPoint(origin.lat, origin.lon) && validPoint(destination.lat, destination.lon);
    const line = (ends ? plannedPath({ origin, destination, route: points }) : points).map(([lat, lon]) => at(lat, lon));
    if (line.length) {
      L.polyline(line, { color: ROUTE_COLOR, weight: 4, opacity: 0.8, interactive: false }).addTo(shapes);
      bounds.push(...line);
    }
    if (routePoints) points.forEach(([lat, lon], i) => L.circleMarker(at(lat, lon), { radius: i === points.length - 1 ? 4 : 3, color: ROUTE_COLOR, fillOpacity: 1, interactive: false }).addTo(shapes));
    const circle = (c: MapCircle | null, color: string) => {
      if (!c || !validPoint(c.lat, c.lon)) return;
      const p = at(c.lat, c.lon);
      L.circle(p, { radius: c.radiusM > 0 ? c.radiusM : 1, color, weight: 2, fillOpacity: 0.15, interactive: false }).addTo(shapes);
      L.circleMarker(p, { radius: 6, color: '#fff', weight: 2, fillColor: color, fillOpacity: 1, interactive: false }).addTo(shapes);
      bounds.push(p);
    };
    circle(origin, ORIGIN_COLOR);
    circle(destination, DESTINATION_COLOR);
    if (current && validPoint(current.lat, current.lon)) {
      const p = at(current.lat, current.lon);
      L.circleMarker(p, { radius: 8, color: '#fff', weight: 3, fillColor: CURRENT_COLOR, fillOpacity: 1, interactive: false }).addTo(shapes);
      bounds.push(p);
    }
    boundsRef.current = bounds;
    fit();
  }, [origin, destination, route, routePoints, current, config, fit]);

  return <div ref={containerRef} className={onPick ? 'tt-map tt-map-pick' : 'tt-map'} data-testid={testId} style={{ height, width: '100%' }} />;
}

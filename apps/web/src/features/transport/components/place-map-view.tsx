// A small map of one task or template (loaded by place-map.tsx when a drawer shows it): the
// origin and destination with their circles, the numbered stops, the planned route and, for a task on the road,
// where it is now, as a layer of the shared map (offline land layer, configured tiles); a click
// reports the WGS-84 point under the mouse, which is how the form picks places and draws the route.
import { useEffect, useRef } from 'react';
import * as L from 'leaflet';
import { plannedPath, straightPath } from '@iotc/shared/transport-progress';
import { fitView, type BaseMap } from '../../../components/map/base-map.ts';
import { MapPick } from '../../../components/map/map-pick.tsx';
import { MapView, useMap } from '../../../components/map/map-view.tsx';
import type { MapCircle, PlaceMapProps } from './place-map.tsx';

export const ORIGIN_COLOR = '#52c41a';
export const DESTINATION_COLOR = '#f5222d';
export const ROUTE_COLOR = '#1677ff';
export const STOP_COLOR = '#fa8c16';
export const CURRENT_COLOR = '#722ed1';
const FIT_MAX_ZOOM = 13;

function validPoint(lat: number | null | undefined, lon: number | null | undefined): boolean {
  return typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

type Shapes = Pick<PlaceMapProps, 'origin' | 'destination' | 'stops' | 'route' | 'routePoints' | 'current'>;

export default function PlaceMapView({ config, onPick, height = 320, testId = 'place-map', ...shapes }: PlaceMapProps) {
  return (
    <MapView config={config} height={height} className={onPick ? 'tt-map tt-map-pick' : 'tt-map'} testId={testId}>
      <PlaceShapes {...shapes} />
      {onPick ? <MapPick onPick={onPick} /> : null}
    </MapView>
  );
}

/** Draws the places, route and position; returns the drawn points, for the first view. */
function draw(base: BaseMap, group: L.LayerGroup, { origin, destination, stops = [], route, routePoints = true, current }: Shapes): L.LatLngTuple[] {
  const at = (lat: number, lon: number) => base.display(lat, lon);
  group.clearLayers();
  const bounds: L.LatLngTuple[] = [];
  const points = route.filter(([lat, lon]) => validPoint(lat, lon));
  // The planned path: from the origin's centre through the points to the destination's (the points alone while a place is not set).
  const ends = origin && destination && validPoint(origin.lat, origin.lon) && validPoint(destination.lat, destination.lon);
  const line = (ends ? plannedPath({ origin, destination, route: points }) : points).map(([lat, lon]) => at(lat, lon));
  const shownStops = stops.filter((s) => validPoint(s.lat, s.lon));
  if (line.length) {
    L.polyline(line, { color: ROUTE_COLOR, weight: 4, opacity: 0.8, interactive: false }).addTo(group);
    bounds.push(...line);
  } else if (ends && shownStops.length) {
    // No route: the straight way through the stops in order, dashed (what the planned distance measures).
    const straight = straightPath({ origin, destination, stops: shownStops }).map(([lat, lon]) => at(lat, lon));
    L.polyline(straight, { color: ROUTE_COLOR, weight: 2, opacity: 0.6, dashArray: '6 6', interactive: false }).addTo(group);
  }
  if (routePoints) points.forEach(([lat, lon], i) => L.circleMarker(at(lat, lon), { radius: i === points.length - 1 ? 4 : 3, color: ROUTE_COLOR, fillOpacity: 1, interactive: false }).addTo(group));
  const circle = (c: MapCircle | null, color: string) => {
    if (!c || !validPoint(c.lat, c.lon)) return;
    const p = at(c.lat, c.lon);
    L.circle(p, { radius: c.radiusM > 0 ? c.radiusM : 1, color, weight: 2, fillOpacity: 0.15, interactive: false }).addTo(group);
    L.circleMarker(p, { radius: 6, color: '#fff', weight: 2, fillColor: color, fillOpacity: 1, interactive: false }).addTo(group);
    bounds.push(p);
  };
  circle(origin, ORIGIN_COLOR);
  circle(destination, DESTINATION_COLOR);
  shownStops.forEach((s, i) => {
    const p = at(s.lat, s.lon);
    L.circle(p, { radius: s.radiusM > 0 ? s.radiusM : 1, color: STOP_COLOR, weight: 2, fillOpacity: 0.12, interactive: false }).addTo(group);
    L.marker(p, {
      interactive: false,
      keyboard: false,
      icon: L.divIcon({ className: 'tt-stop-marker', html: `<span>${i + 1}</span>`, iconSize: [20, 20], iconAnchor: [10, 10] }),
    }).addTo(group);
    bounds.push(p);
  });
  if (current && validPoint(current.lat, current.lon)) {
    const p = at(current.lat, current.lon);
    L.circleMarker(p, { radius: 8, color: '#fff', weight: 3, fillColor: CURRENT_COLOR, fillOpacity: 1, interactive: false }).addTo(group);
    bounds.push(p);
  }
  return bounds;
}

function PlaceShapes(shapes: Shapes) {
  const base = useMap();
  const latest = useRef(shapes);
  const layer = useRef<{ redraw: () => void } | null>(null);
  const { origin, destination, stops, route, routePoints, current } = shapes;

  useEffect(() => {
    const group = L.layerGroup().addTo(base.map);
    let bounds: L.LatLngTuple[] = [];
    let fitted = false;
    // The first view shows everything there is, once the map has a size (a drawer opening later);
    // later edits keep the user's view.
    const fit = () => {
      if (fitted || !bounds.length || !base.hasSize()) return;
      fitted = true;
      fitView(base.map, L.latLngBounds(bounds), { padding: 24, maxZoom: FIT_MAX_ZOOM });
    };
    const redraw = () => {
      bounds = draw(base, group, latest.current);
      fit();
    };
    layer.current = { redraw };
    const unsubscribe = base.subscribe((change) => (change === 'size' ? fit() : redraw()));
    return () => {
      unsubscribe();
      layer.current = null;
      group.remove();
    };
  }, [base]);

  useEffect(() => {
    latest.current = { origin, destination, stops, route, routePoints, current };
    layer.current?.redraw();
  }, [base, origin, destination, stops, route, routePoints, current]);

  return null;
}

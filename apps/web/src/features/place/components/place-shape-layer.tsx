// The place being edited on the drawer's map: a circle (centre and radius) or a polygon (its
// corners, numbered as clicked). The first view fits the shape once the map has a size; later
// edits keep the user's view.
import { useEffect, useRef } from 'react';
import * as L from 'leaflet';
import { fitView } from '../../../components/map/base-map.ts';
import { useMap } from '../../../components/map/map-view.tsx';

export const PLACE_COLOR = '#1677ff';

export interface ShapeValue {
  shape: 'circle' | 'polygon';
  lat: number | null;
  lon: number | null;
  radiusM: number | null;
  polygon: [number, number][];
}

const valid = (lat: unknown, lon: unknown): lat is number => typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon);

export function PlaceShapeLayer({ value }: { value: ShapeValue }) {
  const base = useMap();
  const group = useRef<L.LayerGroup | null>(null);
  const fitted = useRef(false);

  useEffect(() => {
    const g = L.layerGroup().addTo(base.map);
    group.current = g;
    return () => {
      g.remove();
      group.current = null;
    };
  }, [base]);

  useEffect(() => {
    const g = group.current;
    if (!g) return;
    g.clearLayers();
    const at = (lat: number, lon: number) => base.display(lat, lon);
    const points: L.LatLngTuple[] = [];
    if (value.shape === 'circle') {
      if (valid(value.lat, value.lon)) {
        const p = at(value.lat, value.lon!);
        L.circle(p, { radius: value.radiusM && value.radiusM > 0 ? value.radiusM : 1, color: PLACE_COLOR, weight: 2, fillOpacity: 0.15, interactive: false }).addTo(g);
        L.circleMarker(p, { radius: 6, color: '#fff', weight: 2, fillColor: PLACE_COLOR, fillOpacity: 1, interactive: false }).addTo(g);
        points.push(p);
        if (!fitted.current && base.hasSize()) {
          fitted.current = true;
          fitView(base.map, L.latLng(p).toBounds(Math.max(200, (value.radiusM ?? 0) * 2.5)), { padding: 24, maxZoom: 16 });
        }
      }
    } else {
      const corners = value.polygon.filter(([a, o]) => valid(a, o)).map(([a, o]) => at(a, o));
      if (corners.length >= 3) L.polygon(corners, { color: PLACE_COLOR, weight: 2, fillOpacity: 0.15, interactive: false }).addTo(g);
      else if (corners.length === 2) L.polyline(corners, { color: PLACE_COLOR, weight: 2, interactive: false }).addTo(g);
      corners.forEach((c, i) =>
        L.marker(c, { interactive: false, icon: L.divIcon({ className: 'place-corner', html: `<span>${i + 1}</span>`, iconSize: [18, 18] }) }).addTo(g),
      );
      points.push(...corners);
      if (!fitted.current && corners.length >= 3 && base.hasSize()) {
        fitted.current = true;
        fitView(base.map, L.latLngBounds(corners), { padding: 24, maxZoom: 16 });
      }
    }
  }, [base, value]);
  return null;
}

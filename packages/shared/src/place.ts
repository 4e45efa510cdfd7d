// The place library (issue 26 item 2; modules/place, web features/place): named places of an
// organisation, a circle (centre and radius) or a polygon (its corners). Alarm policies' allowed
// and stay places and transport templates keep a copy of a place with its id (`placeId`); tasks
// and warehouses point at it by column. Changing a place writes its new shape into every copy;
// a place still in use is not deleted. GeoJSON in and out: a polygon as a Polygon, a circle as a
// Point with a `radiusM` property.
import { z } from 'zod';
import { blankAsUndefined, listQuerySchema } from './list.ts';

export const PLACE_API = {
  /** GET list (placeQuerySchema), POST create; /:id GET, PUT, DELETE; /:id/usage GET. */
  places: '/api/iot/v2/places',
  /** GET → a GeoJSON FeatureCollection of the organisation's places (placeExportQuerySchema). */
  export: '/api/iot/v2/places/geojson',
  /** POST a FeatureCollection (placeImportBodySchema) → PlaceImportResult. */
  import: '/api/iot/v2/places/geojson',
} as const;

export const PLACE_SHAPES = ['circle', 'polygon'] as const;
export type PlaceShape = (typeof PLACE_SHAPES)[number];

/** Most corners of a polygon place, and most places one import brings. */
export const MAX_POLYGON_CORNERS = 200;
export const MAX_PLACE_IMPORT = 500;
/** A circle's radius range, metres. */
export const PLACE_RADIUS_MIN_M = 10;
export const PLACE_RADIUS_MAX_M = 100_000;

const lat = z.number({ message: 'LAT_REQUIRED' }).min(-90, { message: 'LAT_RANGE' }).max(90, { message: 'LAT_RANGE' });
const lon = z.number({ message: 'LON_REQUIRED' }).min(-180, { message: 'LON_RANGE' }).max(180, { message: 'LON_RANGE' });
export const cornerSchema = z.tuple([lat, lon]);

export const placeBodySchema = z
  .object({
    orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
    name: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(100),
    shape: z.enum(PLACE_SHAPES),
    /** A circle's centre (a polygon's centroid is worked out from its corners). */
    lat: lat.optional(),
    lon: lon.optional(),
    radiusM: z.number().int().min(PLACE_RADIUS_MIN_M, { message: 'PLACE_RADIUS_RANGE' }).max(PLACE_RADIUS_MAX_M, { message: 'PLACE_RADIUS_RANGE' }).optional(),
    /** A polygon's corners as [lat, lon], not closed. */
    polygon: z.array(cornerSchema).max(MAX_POLYGON_CORNERS).optional(),
    note: z.string().trim().max(500).default(''),
  })
  .superRefine((b, ctx) => {
    if (b.shape === 'circle') {
      if (b.lat === undefined) ctx.addIssue({ code: 'custom', path: ['lat'], message: 'LAT_REQUIRED' });
      if (b.lon === undefined) ctx.addIssue({ code: 'custom', path: ['lon'], message: 'LON_REQUIRED' });
      if (b.radiusM === undefined) ctx.addIssue({ code: 'custom', path: ['radiusM'], message: 'PLACE_RADIUS_RANGE' });
    } else if (!b.polygon || openRing(b.polygon).length < 3) {
      ctx.addIssue({ code: 'custom', path: ['polygon'], message: 'PLACE_POLYGON_CORNERS' });
    }
  });
export type PlaceBody = z.infer<typeof placeBodySchema>;
export type PlaceInput = z.input<typeof placeBodySchema>;

export const placeRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  name: z.string(),
  shape: z.enum(PLACE_SHAPES),
  lat: z.number(),
  lon: z.number(),
  radiusM: z.number(),
  polygon: z.array(z.tuple([z.number(), z.number()])).nullable(),
  note: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlaceRow = z.infer<typeof placeRowSchema>;

export const placeQuerySchema = listQuerySchema.extend({
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  shape: z.preprocess(blankAsUndefined, z.enum(PLACE_SHAPES).optional()),
});
export type PlaceQuery = z.infer<typeof placeQuerySchema>;

export const placeExportQuerySchema = z.object({ orgId: z.preprocess(blankAsUndefined, z.uuid().optional()) });

/** Where a place is used, by name. */
export const placeUsageSchema = z.object({
  policies: z.array(z.string()),
  templates: z.array(z.string()),
  tasks: z.array(z.string()),
  warehouses: z.array(z.string()),
});
export type PlaceUsage = z.infer<typeof placeUsageSchema>;

// ---- GeoJSON

const position = z.array(z.number()).min(2);
const featureSchema = z.object({
  type: z.literal('Feature'),
  geometry: z.union([
    z.object({ type: z.literal('Point'), coordinates: position }),
    z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(position)).min(1) }),
  ]),
  properties: z.record(z.string(), z.unknown()).nullable().default({}),
});
export const placeImportBodySchema = z.object({
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  collection: z.object({ type: z.literal('FeatureCollection'), features: z.array(featureSchema).max(MAX_PLACE_IMPORT) }),
});
export type PlaceImportBody = z.infer<typeof placeImportBodySchema>;

export const placeImportResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  /** Features that could not be read, with their number in the collection (1 first) and why. */
  errors: z.array(z.object({ feature: z.number().int(), message: z.string() })),
});
export type PlaceImportResult = z.infer<typeof placeImportResultSchema>;

export interface PlaceFeature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: [number, number] } | { type: 'Polygon'; coordinates: [number, number][][] };
  properties: { name: string; radiusM?: number; note: string };
}
export interface PlaceCollection {
  type: 'FeatureCollection';
  features: PlaceFeature[];
}

/** A place as a GeoJSON feature ([lon, lat] positions; a polygon's ring closed). */
export function placeFeature(p: Pick<PlaceRow, 'name' | 'shape' | 'lat' | 'lon' | 'radiusM' | 'polygon' | 'note'>): PlaceFeature {
  if (p.shape === 'polygon' && p.polygon) {
    const ring = p.polygon.map(([a, o]) => [o, a] as [number, number]);
    return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] }, properties: { name: p.name, note: p.note } };
  }
  return { type: 'Feature', geometry: { type: 'Point', coordinates: [p.lon, p.lat] }, properties: { name: p.name, radiusM: p.radiusM, note: p.note } };
}

/** A GeoJSON feature as a place body, or the reason it is not one. */
export function featurePlace(f: z.infer<typeof featureSchema>): PlaceInput | string {
  const props = f.properties ?? {};
  const name = typeof props.name === 'string' ? props.name : '';
  const note = typeof props.note === 'string' ? props.note : '';
  if (f.geometry.type === 'Point') {
    const [o, a] = f.geometry.coordinates as [number, number];
    const r = Number(props.radiusM ?? props.radius);
    return { name, shape: 'circle', lat: a, lon: o, radiusM: Number.isFinite(r) ? Math.round(r) : 500, note };
  }
  const ring = f.geometry.coordinates[0]!.map((c) => [c[1]!, c[0]!] as [number, number]);
  return { name, shape: 'polygon', polygon: openRing(ring), note };
}

// ---- geometry

/** The ring without its closing corner (GeoJSON repeats the first corner last). */
export function openRing(ring: [number, number][]): [number, number][] {
  if (ring.length > 1) {
    const [a, b] = [ring[0]!, ring[ring.length - 1]!];
    if (a[0] === b[0] && a[1] === b[1]) return ring.slice(0, -1);
  }
  return ring;
}

const R = 6_371_000;
function metres(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const rad = Math.PI / 180;
  const dLat = (bLat - aLat) * rad;
  const dLon = (bLon - aLon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A polygon's centroid (its corners' area centroid; their mean when it has no area) and the distance to its farthest corner. */
export function polygonCircle(polygon: [number, number][]): { lat: number; lon: number; radiusM: number } {
  let a2 = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [y1, x1] = polygon[i]!;
    const [y2, x2] = polygon[(i + 1) % polygon.length]!;
    const cross = x1 * y2 - x2 * y1;
    a2 += cross;
    cx += (x1 + x2) * cross;
    cy += (y1 + y2) * cross;
  }
  let lat: number;
  let lon: number;
  if (Math.abs(a2) < 1e-12) {
    lat = polygon.reduce((s, p) => s + p[0], 0) / polygon.length;
    lon = polygon.reduce((s, p) => s + p[1], 0) / polygon.length;
  } else {
    lat = cy / (3 * a2);
    lon = cx / (3 * a2);
  }
  const radiusM = Math.max(PLACE_RADIUS_MIN_M, Math.ceil(Math.max(...polygon.map(([a, o]) => metres(lat, lon, a, o)))));
  return { lat, lon, radiusM };
}

/** Whether the point lies inside the polygon ([lat, lon] corners; ray casting, a point on an edge may fall either way). */
export function pointInPolygon(lat: number, lon: number, polygon: readonly (readonly [number, number])[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [yi, xi] = polygon[i]!;
    const [yj, xj] = polygon[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

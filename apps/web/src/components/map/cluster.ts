// The clustering behind the live map: a supercluster index over the points' display positions,
// with per-category counts on every cluster so a cluster can show what it holds and its worst
// state. The categories are the device statuses by default; another map (alarms by level) names
// its own, most severe first.
import Supercluster, { type ClusterFeature, type PointFeature } from 'supercluster';
import { type DeviceStatus } from '@iotc/shared/live';
import { DisplayPositions, type TileCrs } from './coords.ts';

/** Statuses from the one that most needs attention to the one that least does. */
export const STATUS_SEVERITY: readonly DeviceStatus[] = ['offline', 'shutdown', 'driving', 'parked', 'unused'];

/** Cluster radius in screen pixels and the last zoom at which points are still clustered. */
export const CLUSTER_RADIUS = 60;
/** Leaflet's tiles are 256 px (supercluster's default of 512 would halve the radius on screen). */
const TILE_SIZE = 256;
export const CLUSTER_MAX_ZOOM = 16;

/** What the map draws of a point: who it is, where, and the category (`status`) that colours it. */
export interface LivePoint<S extends string = DeviceStatus> {
  id: string;
  name: string;
  status: S;
  lat: number;
  lon: number;
}

/** Points per category. */
export type CategoryCounts<S extends string = DeviceStatus> = Record<S, number>;
/** Devices per status. */
export type StatusCounts = CategoryCounts<DeviceStatus>;

export interface PointProps<S extends string = DeviceStatus> {
  point: LivePoint<S>;
}
/** Clusters carry their points' numbers per category (flat fields: supercluster clones shallowly). */
export type ClusterProps<S extends string = DeviceStatus> = CategoryCounts<S>;

export type DeviceIndex<S extends string = DeviceStatus> = Supercluster<PointProps<S>, ClusterProps<S>>;
export type IndexFeature<S extends string = DeviceStatus> = ClusterFeature<ClusterProps<S>> | PointFeature<PointProps<S>>;

// The device statuses are the default categories of the functions below.
const deviceSeverity = <S extends string>() => STATUS_SEVERITY as unknown as readonly S[];

/** Counts with one point of `status` (a fresh object on every call: supercluster sums into it). */
export function countsOf<S extends string = DeviceStatus>(status: NoInfer<S>, categories: readonly S[] = deviceSeverity<S>()): CategoryCounts<S> {
  const counts = {} as CategoryCounts<S>;
  for (const c of categories) counts[c] = 0;
  counts[status] = 1;
  return counts;
}

/** The most severe category present in `counts` (the least severe when empty). */
export function worstStatus<S extends string = DeviceStatus>(counts: NoInfer<CategoryCounts<S>>, severity: readonly S[] = deviceSeverity<S>()): S {
  return severity.find((status) => counts[status] > 0) ?? severity[severity.length - 1]!;
}

/** The categories present in `counts` with their numbers, most severe first. */
export function statusBreakdown<S extends string = DeviceStatus>(counts: NoInfer<CategoryCounts<S>>, severity: readonly S[] = deviceSeverity<S>()): { status: S; count: number }[] {
  return severity.map((status) => ({ status, count: counts[status] ?? 0 })).filter((s) => s.count > 0);
}

/**
 * A clustering index of `points` at their display position on tiles in `crs` (or as `positions`
 * converts them, reusing earlier conversions); `exclude` (the
 * selected device) is left out so the map can draw it on its own. Above `maxZoom` every device
 * stands alone: keep it below the map's own maximum so devices in one place can still be told apart.
 * `categories` are what clusters count (every status a point may have).
 */
export function buildIndex<S extends string = DeviceStatus>(
  points: readonly LivePoint<S>[],
  crs: TileCrs | DisplayPositions,
  exclude?: string | null,
  maxZoom: number = CLUSTER_MAX_ZOOM,
  categories: readonly S[] = deviceSeverity<S>(),
): DeviceIndex<S> {
  const positions = typeof crs === 'string' ? new DisplayPositions(crs) : crs;
  const features: PointFeature<PointProps<S>>[] = [];
  for (const point of points) {
    if (point.id === exclude || !Number.isFinite(point.lat) || !Number.isFinite(point.lon)) continue;
    const [lat, lon] = positions.of(point);
    features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: { point } });
  }
  const index: DeviceIndex<S> = new Supercluster<PointProps<S>, ClusterProps<S>>({
    radius: CLUSTER_RADIUS,
    extent: TILE_SIZE,
    maxZoom,
    map: (props) => countsOf(props.point.status, categories),
    reduce: (acc, props) => {
      for (const c of categories) acc[c] += props[c];
    },
  });
  return index.load(features);
}

export function isCluster<S extends string = DeviceStatus>(feature: IndexFeature<S>): feature is ClusterFeature<ClusterProps<S>> {
  return (feature.properties as Partial<ClusterFeature<ClusterProps<S>>['properties']>).cluster === true;
}

/**
 * The supercluster bbox ([west, south, east, north]) for a map view, clamped to one world; a view
 * wider than the world asks for all of it.
 */
export function viewBbox(west: number, south: number, east: number, north: number): [number, number, number, number] {
  const s = Math.max(-90, south);
  const n = Math.min(90, north);
  if (east - west >= 360) return [-180, s, 180, n];
  return [Math.max(-180, west), s, Math.min(180, east), n];
}

/** Whether two point lists would draw the same map (same devices, places and states, in order). */
export function samePoints<S extends string>(a: readonly LivePoint<S>[], b: readonly LivePoint<S>[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const p = a[i]!;
    const q = b[i]!;
    if (p.id !== q.id || p.lat !== q.lat || p.lon !== q.lon || p.status !== q.status || p.name !== q.name) return false;
  }
  return true;
}

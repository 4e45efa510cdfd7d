// The clustering behind the live map: a supercluster index over the devices' display positions,
// with per-status counts on every cluster so a cluster can show what it holds and its worst state.
import Supercluster, { type ClusterFeature, type PointFeature } from 'supercluster';
import { type DeviceStatus, type MapPoint } from '@iotc/shared/live';
import { DisplayPositions, type TileCrs } from './coords.ts';

/** Statuses from the one that most needs attention to the one that least does. */
export const STATUS_SEVERITY: readonly DeviceStatus[] = ['offline', 'shutdown', 'driving', 'parked', 'unused'];

/** Cluster radius in screen pixels and the last zoom at which points are still clustered. */
export const CLUSTER_RADIUS = 60;
/** Leaflet's tiles are 256 px (supercluster's default of 512 would halve the radius on screen). */
const TILE_SIZE = 256;
export const CLUSTER_MAX_ZOOM = 16;

/** Devices per status. */
export type StatusCounts = Record<DeviceStatus, number>;

export interface PointProps {
  point: MapPoint;
}
/** Clusters carry their devices' numbers per status (flat fields: supercluster clones shallowly). */
export type ClusterProps = StatusCounts;

export type DeviceIndex = Supercluster<PointProps, ClusterProps>;
export type IndexFeature = ClusterFeature<ClusterProps> | PointFeature<PointProps>;

/** Counts with one device of `status` (a fresh object on every call: supercluster sums into it). */
export function countsOf(status: DeviceStatus): StatusCounts {
  const counts: StatusCounts = { unused: 0, shutdown: 0, offline: 0, parked: 0, driving: 0 };
  counts[status] = 1;
  return counts;
}

/** The most severe status present in `counts` (unused when empty). */
export function worstStatus(counts: StatusCounts): DeviceStatus {
  return STATUS_SEVERITY.find((status) => counts[status] > 0) ?? 'unused';
}

/** The statuses present in `counts` with their numbers, most severe first. */
export function statusBreakdown(counts: StatusCounts): { status: DeviceStatus; count: number }[] {
  return STATUS_SEVERITY.map((status) => ({ status, count: counts[status] })).filter((s) => s.count > 0);
}

/**
 * A clustering index of `points` at their display position on tiles in `crs` (or as `positions`
 * converts them, reusing earlier conversions); `exclude` (the
 * selected device) is left out so the map can draw it on its own. Above `maxZoom` every device
 * stands alone: keep it below the map's own maximum so devices in one place can still be told apart.
 */
export function buildIndex(
  points: readonly MapPoint[],
  crs: TileCrs | DisplayPositions,
  exclude?: string | null,
  maxZoom: number = CLUSTER_MAX_ZOOM,
): DeviceIndex {
  const positions = typeof crs === 'string' ? new DisplayPositions(crs) : crs;
  const features: PointFeature<PointProps>[] = [];
  for (const point of points) {
    if (point.id === exclude || !Number.isFinite(point.lat) || !Number.isFinite(point.lon)) continue;
    const [lat, lon] = positions.of(point);
    features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: { point } });
  }
  const index: DeviceIndex = new Supercluster<PointProps, ClusterProps>({
    radius: CLUSTER_RADIUS,
    extent: TILE_SIZE,
    maxZoom,
    map: (props) => countsOf(props.point.status),
    reduce: (acc, props) => {
      acc.unused += props.unused;
      acc.shutdown += props.shutdown;
      acc.offline += props.offline;
      acc.parked += props.parked;
      acc.driving += props.driving;
    },
  });
  return index.load(features);
}

export function isCluster(feature: IndexFeature): feature is ClusterFeature<ClusterProps> {
  return (feature.properties as Partial<ClusterFeature<ClusterProps>['properties']>).cluster === true;
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
export function samePoints(a: readonly MapPoint[], b: readonly MapPoint[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const p = a[i]!;
    const q = b[i]!;
    if (p.id !== q.id || p.lat !== q.lat || p.lon !== q.lon || p.status !== q.status || p.name !== q.name) return false;
  }
  return true;
}

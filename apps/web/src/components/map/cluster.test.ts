import { describe, expect, it } from 'vitest';
import type { DeviceStatus, MapPoint } from '@iotc/shared/live';
import {
  buildIndex,
  countsOf,
  isCluster,
  samePoints,
  STATUS_SEVERITY,
  statusBreakdown,
  viewBbox,
  worstStatus,
  type IndexFeature,
} from './cluster.ts';
import { toDisplay } from './coords.ts';

function point(id: string, lat: number, lon: number, status: DeviceStatus = 'parked'): MapPoint {
  return { id, deviceId: `dev-${id}`, name: `Truck ${id}`, status, lat, lon };
}

/** A deterministic scatter of `n` devices over eastern China. */
function scatter(n: number): MapPoint[] {
  const statuses: DeviceStatus[] = ['unused', 'shutdown', 'offline', 'parked', 'driving'];
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, (_, i) => point(String(i), 22 + rnd() * 20, 100 + rnd() * 22, statuses[i % 5]));
}

function counts(unused: number, shutdown: number, offline: number, parked: number, driving: number) {
  return { unused, shutdown, offline, parked, driving };
}

const WORLD: [number, number, number, number] = [-180, -85, 180, 85];

function total(features: IndexFeature[]): number {
  return features.reduce((sum, f) => sum + (isCluster(f) ? f.properties.point_count : 1), 0);
}

describe('status severity', () => {
  it('orders offline > shutdown > driving > parked > unused', () => {
    expect(STATUS_SEVERITY).toEqual(['offline', 'shutdown', 'driving', 'parked', 'unused']);
    expect(worstStatus(countsOf('driving'))).toBe('driving');
    expect(worstStatus(counts(3, 0, 0, 5, 1))).toBe('driving');
    expect(worstStatus(counts(3, 1, 0, 5, 1))).toBe('shutdown');
    expect(worstStatus(counts(3, 1, 1, 5, 1))).toBe('offline');
    expect(worstStatus(counts(3, 0, 0, 5, 0))).toBe('parked');
    expect(worstStatus(counts(0, 0, 0, 0, 0))).toBe('unused');
  });

  it('breaks counts down most severe first, leaving out empty statuses', () => {
    expect(statusBreakdown(counts(3, 0, 2, 5, 0))).toEqual([
      { status: 'offline', count: 2 },
      { status: 'parked', count: 5 },
      { status: 'unused', count: 3 },
    ]);
  });
});

describe('buildIndex', () => {
  it('clusters near devices and counts their statuses', () => {
    const pts = [
      point('a', 31.23, 121.47, 'driving'),
      point('b', 31.231, 121.471, 'offline'),
      point('c', 31.232, 121.472, 'driving'),
      point('far', 52.52, 13.4, 'parked'),
    ];
    const index = buildIndex(pts, 'wgs84');
    const features = index.getClusters(WORLD, 4);
    expect(features).toHaveLength(2);
    const cluster = features.find(isCluster)!;
    expect(cluster.properties.point_count).toBe(3);
    expect(cluster.properties).toMatchObject(counts(0, 0, 1, 0, 2));
    expect(worstStatus(cluster.properties)).toBe('offline');
    const single = features.find((f) => !isCluster(f))!;
    expect(isCluster(single) ? null : single.properties.point.id).toBe('far');
    // Clicking the cluster zooms in until it splits; past the max zoom every device stands alone.
    expect(index.getClusterExpansionZoom(cluster.properties.cluster_id)).toBeGreaterThan(4);
    expect(index.getClusters(WORLD, 17)).toHaveLength(4);
  });

  it('merges devices within 60 screen pixels on a Leaflet map (256 px tiles), not farther apart', () => {
    const pxPerDegree = (256 * 2 ** 10) / 360; // at zoom 10, on the equator
    const at = (px: number) => buildIndex([point('a', 0, 0), point('b', 0, px / pxPerDegree)], 'wgs84').getClusters(WORLD, 10);
    expect(at(40)).toHaveLength(1);
    expect(at(55)).toHaveLength(1);
    expect(at(70)).toHaveLength(2);
    expect(at(120)).toHaveLength(2);
  });

  it('keeps the status counts of every cluster equal to its size at every zoom (no shared objects summed twice)', () => {
    const index = buildIndex(scatter(500), 'wgs84');
    const low = index.getClusters(WORLD, 2);
    const high = index.getClusters(WORLD, 8);
    expect(total(low)).toBe(500);
    expect(total(high)).toBe(500);
    for (const f of [...low, ...high]) {
      if (!isCluster(f)) continue;
      const { unused, shutdown, offline, parked, driving } = f.properties;
      expect(unused + shutdown + offline + parked + driving).toBe(f.properties.point_count);
    }
  });

  it('leaves out the excluded (selected) device and devices without a finite position', () => {
    const pts = [point('a', 31.23, 121.47), point('b', 31.231, 121.471), point('nan', Number.NaN, 121.47)];
    const features = buildIndex(pts, 'wgs84', 'a').getClusters(WORLD, 4);
    expect(features).toHaveLength(1);
    const only = features[0]!;
    expect(isCluster(only) ? null : only.properties.point.id).toBe('b');
  });

  it('places devices at their GCJ-02 position on GCJ-02 tiles but keeps the WGS-84 point', () => {
    const p = point('bj', 39.9087, 116.3975);
    const [feature] = buildIndex([p], 'gcj02').getClusters(WORLD, 10);
    const [lat, lon] = toDisplay(p.lat, p.lon, 'gcj02');
    expect(feature!.geometry.coordinates[0]).toBeCloseTo(lon, 5);
    expect(feature!.geometry.coordinates[1]).toBeCloseTo(lat, 5);
    expect(isCluster(feature!) ? null : feature!.properties.point).toBe(p);
    const [wgs] = buildIndex([p], 'wgs84').getClusters(WORLD, 10);
    expect(wgs!.geometry.coordinates[0]).toBeCloseTo(116.3975, 5);
  });

  it('indexes 5,000 devices, each counted once in any view', () => {
    const index = buildIndex(scatter(5000), 'gcj02');
    for (const zoom of [3, 6, 10, 17]) expect(total(index.getClusters(WORLD, zoom))).toBe(5000);
    const part = index.getClusters([105, 25, 120, 40], 6);
    expect(part.length).toBeGreaterThan(0);
    expect(total(part)).toBeLessThan(5000);
  });
});

describe('viewBbox', () => {
  it('clamps a view to one world', () => {
    expect(viewBbox(100, 20, 120, 40)).toEqual([100, 20, 120, 40]);
    expect(viewBbox(-200, -95, 30, 95)).toEqual([-180, -90, 30, 90]);
    expect(viewBbox(-250, -80, 250, 80)).toEqual([-180, -80, 180, 80]);
  });
});

describe('samePoints', () => {
  it('tells a changed position, status or name from a new array with the same content', () => {
    const a = [point('a', 1, 2), point('b', 3, 4)];
    expect(samePoints(a, a.map((p) => ({ ...p })))).toBe(true);
    expect(samePoints(a, [a[0]!, { ...a[1]!, lat: 3.0001 }])).toBe(false);
    expect(samePoints(a, [a[0]!, { ...a[1]!, status: 'offline' }])).toBe(false);
    expect(samePoints(a, [a[0]!, { ...a[1]!, name: 'renamed' }])).toBe(false);
    expect(samePoints(a, [a[0]!])).toBe(false);
  });
});

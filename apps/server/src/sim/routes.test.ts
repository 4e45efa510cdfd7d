// Routes follow the expressways closely enough to draw on a map (short segments, plausible road
// lengths), and the geometry helpers measure and walk them correctly.
import { describe, expect, it } from 'vitest';
import { ROUTES, SITES, bearing, distanceKm, pointAlong, routeLength, type Polyline } from './routes.ts';

// Road lengths of the corridors, km (the real expressway distances, give or take 10 %).
const ROAD_KM: Record<string, number> = {
  'shanghai-nanjing': 275,
  'beijing-nanjing': 1040,
  'guangzhou-shenzhen': 120,
  'shanghai-ningbo': 320,
  'chengdu-chongqing': 320,
  'wuhan-guangzhou': 990,
  'xian-zhengzhou': 480,
  'shenyang-dalian': 375,
  'qingdao-jinan': 320,
};

const inChina = (lat: number, lon: number) => lat > 18 && lat < 54 && lon > 73 && lon < 135;

describe('routes', () => {
  it('has at least 8 truck routes and a drayage route from each port yard, with unique ids', () => {
    expect(ROUTES.filter((r) => r.use === 'truck').length).toBeGreaterThanOrEqual(8);
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    for (const r of ROUTES.filter((r) => r.use === 'drayage')) {
      const [lat, lon] = r.path[0]!;
      expect(SITES.some((s) => s.kind === 'yard' && s.lat === lat && s.lon === lon), r.id).toBe(true);
    }
  });

  it('keeps waypoints in China and at most 40 km apart, so no segment visibly cuts a corner', () => {
    for (const r of ROUTES) {
      expect(r.path.length, r.id).toBeGreaterThanOrEqual(6);
      for (const [lat, lon] of r.path) expect(inChina(lat, lon), `${r.id} ${lat},${lon}`).toBe(true);
      for (let i = 1; i < r.path.length; i++) {
        const d = distanceKm(r.path[i - 1]!, r.path[i]!);
        expect(d, `${r.id} segment ${i}`).toBeGreaterThan(1);
        expect(d, `${r.id} segment ${i}`).toBeLessThanOrEqual(40);
      }
    }
  });

  it('measures about the real road length of each corridor', () => {
    for (const [id, km] of Object.entries(ROAD_KM)) {
      const r = ROUTES.find((x) => x.id === id)!;
      expect(routeLength(r.path) / km, id).toBeGreaterThan(0.9);
      expect(routeLength(r.path) / km, id).toBeLessThan(1.1);
    }
  });

  it('lists the cold-chain parks and port yards in China', () => {
    expect(SITES.filter((s) => s.kind === 'coldroom').length).toBeGreaterThanOrEqual(5);
    expect(SITES.filter((s) => s.kind === 'yard').length).toBeGreaterThanOrEqual(4);
    for (const s of SITES) expect(inChina(s.lat, s.lon), s.id).toBe(true);
  });
});

describe('geometry', () => {
  it('measures great-circle distances and bearings', () => {
    // Shanghai - Beijing is about 1,067 km; one degree of latitude about 111.2 km.
    expect(distanceKm([31.2304, 121.4737], [39.9042, 116.4074])).toBeCloseTo(1067, -1);
    expect(distanceKm([30, 120], [31, 120])).toBeCloseTo(111.2, 0);
    expect(bearing([30, 120], [31, 120])).toBeCloseTo(0, 5);
    expect(bearing([30, 120], [30, 121])).toBeCloseTo(89.75, 1);
    expect(bearing([31, 120], [30, 120])).toBeCloseTo(180, 5);
    expect(bearing([30, 121], [30, 120])).toBeCloseTo(270.25, 1);
  });

  const square: Polyline = [
    [30, 120],
    [30.1, 120],
    [30.1, 120.1],
  ];

  it('sums the segments of a polyline', () => {
    expect(routeLength(square)).toBeCloseTo(distanceKm([30, 120], [30.1, 120]) + distanceKm([30.1, 120], [30.1, 120.1]), 9);
    expect(routeLength([[30, 120]])).toBe(0);
  });

  it('walks a polyline: ends, the middle of a segment, the corner, and clamping', () => {
    const first = distanceKm([30, 120], [30.1, 120]);
    expect(pointAlong(square, 0)).toMatchObject({ lat: 30, lon: 120 });
    expect(pointAlong(square, 0).course).toBeCloseTo(0, 5);
    const mid = pointAlong(square, first / 2);
    expect(mid.lat).toBeCloseTo(30.05, 9);
    expect(mid.lon).toBeCloseTo(120, 9);
    const turned = pointAlong(square, first + 1);
    expect(turned.course).toBeGreaterThan(85);
    expect(turned.course).toBeLessThan(95);
    expect(distanceKm([30.1, 120], [turned.lat, turned.lon])).toBeCloseTo(1, 2);
    expect(pointAlong(square, 1e6)).toMatchObject({ lat: 30.1, lon: 120.1 });
    expect(pointAlong(square, -5)).toMatchObject({ lat: 30, lon: 120 });
  });

  it('puts a point f of the way along any segment f of its length from the segment start', () => {
    for (const r of ROUTES) {
      for (let i = 0; i + 1 < r.path.length; i++) {
        const start = routeLength(r.path.slice(0, i + 1));
        const segment = distanceKm(r.path[i]!, r.path[i + 1]!);
        for (const f of [0.25, 0.5, 0.75]) {
          const p = pointAlong(r.path, start + f * segment);
          expect(Math.abs(distanceKm(r.path[i]!, [p.lat, p.lon]) - f * segment), `${r.id} segment ${i}`).toBeLessThan(0.05);
        }
      }
    }
  });
});

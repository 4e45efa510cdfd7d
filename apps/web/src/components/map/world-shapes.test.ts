import { describe, expect, it } from 'vitest';
import { planarLines, planarPolygons, unwrapRing, worldShapes } from './world-shapes.ts';

/** Longest step in longitude between consecutive points of any ring, except along a pole. */
function longestStep(rings: number[][][]): number {
  let longest = 0;
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i += 1) {
      const [x0, y0] = ring[i - 1]!;
      const [x1, y1] = ring[i]!;
      if (Math.abs(y0!) === 90 && y1 === y0) continue;
      longest = Math.max(longest, Math.abs(x1! - x0!));
    }
  }
  return longest;
}

describe('unwrapRing', () => {
  it('continues a ring across the antimeridian instead of jumping back', () => {
    const island = [[179, -16], [-179, -16], [-179, -17], [179, -17], [179, -16]];
    const { ring, winding } = unwrapRing(island);
    expect(ring).toEqual([[179, -16], [181, -16], [181, -17], [179, -17], [179, -16]]);
    expect(winding).toBe(0);
  });

  it('tells a ring around a pole by its winding', () => {
    const around = [[-180, -70], [-90, -72], [0, -70], [90, -72], [180, -70]];
    expect(Math.abs(unwrapRing(around).winding)).toBe(360);
  });
});

describe('planarPolygons', () => {
  it('draws a polygon across the antimeridian on both sides of the map', () => {
    const out = planarPolygons([[[[179, -16], [-179, -16], [-179, -17], [179, -17], [179, -16]]]]);
    // Continued east of 180 (Fiji as seen from Asia), and the same one world west (from America).
    expect(out.map((p) => p[0]![1])).toEqual([
      [-179, -16],
      [181, -16],
    ]);
    expect(out[0]![0]![0]).toEqual([-181, -16]);
    expect(longestStep(out.flat())).toBeLessThanOrEqual(180);
  });

  it('leaves ordinary polygons alone', () => {
    const square = [[[10, 10], [20, 10], [20, 20], [10, 20], [10, 10]]];
    expect(planarPolygons([square])).toEqual([square]);
  });

  it('closes a ring around the South Pole over the pole and drops the ring that is only the pole', () => {
    const coast = [[-180, -70], [-90, -72], [0, -70], [90, -72], [180, -70]];
    const pole = [[180, -90], [0, -90], [-180, -90]];
    const out = planarPolygons([[coast, pole]]);
    // The world it covers, plus nothing past the edges (its copies only touch ±180).
    expect(out).toHaveLength(1);
    const [ring] = out[0]!;
    expect(out[0]).toHaveLength(1);
    expect(ring!.slice(-3)).toEqual([[180, -90], [-180, -90], [-180, -70]]);
  });

  it('keeps a hole in the same world copy as its outer ring', () => {
    // Outer ring from -170 westward to -10 + 360 (= 350 - 360): a hole near 5° E belongs at -355.
    const outer = [[-170, 60], [170, 60], [10, 40], [-5, 40], [-10, 60], [-170, 60]];
    const hole = [[5, 50], [6, 50], [6, 51], [5, 50]];
    const [first] = planarPolygons([[outer, hole]]);
    const lons = first![0]!.map(([lon]) => lon!);
    const holeLon = first![1]![0]![0]!;
    expect(holeLon).toBeGreaterThanOrEqual(Math.min(...lons));
    expect(holeLon).toBeLessThanOrEqual(Math.max(...lons));
  });
});

describe('planarLines', () => {
  it('splits lines where they jump across the antimeridian', () => {
    expect(planarLines([[[170, 1], [179, 1], [-179, 1], [-170, 1]]])).toEqual([
      [[170, 1], [179, 1]],
      [[-179, 1], [-170, 1]],
    ]);
  });
});

describe('worldShapes', () => {
  it('gives Natural Earth land and borders with no ring spanning the map', () => {
    const { land, borders } = worldShapes();
    expect(land.coordinates.length).toBeGreaterThan(100);
    expect(borders.coordinates.length).toBeGreaterThan(100);
    expect(longestStep(land.coordinates.flat())).toBeLessThan(180);
    expect(longestStep(borders.coordinates)).toBeLessThan(180);
    // Antarctica reaches the bottom of the map; the ring that was only the pole is gone.
    const south = land.coordinates.filter((p) => p[0]!.some(([, lat]) => lat === -90));
    expect(south.length).toBeGreaterThan(0);
    expect(land.coordinates.every((p) => p.every((ring) => !ring.every(([, lat]) => lat === -90)))).toBe(true);
    // Beijing is on land: inside some outer ring (even-odd test over the rings of that polygon).
    const inside = (ring: number[][], x: number, y: number) => {
      let hit = false;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
        const [xi, yi] = ring[i]!;
        const [xj, yj] = ring[j]!;
        if (yi! > y !== yj! > y && x < ((xj! - xi!) * (y - yi!)) / (yj! - yi!) + xi!) hit = !hit;
      }
      return hit;
    };
    expect(land.coordinates.some((p) => inside(p[0]!, 116.4, 39.9) && !p.slice(1).some((h) => inside(h, 116.4, 39.9)))).toBe(true);
    expect(land.coordinates.some((p) => inside(p[0]!, 130, 30))).toBe(false); // East China Sea
  });
});

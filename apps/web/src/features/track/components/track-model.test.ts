import { describe, expect, it } from 'vitest';
import type { TrackPoints } from '@iotc/shared/track';
import {
  bandOf,
  coloredPieces,
  distanceM,
  drawableRuns,
  lastAtOrBefore,
  legendBands,
  MAX_GAP_MS,
  nearestIndex,
  NO_VALUE_COLOR,
  positionAt,
  SPEED_BANDS,
  spliceWindow,
  temperatureBands,
  TEMPERATURE_BANDS,
  trackDomain,
  trackFixes,
} from './track-model.ts';

type Row = { t: number; lat?: number | null; lon?: number | null; lbs?: number; speed?: number | null; temp?: number | null };

function points(rows: Row[]): TrackPoints {
  return {
    t: rows.map((r) => r.t),
    lat: rows.map((r) => (r.lat === undefined ? 30 + r.t / 1e6 : r.lat)),
    lon: rows.map((r) => (r.lon === undefined ? 120 : r.lon)),
    lbs: rows.map((r) => r.lbs ?? 0),
    speed: rows.map((r) => r.speed ?? null),
    temp: rows.map((r) => r.temp ?? null),
    humidity: rows.map(() => null),
    door: rows.map(() => null),
  };
}

const MIN = 60_000;

describe('colour bands', () => {
  it('puts speeds in ascending bands, the edge in the upper one', () => {
    expect(bandOf(SPEED_BANDS, 0)?.key).toBe('speed0');
    expect(bandOf(SPEED_BANDS, 19.9)?.key).toBe('speed0');
    expect(bandOf(SPEED_BANDS, 20)?.key).toBe('speed1');
    expect(bandOf(SPEED_BANDS, 99)?.key).toBe('speed4');
    expect(bandOf(SPEED_BANDS, 180)?.key).toBe('speed5');
    expect(bandOf(SPEED_BANDS, null)).toBeNull();
    expect(SPEED_BANDS.map((b) => b.color)).toHaveLength(new Set(SPEED_BANDS.map((b) => b.color)).size);
  });

  it('bands temperatures relative to the task limits, the limits themselves near but not out', () => {
    const bands = temperatureBands({ tempMin: 2, tempMax: 8 });
    expect(bandOf(bands, 1.9)?.key).toBe('belowMin');
    expect(bandOf(bands, 2)?.key).toBe('nearMin');
    expect(bandOf(bands, 2.9)?.key).toBe('nearMin');
    expect(bandOf(bands, 5)?.key).toBe('inRange');
    expect(bandOf(bands, 7.5)?.key).toBe('nearMax');
    expect(bandOf(bands, 8)?.key).toBe('nearMax');
    expect(bandOf(bands, 8.01)?.key).toBe('aboveMax');
    // The two near-limit bands share one legend line.
    expect(legendBands(bands).map((b) => b.key)).toEqual(['belowMin', 'nearMin', 'inRange', 'aboveMax']);
  });

  it('uses the absolute cold-chain bands without limits, and a one-sided limit alone', () => {
    expect(temperatureBands(null)).toBe(TEMPERATURE_BANDS);
    expect(temperatureBands({ tempMin: null, tempMax: null })).toBe(TEMPERATURE_BANDS);
    expect(bandOf(TEMPERATURE_BANDS, -25)?.key).toBe('temp0');
    expect(bandOf(TEMPERATURE_BANDS, 4)?.key).toBe('temp2');
    const upper = temperatureBands({ tempMin: null, tempMax: -18 });
    expect(upper.map((b) => b.key)).toEqual(['inRange', 'nearMax', 'aboveMax']);
    expect(bandOf(upper, -30)?.key).toBe('inRange');
    expect(bandOf(upper, -10)?.key).toBe('aboveMax');
  });
});

describe('drawable runs', () => {
  it('breaks at gaps over ten minutes and at LBS points, skips points without a position', () => {
    const f = trackFixes(
      points([
        { t: 0 },
        { t: MIN },
        { t: 2 * MIN, lat: null, lon: null }, // no position: skipped, no break
        { t: 3 * MIN },
        { t: 3 * MIN + MAX_GAP_MS + 1 }, // after a gap: a new run
        { t: 20 * MIN },
        { t: 21 * MIN, lbs: 1 }, // LBS: not drawn, breaks
        { t: 22 * MIN },
        { t: 23 * MIN },
        { t: 23 * MIN + MAX_GAP_MS }, // exactly ten minutes: still the same run
        { t: 60 * MIN }, // alone after a gap: nothing to draw
      ]),
    );
    expect(f.count).toBe(9);
    expect([...f.index]).toEqual([0, 1, 3, 4, 5, 7, 8, 9, 10]);
    expect(drawableRuns(f)).toEqual([
      { from: 0, to: 2 },
      { from: 3, to: 4 },
      { from: 5, to: 7 },
    ]);
  });

  it('cuts runs where the colour changes, never across runs', () => {
    const p = points([{ t: 0, speed: 10 }, { t: MIN, speed: 12 }, { t: 2 * MIN, speed: 50 }, { t: 3 * MIN, speed: 55 }, { t: 4 * MIN, speed: null }, { t: 5 * MIN, speed: 5 }, { t: 30 * MIN, speed: 5 }, { t: 31 * MIN, speed: 5 }]);
    const f = trackFixes(p);
    const pieces = coloredPieces(f, drawableRuns(f), p.speed, SPEED_BANDS);
    expect(pieces).toEqual([
      { from: 0, to: 2, color: SPEED_BANDS[0]!.color },
      { from: 2, to: 4, color: SPEED_BANDS[2]!.color },
      { from: 4, to: 5, color: NO_VALUE_COLOR },
      { from: 6, to: 7, color: SPEED_BANDS[0]!.color },
    ]);
  });
});

describe('position at a time', () => {
  const f = trackFixes(
    points([
      { t: 0, lat: 30, lon: 120 },
      { t: 1000, lat: 31, lon: 122 },
      { t: 2000, lat: 31, lon: 122, lbs: 1 },
      { t: 3000, lat: 32, lon: 124 },
      { t: 3000 + MAX_GAP_MS + 5000, lat: 40, lon: 100 },
    ]),
  );

  it('interpolates between fixes of one run in proportion to the time', () => {
    expect(positionAt(f, 0)).toEqual([30, 120]);
    expect(positionAt(f, 250)).toEqual([30.25, 120.5]);
    expect(positionAt(f, 1000)).toEqual([31, 122]);
  });

  it('holds at the last fix across an LBS point and a gap, and at the ends', () => {
    expect(positionAt(f, 2500)).toEqual([31, 122]);
    expect(positionAt(f, 3000 + 60_000)).toEqual([32, 124]);
    expect(positionAt(f, -5)).toEqual([30, 120]);
    expect(positionAt(f, 1e12)).toEqual([40, 100]);
    expect(positionAt(trackFixes(points([])), 5)).toBeNull();
  });
});

describe('hover time to a point', () => {
  const times = [0, 10, 20, 40, 80];
  it('finds the last point at or before, and the nearest', () => {
    expect(lastAtOrBefore(times, -1)).toBe(-1);
    expect(lastAtOrBefore(times, 0)).toBe(0);
    expect(lastAtOrBefore(times, 39)).toBe(2);
    expect(lastAtOrBefore(times, 1000)).toBe(4);
    expect(nearestIndex(times, -100)).toBe(0);
    expect(nearestIndex(times, 14)).toBe(1);
    expect(nearestIndex(times, 15)).toBe(1);
    expect(nearestIndex(times, 16)).toBe(2);
    expect(nearestIndex(times, 61)).toBe(4);
    expect(nearestIndex(times, 1e9)).toBe(4);
    expect(nearestIndex([], 3)).toBe(-1);
  });

  it('agrees with a linear scan on a large track', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => i * 7 + (i % 3));
    for (const t of [5, 1234.5, 70_000, 139_999]) {
      let best = 0;
      for (let i = 1; i < big.length; i += 1) if (Math.abs(big[i]! - t) < Math.abs(big[best]! - t)) best = i;
      expect(nearestIndex(big, t)).toBe(best);
    }
  });
});

describe('windows and distances', () => {
  it('splices a window of full detail into the overview', () => {
    const overview = points([{ t: 0 }, { t: 100 }, { t: 200 }, { t: 300 }]);
    const detail = points([{ t: 90 }, { t: 100 }, { t: 150 }, { t: 199 }, { t: 200 }]);
    const merged = spliceWindow(overview, detail, 100, 200);
    expect(merged.t).toEqual([0, 100, 150, 199, 200, 300]);
    expect(merged.lat).toHaveLength(6);
  });

  it('spans the points, or the range without any', () => {
    expect(trackDomain({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', points: points([{ t: 5 }, { t: 9 }]) })).toEqual([5, 9]);
    expect(trackDomain({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', points: points([]) })).toEqual([Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-01-02T00:00:00Z')]);
  });

  it('measures a degree of latitude as about 111 km', () => {
    expect(distanceM([30, 120], [31, 120])).toBeGreaterThan(111_000);
    expect(distanceM([30, 120], [31, 120])).toBeLessThan(111_400);
  });
});

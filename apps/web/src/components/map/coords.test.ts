import { describe, expect, it } from 'vitest';
import { DisplayPositions, toDisplay } from './coords.ts';

describe('toDisplay', () => {
  it('leaves positions alone on WGS-84 tiles', () => {
    expect(toDisplay(39.9087, 116.3975, 'wgs84')).toEqual([39.9087, 116.3975]);
    expect(toDisplay(31.2304, 121.4737, 'wgs84')).toEqual([31.2304, 121.4737]);
  });

  it('moves points in China by the GCJ-02 offset (a few hundred metres north-east/east)', () => {
    // Tiananmen: WGS-84 39.9087, 116.3975 is drawn at about 39.9101, 116.4037 on AutoNavi tiles.
    const [bLat, bLon] = toDisplay(39.9087, 116.3975, 'gcj02');
    expect(bLat - 39.9087).toBeGreaterThan(0.001);
    expect(bLat - 39.9087).toBeLessThan(0.002);
    expect(bLon - 116.3975).toBeGreaterThan(0.005);
    expect(bLon - 116.3975).toBeLessThan(0.007);
    expect(bLat).toBeCloseTo(39.9101, 3);
    expect(bLon).toBeCloseTo(116.4037, 3);

    // The Bund, Shanghai: the offset there is about -0.002 in latitude, +0.0045 in longitude.
    const [sLat, sLon] = toDisplay(31.2304, 121.4737, 'gcj02');
    expect(sLat - 31.2304).toBeLessThan(-0.001);
    expect(sLat - 31.2304).toBeGreaterThan(-0.003);
    expect(sLon - 121.4737).toBeGreaterThan(0.004);
    expect(sLon - 121.4737).toBeLessThan(0.006);
  });

  it('leaves points outside China unchanged', () => {
    expect(toDisplay(52.52, 13.405, 'gcj02')).toEqual([52.52, 13.405]); // Berlin
    expect(toDisplay(48.8566, 2.3522, 'gcj02')).toEqual([48.8566, 2.3522]); // Paris
    expect(toDisplay(-33.8688, 151.2093, 'gcj02')).toEqual([-33.8688, 151.2093]); // Sydney
    expect(toDisplay(40.7128, -74.006, 'gcj02')).toEqual([40.7128, -74.006]); // New York
  });

  it('passes non-finite values through instead of throwing', () => {
    const [lat, lon] = toDisplay(Number.NaN, 116.4, 'gcj02');
    expect(lat).toBeNaN();
    expect(lon).toBe(116.4);
  });
});

describe('DisplayPositions', () => {
  it('converts like toDisplay and reuses a conversion while the device stays put', () => {
    const positions = new DisplayPositions('gcj02');
    const truck = { id: 't1', lat: 39.9087, lon: 116.3975 };
    const first = positions.of(truck);
    expect(first).toEqual(toDisplay(truck.lat, truck.lon, 'gcj02'));
    expect(positions.of({ ...truck })).toBe(first);
    const moved = positions.of({ ...truck, lat: 39.95 });
    expect(moved).not.toBe(first);
    expect(moved).toEqual(toDisplay(39.95, truck.lon, 'gcj02'));
  });

  it('passes positions through on WGS-84 tiles', () => {
    expect(new DisplayPositions('wgs84').of({ id: 'x', lat: 31.2304, lon: 121.4737 })).toEqual([31.2304, 121.4737]);
  });
});

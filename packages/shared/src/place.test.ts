// Point in polygon, a polygon's circle, GeoJSON both ways, and the alarm rules' allowed places
// with a polygon among them.
import { describe, expect, it } from 'vitest';
import { inPlaces } from './alarm-rules.ts';
import { featurePlace, openRing, placeFeature, pointInPolygon, polygonCircle } from './place.ts';

// An L-shaped yard: the notch (31.015, 121.415) is outside though inside its bounding box.
const L: [number, number][] = [
  [31.0, 121.4],
  [31.0, 121.42],
  [31.01, 121.42],
  [31.01, 121.41],
  [31.02, 121.41],
  [31.02, 121.4],
];

describe('pointInPolygon', () => {
  it('tells inside from outside, the notch of a concave polygon included', () => {
    expect(pointInPolygon(31.005, 121.41, L)).toBe(true);
    expect(pointInPolygon(31.015, 121.405, L)).toBe(true);
    expect(pointInPolygon(31.015, 121.415, L)).toBe(false);
    expect(pointInPolygon(30.99, 121.41, L)).toBe(false);
    expect(pointInPolygon(31.005, 121.43, L)).toBe(false);
  });
  it('answers the same with the ring closed', () => {
    expect(pointInPolygon(31.005, 121.41, [...L, L[0]!])).toBe(true);
    expect(openRing([...L, L[0]!])).toEqual(L);
  });
});

describe('inPlaces', () => {
  it('uses the polygon when a place has one, the circle otherwise', () => {
    const c = polygonCircle(L);
    const poly = { name: 'Yard', lat: c.lat, lon: c.lon, radiusM: c.radiusM, polygon: L };
    // Inside the enclosing circle but in the notch: not allowed.
    expect(inPlaces([poly], 31.015, 121.415)).toBe(false);
    expect(inPlaces([poly], 31.005, 121.41)).toBe(true);
    expect(inPlaces([{ name: 'Gate', lat: 31.015, lon: 121.415, radiusM: 50 }, poly], 31.015, 121.415)).toBe(true);
    expect(inPlaces([poly], null, null)).toBe(false);
  });
});

describe('GeoJSON', () => {
  it('writes a circle as a Point with its radius and a polygon as a closed ring, and reads them back', () => {
    const circle = { name: 'Depot', shape: 'circle' as const, lat: 31.2, lon: 121.5, radiusM: 400, polygon: null, note: '' };
    const f = placeFeature(circle);
    expect(f).toEqual({ type: 'Feature', geometry: { type: 'Point', coordinates: [121.5, 31.2] }, properties: { name: 'Depot', radiusM: 400, note: '' } });
    expect(featurePlace(f)).toEqual({ name: 'Depot', shape: 'circle', lat: 31.2, lon: 121.5, radiusM: 400, note: '' });
    const c = polygonCircle(L);
    const g = placeFeature({ name: 'Yard', shape: 'polygon', ...c, polygon: L, note: 'L' });
    expect(g.geometry.type).toBe('Polygon');
    expect(featurePlace(g)).toEqual({ name: 'Yard', shape: 'polygon', polygon: L, note: 'L' });
  });
});

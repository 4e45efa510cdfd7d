// Where a device is drawn: positions arrive in WGS-84 (GPS); Chinese tile providers (AutoNavi,
// Tencent) draw their maps in GCJ-02, so on their tiles a WGS-84 point lands a few hundred metres
// off the road. gcoord does the conversion (and leaves points outside China unchanged).
import gcoord from 'gcoord';
import type { MapConfig } from '@iotc/shared/live';

export type TileCrs = MapConfig['tileCrs'];

/** The [lat, lon] at which a WGS-84 position is drawn on a base map in `crs`. */
export function toDisplay(lat: number, lon: number, crs: TileCrs): [number, number] {
  if (crs !== 'gcj02' || !Number.isFinite(lat) || !Number.isFinite(lon)) return [lat, lon];
  const [x, y] = gcoord.transform<[number, number]>([lon, lat], gcoord.WGS84, gcoord.GCJ02);
  return [y, x];
}

/** The WGS-84 [lat, lon] of a point on a base map drawn in `crs` (a click on the map). */
export function fromDisplay(lat: number, lon: number, crs: TileCrs): [number, number] {
  if (crs !== 'gcj02' || !Number.isFinite(lat) || !Number.isFinite(lon)) return [lat, lon];
  const [x, y] = gcoord.transform<[number, number]>([lon, lat], gcoord.GCJ02, gcoord.WGS84);
  return [y, x];
}

/**
 * Display positions of many devices over time: remembers each device's last conversion, so a new
 * list in which few devices moved converts only those (gcoord takes a few microseconds a point).
 */
export class DisplayPositions {
  private readonly cache = new Map<string, { lat: number; lon: number; at: [number, number] }>();

  constructor(readonly crs: TileCrs) {}

  of(point: { id: string; lat: number; lon: number }): [number, number] {
    if (this.crs !== 'gcj02') return [point.lat, point.lon];
    const hit = this.cache.get(point.id);
    if (hit && hit.lat === point.lat && hit.lon === point.lon) return hit.at;
    const at = toDisplay(point.lat, point.lon, this.crs);
    this.cache.set(point.id, { lat: point.lat, lon: point.lon, at });
    return at;
  }

  /** Forgets everything once it holds far more devices than are listed (devices come and go). */
  trim(listed: number): void {
    if (this.cache.size > 2 * listed + 100) this.cache.clear();
  }
}

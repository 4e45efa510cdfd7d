// The geocoder (GEOCODER_URL on the server): whether one is configured (read once per session; the
// address search hides without one), places matching an address, and the address at a position
// (cached here per position and language, and on the server for everyone).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { GEOCODE_API, roundCoord, type GeocodeConfig, type GeocodePlace, type GeocodeReverse, type GeocodeSearch } from '@iotc/shared/geocode';
import type { Lang } from '@iotc/shared/i18n';
import { useLang } from '../lib/language.ts';
import { request } from './client.ts';

export function geocodeConfigQueryOptions() {
  return queryOptions({
    queryKey: ['geocode-config'] as const,
    queryFn: ({ signal }) => request<GeocodeConfig>(GEOCODE_API.config, { signal, silent: true }),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/** Whether the server has a geocoder (false while not known). */
export function useGeocoderEnabled(): boolean {
  return useQuery(geocodeConfigQueryOptions()).data?.enabled === true;
}

/** Places matching `q`; a failure is shown to the user in their language by the client. */
export async function searchPlaces(q: string, lang: Lang, signal?: AbortSignal): Promise<GeocodePlace[]> {
  return (await request<GeocodeSearch>(GEOCODE_API.search, { query: { q, lang }, signal })).places;
}

/**
 * The address at a position, or null (no geocoder, none known, not answered: the coordinates
 * stand alone). Positions within about 11 m share one answer.
 */
export function useAddress(lat: number | null | undefined, lon: number | null | undefined): string | null {
  const enabled = useGeocoderEnabled();
  const lang = useLang();
  const known = typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon);
  const key = known ? [roundCoord(lat), roundCoord(lon)] : [];
  const answer = useQuery({
    queryKey: ['geocode-reverse', lang, ...key] as const,
    queryFn: ({ signal }) => request<GeocodeReverse>(GEOCODE_API.reverse, { query: { lat: key[0], lon: key[1], lang }, signal, silent: true }),
    enabled: enabled && known,
    staleTime: Infinity,
    retry: false,
  });
  return enabled && known ? (answer.data?.address ?? null) : null;
}

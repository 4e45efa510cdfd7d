// GET /api/iot/v2/map-config: the base map (tile address, coordinate system, zoom limit); it
// changes only with the server's configuration, so it is read once per session. Shared by the
// live maps of the device and alarm screens.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIVE_API, type MapConfig } from '@iotc/shared/live';
import { request } from './client.ts';

export function fetchMapConfig(signal?: AbortSignal): Promise<MapConfig> {
  return request<MapConfig>(LIVE_API.mapConfig, { signal, silent: true });
}

export function mapConfigQueryOptions() {
  return queryOptions({
    queryKey: ['map-config'] as const,
    queryFn: ({ signal }) => fetchMapConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function useMapConfig() {
  return useQuery(mapConfigQueryOptions());
}

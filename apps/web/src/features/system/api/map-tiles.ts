// GET and PUT /api/iot/v2/platform/map-tiles: the base map's tile source, platform administrator
// only. A save refreshes the session's map configuration, so the maps follow at once.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAP_TILES_API, type MapTilesSetting, type MapTilesView } from '@iotc/shared/map-tiles';
import { request } from '../../../api/client.ts';
import { mapConfigQueryOptions } from '../../../api/map-config.ts';

export function mapTilesOptions() {
  return queryOptions({
    queryKey: [MAP_TILES_API.setting] as const,
    queryFn: ({ signal }) => request<MapTilesView>(MAP_TILES_API.setting, { signal }),
  });
}

export function useMapTiles() {
  return useQuery(mapTilesOptions());
}

export function useSaveMapTiles() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (setting: MapTilesSetting) => request<MapTilesView>(MAP_TILES_API.setting, { method: 'PUT', body: setting, silent: true }),
    onSuccess: (view) => {
      client.setQueryData(mapTilesOptions().queryKey, view);
      void client.invalidateQueries({ queryKey: mapConfigQueryOptions().queryKey });
    },
  });
}

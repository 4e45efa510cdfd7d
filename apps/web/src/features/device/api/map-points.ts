// GET /api/iot/v2/device-states/points: every positioned device the filters match, as map
// points; read on a filter change and after the live channel reconnects, updated live between.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIVE_API, type DeviceStatus, type MapPoint } from '@iotc/shared/live';
import { request } from '../../../api/client.ts';

export interface PointsFilter {
  keyword?: string;
  assetKind?: string;
  status?: DeviceStatus;
}

export function fetchPoints(f: PointsFilter, signal?: AbortSignal): Promise<MapPoint[]> {
  return request<MapPoint[]>(LIVE_API.points, { query: { keyword: f.keyword, assetKind: f.assetKind, status: f.status }, signal });
}

export function pointsQueryOptions(f: PointsFilter) {
  return queryOptions({
    queryKey: ['monitor', 'points', f.keyword ?? '', f.assetKind ?? '', f.status ?? ''] as const,
    queryFn: ({ signal }) => fetchPoints(f, signal),
    // The live channel keeps the points current; only a filter change or a reconnect reads them again.
    staleTime: Infinity,
  });
}

export function usePoints(f: PointsFilter) {
  return useQuery(pointsQueryOptions(f));
}

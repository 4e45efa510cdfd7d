// GET /api/iot/v2/devices/:id/latest: a device's latest state (position, sensor values, status,
// the asset it is mounted on). One cache entry per device: the monitoring screen writes live
// batches into it, and every screen that shows the device reads it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEVICE_API } from '@iotc/shared/device';
import type { DeviceState } from '@iotc/shared/live';
import { request } from './client.ts';

export function fetchLatest(id: string, signal?: AbortSignal): Promise<DeviceState> {
  return request<DeviceState>(`${DEVICE_API.devices}/${encodeURIComponent(id)}/latest`, { signal });
}

export function latestQueryKey(id: string) {
  return ['device', 'latest', id] as const;
}

export function latestQueryOptions(id: string) {
  return queryOptions({
    queryKey: latestQueryKey(id),
    queryFn: ({ signal }) => fetchLatest(id, signal),
    staleTime: 30_000,
  });
}

export function useLatest(id: string | null | undefined) {
  return useQuery({ ...latestQueryOptions(id ?? ''), enabled: !!id });
}

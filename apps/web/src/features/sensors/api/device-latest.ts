// GET /api/iot/v2/devices/:id/latest: the device's latest state; the curves take the range
// limits of the asset it is mounted on from it, and the picker the device's name.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEVICE_API } from '@iotc/shared/device';
import type { DeviceState } from '@iotc/shared/live';
import { request } from '../../../api/client.ts';

export function fetchDeviceLatest(id: string, signal?: AbortSignal): Promise<DeviceState> {
  return request<DeviceState>(`${DEVICE_API.devices}/${encodeURIComponent(id)}/latest`, { signal });
}

export function deviceLatestQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['device', 'latest', id] as const,
    queryFn: ({ signal }) => fetchDeviceLatest(id, signal),
    staleTime: 60_000,
  });
}

export function useDeviceLatest(id: string | undefined) {
  return useQuery({ ...deviceLatestQueryOptions(id ?? ''), enabled: !!id });
}

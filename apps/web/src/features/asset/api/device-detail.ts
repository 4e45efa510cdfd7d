// GET /api/iot/v2/devices/:id: one device as stored now (the drawer's fields and bound asset).
import { useQuery } from '@tanstack/react-query';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import { request } from '../../../api/client.ts';

export const DEVICE_DETAIL_KEY = ['asset', 'device'] as const;

export function useDevice(id: string | undefined) {
  return useQuery({
    queryKey: [...DEVICE_DETAIL_KEY, id],
    queryFn: ({ signal }) => request<DeviceRow>(`${DEVICE_API.devices}/${encodeURIComponent(id!)}`, { signal }),
    enabled: !!id,
  });
}

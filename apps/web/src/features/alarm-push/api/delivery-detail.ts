// GET /api/iot/v2/deliveries/:id: one delivery with every attempt, oldest first.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { PUSH_API, type DeliveryDetail } from '@iotc/shared/alarm-push';
import { request } from '../../../api/client.ts';

export const deliveryKey = (id: string) => ['alarmPush', 'delivery', id] as const;

export function deliveryQueryOptions(id: string) {
  return queryOptions({
    queryKey: deliveryKey(id),
    // Silent: the drawer says it could not load, with a retry.
    queryFn: ({ signal }) => request<DeliveryDetail>(`${PUSH_API.deliveries}/${encodeURIComponent(id)}`, { signal, silent: true }),
  });
}

export function useDelivery(id: string | null) {
  return useQuery({ ...deliveryQueryOptions(id ?? ''), enabled: !!id });
}

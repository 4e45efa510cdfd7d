// GET /api/iot/v2/faults/:id: one fault with its repair records (oldest first), for the drawer.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { FAULT_API, type FaultDetail } from '@iotc/shared/fault';
import { request } from '../../../api/client.ts';
import { FAULT_KEY } from './faults.ts';

export const faultPath = (id: string) => `${FAULT_API.faults}/${encodeURIComponent(id)}`;

export function faultQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...FAULT_KEY, id] as const,
    queryFn: ({ signal }) => request<FaultDetail>(faultPath(id), { signal }),
  });
}

export function useFault(id: string | null) {
  return useQuery({ ...faultQueryOptions(id ?? ''), enabled: !!id });
}

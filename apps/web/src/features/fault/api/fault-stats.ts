// GET /api/iot/v2/faults/stats: how many faults of each kind and of each status the filters
// (the list's, without paging) match, for the counters above the list.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { FAULT_API, type FaultStats } from '@iotc/shared/fault';
import { request } from '../../../api/client.ts';
import type { FilterValues } from '../../../lib/list-query.ts';
import { FAULT_KEY } from './faults.ts';

export function faultStatsQueryOptions(filters: FilterValues) {
  return queryOptions({
    queryKey: [...FAULT_KEY, 'stats', filters] as const,
    queryFn: ({ signal }) => request<FaultStats>(`${FAULT_API.faults}/stats`, { query: filters, signal }),
    // The counters keep the last numbers while new filters load, instead of blinking empty.
    placeholderData: keepPreviousData,
  });
}

export function useFaultStats(filters: FilterValues, enabled = true) {
  return useQuery({ ...faultStatsQueryOptions(filters), enabled });
}

// GET /api/iot/v2/device-states/summary: how many of the caller's devices are in each status,
// re-read every 15 s while the home screen is open.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIVE_API, type StatusCounts } from '@iotc/shared/live';
import { request } from '../../../api/client.ts';

export const STATUS_SUMMARY_REFRESH_MS = 15_000;

export function fetchStatusSummary(signal?: AbortSignal): Promise<StatusCounts> {
  return request<StatusCounts>(LIVE_API.summary, { signal });
}

export function statusSummaryQueryOptions() {
  return queryOptions({
    queryKey: ['home', 'status-summary'] as const,
    queryFn: ({ signal }) => fetchStatusSummary(signal),
    refetchInterval: STATUS_SUMMARY_REFRESH_MS,
  });
}

export function useStatusSummary() {
  return useQuery(statusSummaryQueryOptions());
}

// GET /api/iot/v2/device-states/summary: the counts of the status tabs (all, unused, shutdown,
// offline, parked, driving) for the keyword and asset kind in force, re-read every 10 s.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIVE_API, type StatusCounts } from '@iotc/shared/live';
import { request } from '../../../api/client.ts';

export const SUMMARY_REFRESH_MS = 10_000;

export interface SummaryFilter {
  keyword?: string;
  assetKind?: string;
}

export function fetchSummary(f: SummaryFilter, signal?: AbortSignal): Promise<StatusCounts> {
  return request<StatusCounts>(LIVE_API.summary, { query: { keyword: f.keyword, assetKind: f.assetKind }, signal });
}

export function summaryQueryOptions(f: SummaryFilter) {
  return queryOptions({
    queryKey: ['monitor', 'summary', f.keyword ?? '', f.assetKind ?? ''] as const,
    queryFn: ({ signal }) => fetchSummary(f, signal),
    refetchInterval: SUMMARY_REFRESH_MS,
  });
}

export function useSummary(f: SummaryFilter) {
  return useQuery(summaryQueryOptions(f));
}

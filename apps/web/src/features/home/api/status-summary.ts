// GET /api/iot/v2/device-states/summary?assetKind=vehicle: how many of the caller's vehicles
// (the devices mounted on vehicles, one tracker each) are in each status (the spec's home:
// 'vehicle counts by status'), re-read every 15 s while the home screen is open.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIVE_API, type StatusCounts } from '@iotc/shared/live';
import { request } from '../../../api/client.ts';

export const STATUS_SUMMARY_REFRESH_MS = 15_000;

/** The asset kind the home counts. */
export const HOME_ASSET_KIND = 'vehicle';

export function fetchStatusSummary(signal?: AbortSignal): Promise<StatusCounts> {
  return request<StatusCounts>(LIVE_API.summary, { query: { assetKind: HOME_ASSET_KIND }, signal });
}

export function statusSummaryQueryOptions() {
  return queryOptions({
    queryKey: ['home', 'status-summary', HOME_ASSET_KIND] as const,
    queryFn: ({ signal }) => fetchStatusSummary(signal),
    refetchInterval: STATUS_SUMMARY_REFRESH_MS,
  });
}

export function useStatusSummary() {
  return useQuery(statusSummaryQueryOptions());
}

// GET /api/iot/v2/telemetry/series: the selected device's curves over the last 24 hours,
// thinned by the server to at most SERIES_MAX_POINTS points (enough for a panel-wide chart).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIVE_API, type Series } from '@iotc/shared/live';
import { request } from '../../../api/client.ts';

export const SERIES_MAX_POINTS = 500;

export interface SeriesWindow {
  device: string;
  /** ISO 8601 UTC. */
  from: string;
  to: string;
}

export function fetchSeries(w: SeriesWindow, signal?: AbortSignal): Promise<Series> {
  return request<Series>(LIVE_API.series, { query: { device: w.device, from: w.from, to: w.to, maxPoints: SERIES_MAX_POINTS }, signal });
}

export function seriesQueryOptions(w: SeriesWindow) {
  return queryOptions({
    queryKey: ['monitor', 'series', w.device, w.from, w.to] as const,
    queryFn: ({ signal }) => fetchSeries(w, signal),
  });
}

export function useSeries(w: SeriesWindow | null) {
  return useQuery({ ...seriesQueryOptions(w ?? { device: '', from: '', to: '' }), enabled: !!w });
}

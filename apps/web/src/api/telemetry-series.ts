// GET /api/iot/v2/telemetry/series: a device's curves over a window, one time axis and the values
// of each sensor it reported, thinned by the server to at most `maxPoints` points (as many as
// the chart is wide enough to show).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIVE_API, type Series } from '@iotc/shared/live';
import { request } from './client.ts';

export interface SeriesWindow {
  /** The device row's id. */
  device: string;
  /** ISO 8601 UTC. */
  from: string;
  to: string;
}

/** Cache keys of every series start with this. */
export const SERIES_KEY = ['telemetry', 'series'] as const;

export function fetchSeries(w: SeriesWindow, maxPoints: number, signal?: AbortSignal): Promise<Series> {
  return request<Series>(LIVE_API.series, { query: { device: w.device, from: w.from, to: w.to, maxPoints }, signal });
}

export function seriesQueryOptions(w: SeriesWindow, maxPoints: number) {
  return queryOptions({
    queryKey: [...SERIES_KEY, w.device, w.from, w.to, maxPoints] as const,
    queryFn: ({ signal }) => fetchSeries(w, maxPoints, signal),
  });
}

export function useSeries(w: SeriesWindow | null | undefined, maxPoints: number) {
  return useQuery({ ...seriesQueryOptions(w ?? { device: '', from: '', to: '' }, maxPoints), enabled: !!w });
}

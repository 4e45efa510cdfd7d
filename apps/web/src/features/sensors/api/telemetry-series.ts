// GET /api/iot/v2/telemetry/series: a device's curves over a window, one time axis and the values
// of each sensor it reported, thinned by the server to at most SERIES_MAX_POINTS points.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIVE_API, type Series } from '@iotc/shared/live';
import { request } from '../../../api/client.ts';

export const SERIES_MAX_POINTS = 2000;

export interface SensorWindow {
  /** The device row's id. */
  device: string;
  /** ISO 8601 UTC. */
  from: string;
  to: string;
}

export function fetchSeries(w: SensorWindow, signal?: AbortSignal): Promise<Series> {
  return request<Series>(LIVE_API.series, { query: { device: w.device, from: w.from, to: w.to, maxPoints: SERIES_MAX_POINTS }, signal });
}

export function seriesQueryOptions(w: SensorWindow) {
  return queryOptions({
    queryKey: ['telemetry', 'series', w.device, w.from, w.to] as const,
    queryFn: ({ signal }) => fetchSeries(w, signal),
  });
}

export function useSeries(w: SensorWindow | undefined) {
  return useQuery({ ...seriesQueryOptions(w ?? { device: '', from: '', to: '' }), enabled: !!w });
}

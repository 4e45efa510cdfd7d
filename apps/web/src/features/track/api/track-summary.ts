// GET /api/iot/v2/tracks/summary: trips, stops, alarm markers and the statistics of the same
// device or task and range as the track.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TRACK_API, type TrackSummary } from '@iotc/shared/track';
import { request } from '../../../api/client.ts';
import type { TrackTarget } from './track.ts';

export function trackSummaryQueryOptions(target: TrackTarget) {
  const query = { deviceId: target.deviceId, taskId: target.taskId, from: target.from, to: target.to };
  return queryOptions({
    queryKey: ['track', 'summary', query] as const,
    queryFn: ({ signal }) => request<TrackSummary>(TRACK_API.summary, { query, signal }),
    staleTime: 60_000,
  });
}

export function useTrackSummary(target: TrackTarget | undefined) {
  return useQuery({ ...trackSummaryQueryOptions(target ?? {}), enabled: !!target });
}

// GET /api/iot/v2/tracks: a device's (or a task's) positions and sensor values over a range, at
// most `maxPoints` of them (one per time bucket when the range holds more, see `simplified`).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_TRACK_POINTS, TRACK_API, type TrackAnswer } from '@iotc/shared/track';
import { request } from '../../../api/client.ts';

/** What a track is asked for: a device or a task, and a range (a task's own span when absent). */
export interface TrackTarget {
  deviceId?: string;
  taskId?: string;
  from?: string;
  to?: string;
}

export function trackQuery(target: TrackTarget, maxPoints = DEFAULT_TRACK_POINTS) {
  return { deviceId: target.deviceId, taskId: target.taskId, from: target.from, to: target.to, maxPoints };
}

export function fetchTrack(target: TrackTarget, maxPoints: number, signal?: AbortSignal): Promise<TrackAnswer> {
  return request<TrackAnswer>(TRACK_API.track, { query: trackQuery(target, maxPoints), signal });
}

export function trackQueryOptions(target: TrackTarget, maxPoints = DEFAULT_TRACK_POINTS) {
  return queryOptions({
    queryKey: ['track', 'points', trackQuery(target, maxPoints)] as const,
    queryFn: ({ signal }) => fetchTrack(target, maxPoints, signal),
    // A past track does not change; a range reaching now is read again on the next visit.
    staleTime: 60_000,
  });
}

export function useTrack(target: TrackTarget | undefined) {
  return useQuery({ ...trackQueryOptions(target ?? {}), enabled: !!target });
}

/** A zoomed window asked again in full detail; the previous window stays drawn while it loads. */
export function useTrackWindow(target: TrackTarget | undefined) {
  return useQuery({ ...trackQueryOptions(target ?? {}), enabled: !!target, placeholderData: keepPreviousData });
}

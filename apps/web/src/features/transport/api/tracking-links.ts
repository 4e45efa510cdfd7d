// Consignee tracking links of a task (TRACKING_API): the task's links (paged, with their status),
// making one (the token comes back this once), revoking one, and, without login, what a live link
// shows, asked again every TRACKING_REFRESH_MS.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import {
  TRACKING_API,
  TRACKING_REFRESH_MS,
  type PublicTracking,
  type TrackingLinkAnswer,
  type TrackingLinkBody,
  type TrackingLinkRow,
} from '@iotc/shared/transport-tracking';
import { request } from '../../../api/client.ts';

/** Every tracking-link list, whatever the task or page. */
const LINKS_KEY = ['tracking-links'] as const;

export function useTaskTrackingLinks(taskId: string | null, page: number, size: number) {
  return useQuery({
    queryKey: [...LINKS_KEY, taskId, page, size] as const,
    queryFn: ({ signal }) => request<Page<TrackingLinkRow>>(TRACKING_API.taskLinks(encodeURIComponent(taskId ?? '')), { query: { page, size }, signal }),
    enabled: !!taskId,
    placeholderData: keepPreviousData,
  });
}

const invalidateLinks = (client: QueryClient) => client.invalidateQueries({ queryKey: LINKS_KEY });

export function useCreateTrackingLink(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TrackingLinkBody) => request<TrackingLinkAnswer>(TRACKING_API.taskLinks(encodeURIComponent(taskId)), { method: 'POST', body }),
    onSuccess: () => invalidateLinks(client),
  });
}

export function useRevokeTrackingLink() {
  const client = useQueryClient();
  return useMutation({
    // Silent: the confirmation that asked for it reports a refusal itself.
    mutationFn: (id: string) => request<TrackingLinkRow>(TRACKING_API.revoke(encodeURIComponent(id)), { method: 'POST', silent: true }),
    onSuccess: () => invalidateLinks(client),
  });
}

export function publicTrackingQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['public-tracking', token] as const,
    queryFn: ({ signal }) => request<PublicTracking>(TRACKING_API.public(encodeURIComponent(token)), { signal, silent: true, noAuthDialog: true }),
    retry: false,
    // Live: asked again every 30 s, also in a background tab (a wall screen at the goods-in door).
    refetchInterval: (q) => (q.state.error ? false : TRACKING_REFRESH_MS),
    refetchIntervalInBackground: true,
  });
}

export function usePublicTracking(token: string) {
  return useQuery(publicTrackingQueryOptions(token));
}

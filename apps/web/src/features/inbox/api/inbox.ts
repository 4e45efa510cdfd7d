// The header's inbox calls: the unread count (the bell), a page of items (the drawer, in the
// request language: part of the key), marking some or all read. Every key starts with
// INBOX_KEY, so a mark or the live channel's news reads the bell and the drawer again.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import type { Lang } from '@iotc/shared/i18n';
import { INBOX_API, type InboxCount, type InboxFilter, type InboxItem, type InboxMarked } from '@iotc/shared/inbox';
import { request } from '../../../api/client.ts';

export const INBOX_KEY = ['inbox'] as const;
export const INBOX_PAGE_SIZE = 10;

/** Reads the count and the open drawer's page again. */
export function invalidateInbox(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: INBOX_KEY });
}

export function unreadCountQueryOptions() {
  return queryOptions({
    queryKey: [...INBOX_KEY, 'count'] as const,
    queryFn: ({ signal }) => request<InboxCount>(INBOX_API.unreadCount, { signal }),
    select: (d) => d.unread,
  });
}

export function useUnreadCount() {
  return useQuery(unreadCountQueryOptions());
}

export function inboxPageQueryOptions(lang: Lang, filter: InboxFilter, page: number, size = INBOX_PAGE_SIZE) {
  return queryOptions({
    queryKey: [...INBOX_KEY, 'list', lang, filter, page, size] as const,
    queryFn: ({ signal }) => request<Page<InboxItem>>(INBOX_API.list, { query: { filter, page, size }, signal }),
  });
}

/** A page of the drawer (INBOX_PAGE_SIZE) or of the full inbox page (`size`). */
export function useInboxPage(lang: Lang, filter: InboxFilter, page: number, enabled: boolean, size = INBOX_PAGE_SIZE) {
  return useQuery({ ...inboxPageQueryOptions(lang, filter, page, size), enabled, placeholderData: (prev) => prev });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => request<InboxMarked>(INBOX_API.read, { method: 'POST', body: { ids } }),
    onSuccess: () => invalidateInbox(client),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request<InboxMarked>(INBOX_API.readAll, { method: 'POST' }),
    onSuccess: () => invalidateInbox(client),
  });
}

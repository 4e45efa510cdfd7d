// The home screen's two feeds (message alerts, platform notifications) read page after page of
// a list call (`{ rows, total, page, size }`): the next page is asked for only while rows remain.
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import { request } from '../../../api/client.ts';

export const FEED_PAGE_SIZE = 10;

export function fetchFeedPage<T>(path: string, page: number, signal?: AbortSignal, query: Record<string, string> = {}): Promise<Page<T>> {
  return request<Page<T>>(path, { query: { ...query, page, size: FEED_PAGE_SIZE }, signal });
}

/** The page after `last`, or undefined when every row has been read. */
export function nextFeedPage<T>(last: Page<T>, pages: Page<T>[]): number | undefined {
  const read = pages.reduce((n, p) => n + p.rows.length, 0);
  // An empty page ends the feed even if the total says otherwise (rows went away meanwhile).
  if (last.rows.length === 0 || read >= last.total) return undefined;
  return last.page + 1;
}

/** `query`: filters of the list call, part of the key; `extraKey`: anything else the answer depends on. */
export function feedQueryOptions<T>(path: string, extraKey: readonly unknown[] = [], query: Record<string, string> = {}) {
  return infiniteQueryOptions({
    queryKey: ['home', 'feed', path, ...extraKey, query] as const,
    queryFn: ({ pageParam, signal }) => fetchFeedPage<T>(path, pageParam, signal, query),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => nextFeedPage(last, pages),
  });
}

// GET LEDGER_API.records (signed in) and LEDGER_API.public(token) (no login): every page of a
// scope's logged records, paged on with `after` = the previous page's `next`, up to
// MAX_VERIFY_RECORDS, with the count loaded so far for a progress line. The answer is checked in
// the browser afterwards (lib/verify.ts), so the raw pages are what this returns.
import { useState } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LEDGER_API, type PublicRecordsAnswer, type RecordsAnswer } from '@iotc/shared/ledger/api';
import { request, type QueryValue } from '../../../api/client.ts';

/** Most records one screen loads and checks (ten pages of the server's 200). */
export const MAX_VERIFY_RECORDS = 2000;

/** One of the scopes a records call (and a share) takes. */
export type LedgerScope = { taskId: string } | { deviceId: string; from: string; to: string } | { warehouseBatch: string } | { warehouseRecordId: string };

export interface LoadedPages<A extends RecordsAnswer> {
  pages: A[];
  /** More records exist beyond MAX_VERIFY_RECORDS. */
  truncated: boolean;
}

type Progress = (loaded: number) => void;

async function allPages<A extends RecordsAnswer>(fetchPage: (after: number | undefined) => Promise<A>, onProgress: Progress): Promise<LoadedPages<A>> {
  const pages: A[] = [];
  let loaded = 0;
  let after: number | undefined;
  for (;;) {
    const page = await fetchPage(after);
    pages.push(page);
    loaded += page.items.length;
    onProgress(loaded);
    if (page.next === null || page.items.length === 0) return { pages, truncated: false };
    if (loaded >= MAX_VERIFY_RECORDS) return { pages, truncated: true };
    after = page.next;
  }
}

export const LEDGER_RECORDS_KEY = ['ledger', 'records'] as const;

export function ledgerRecordsQueryOptions(scope: LedgerScope | null, onProgress: Progress = () => {}) {
  return queryOptions({
    queryKey: [...LEDGER_RECORDS_KEY, scope] as const,
    queryFn: ({ signal }) =>
      allPages((after) => request<RecordsAnswer>(LEDGER_API.records, { query: { ...(scope as Record<string, QueryValue>), after }, signal }), onProgress),
    enabled: scope !== null,
    // A changed row must show at once on the next look: no stale answers.
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** The pages of a scope and how many records have arrived so far (for the progress line). */
export function useLedgerRecords(scope: LedgerScope | null) {
  const [loaded, setLoaded] = useState(0);
  const query = useQuery(ledgerRecordsQueryOptions(scope, setLoaded));
  return { ...query, loaded };
}

export const PUBLIC_RECORDS_KEY = ['ledger', 'public'] as const;

export function publicRecordsQueryOptions(token: string, onProgress: Progress = () => {}) {
  return queryOptions({
    queryKey: [...PUBLIC_RECORDS_KEY, token] as const,
    // Silent: an unknown or expired link is this page's own state, not an error notification.
    queryFn: ({ signal }) => allPages((after) => request<PublicRecordsAnswer>(LEDGER_API.public(token), { query: { after }, signal, silent: true }), onProgress),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

export function usePublicRecords(token: string) {
  const [loaded, setLoaded] = useState(0);
  const query = useQuery(publicRecordsQueryOptions(token, setLoaded));
  return { ...query, loaded };
}

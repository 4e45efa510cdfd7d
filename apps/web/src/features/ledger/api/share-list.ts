// GET LEDGER_API.shares (`status`, `kind` filters, paged, sorted by createdAt or expiresAt): the
// share links of the caller's organisation tree, of the kinds the caller may read, with their
// status; and the key every share change makes stale.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { LEDGER_API, type ShareRow } from '@iotc/shared/ledger/api';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** Every share list, whatever its filters: listQueryOptions keys start so. */
export const SHARES_KEY = ['list', LEDGER_API.shares] as const;

export function useShares(state: ListState) {
  return useQuery(listQueryOptions<ShareRow>(LEDGER_API.shares, state));
}

export function invalidateShares(client: QueryClient): Promise<unknown> {
  return client.invalidateQueries({ queryKey: SHARES_KEY });
}

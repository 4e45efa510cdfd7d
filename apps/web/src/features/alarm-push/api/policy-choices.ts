// What a push rule may match by policy: GET /api/iot/v2/alarm-policies?orgId= (the rule's
// organisation and those below it, as the server checks), the first page by name as the pick
// list and a keyword search as the user types; and the names of stored ids beyond that page.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ALARM_API, type PolicyRow } from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import { MAX_PAGE_SIZE } from '@iotc/shared/list';
import { request } from '../../../api/client.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';

const SEARCH_SIZE = 50;
/** Names looked up one by one for a stored rule: beyond this many, the rest show their ids. */
const MAX_LOOKUPS = 50;

const toOption = (p: Pick<PolicyRow, 'id' | 'name'>): RemoteOption => ({ value: p.id, label: p.name });

export function fetchPolicyChoices(orgId: string | undefined, keyword: string, size: number, signal?: AbortSignal): Promise<RemoteOption[]> {
  const query = { page: 1, size, sort: 'name,asc', orgId, keyword: keyword.trim() || undefined };
  return request<Page<PolicyRow>>(ALARM_API.policies, { query, signal }).then((p) => p.rows.map(toOption));
}

export function searchPolicies(orgId: string | undefined, keyword: string, signal: AbortSignal): Promise<RemoteOption[]> {
  return fetchPolicyChoices(orgId, keyword, SEARCH_SIZE, signal);
}

export function policyChoicesQueryOptions(orgId: string | undefined) {
  return queryOptions({
    queryKey: ['list', ALARM_API.policies, 'alarmPush', orgId ?? null] as const,
    queryFn: ({ signal }) => fetchPolicyChoices(orgId, '', MAX_PAGE_SIZE, signal),
    staleTime: 60_000,
  });
}

export function usePolicyChoices(orgId: string | undefined, enabled: boolean) {
  return useQuery({ ...policyChoicesQueryOptions(orgId), enabled });
}

/** The names of stored policy ids the pick list does not hold (a deleted one stays unnamed). */
export function usePolicyNames(ids: string[], enabled: boolean) {
  return useQuery({
    queryKey: ['alarmPush', 'policyNames', ids],
    queryFn: async ({ signal }) => {
      const found = await Promise.all(
        ids.slice(0, MAX_LOOKUPS).map((id) =>
          request<PolicyRow>(`${ALARM_API.policies}/${encodeURIComponent(id)}`, { signal, silent: true }).then(toOption, () => null),
        ),
      );
      return found.filter((o): o is RemoteOption => o !== null);
    },
    enabled: enabled && ids.length > 0,
    staleTime: 60_000,
  });
}

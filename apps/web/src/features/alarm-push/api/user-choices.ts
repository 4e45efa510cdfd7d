// Users a step may notify: GET /api/iot/v2/users?orgId=&status=active (user:read), the active
// users of the rule's organisation tree, as the server's check accepts them. The first page is
// the pick list; typing searches by account or name. Without user:read the call answers 403 and
// the picker keeps what the rule holds without offering more.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import { MAX_PAGE_SIZE } from '@iotc/shared/list';
import { PLATFORM_API, type UserRow } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';

const SEARCH_SIZE = 50;

export const userLabel = (u: Pick<UserRow, 'account' | 'name'>) => `${u.name} (${u.account})`;

export function fetchUserChoices(orgId: string | undefined, keyword: string, size: number, signal?: AbortSignal): Promise<RemoteOption[]> {
  const query = { page: 1, size, orgId, status: 'active', keyword: keyword.trim() || undefined };
  // Silent: a refusal (no user:read) is shown beside the picker, not as a notification.
  return request<Page<UserRow>>(PLATFORM_API.users, { query, signal, silent: true }).then((p) => p.rows.map((u) => ({ value: u.id, label: userLabel(u) })));
}

export function searchUsers(orgId: string | undefined, keyword: string, signal: AbortSignal): Promise<RemoteOption[]> {
  return fetchUserChoices(orgId, keyword, SEARCH_SIZE, signal);
}

export function userChoicesQueryOptions(orgId: string | undefined) {
  return queryOptions({
    queryKey: ['list', PLATFORM_API.users, 'alarmPush', orgId ?? null] as const,
    queryFn: ({ signal }) => fetchUserChoices(orgId, '', MAX_PAGE_SIZE, signal),
    staleTime: 60_000,
  });
}

export function useUserChoices(orgId: string | undefined, enabled: boolean) {
  return useQuery({ ...userChoicesQueryOptions(orgId), enabled });
}

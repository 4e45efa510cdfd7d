// GET /api/iot/v2/roles/:id: one role with its grants, fresh for the edit form.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Lang } from '@iotc/shared/i18n';
import { PLATFORM_API, type RoleRow } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';

export const ROLE_DETAIL_KEY = ['platform', 'role'] as const;

export function fetchRole(id: string, signal?: AbortSignal): Promise<RoleRow> {
  return request<RoleRow>(`${PLATFORM_API.roles}/${encodeURIComponent(id)}`, { signal });
}

export function roleQueryOptions(id: string, lang: Lang) {
  return queryOptions({
    queryKey: [...ROLE_DETAIL_KEY, id, lang] as const,
    queryFn: ({ signal }) => fetchRole(id, signal),
    // The form edits what is stored now, not what another tab saw a minute ago.
    staleTime: 0,
  });
}

export function useRole(id: string | undefined, lang: Lang) {
  return useQuery({ ...roleQueryOptions(id ?? '', lang), enabled: !!id });
}

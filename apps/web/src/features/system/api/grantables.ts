// GET /api/iot/v2/permissions: what the caller may grant in a role — actions and, per scenario
// type, menu items (names in the request's language).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Lang } from '@iotc/shared/i18n';
import { PLATFORM_API, type Grantables } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';

export function fetchGrantables(signal?: AbortSignal): Promise<Grantables> {
  return request<Grantables>(PLATFORM_API.grantables, { signal });
}

export function grantablesQueryOptions(lang: Lang) {
  return queryOptions({
    queryKey: ['platform', 'grantables', lang] as const,
    queryFn: ({ signal }) => fetchGrantables(signal),
    staleTime: 5 * 60_000,
  });
}

export function useGrantables(lang: Lang, enabled = true) {
  return useQuery({ ...grantablesQueryOptions(lang), enabled });
}

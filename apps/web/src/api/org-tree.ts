// GET /api/iot/v2/orgs/tree: the caller's organisation and everything below it, as one tree.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { PLATFORM_API, type OrgNode } from '@iotc/shared/platform';
import { request } from './client.ts';

export function fetchOrgTree(signal?: AbortSignal): Promise<OrgNode[]> {
  return request<OrgNode[]>(PLATFORM_API.orgTree, { signal });
}

export function orgTreeQueryOptions() {
  return queryOptions({
    queryKey: ['platform', 'orgTree'] as const,
    queryFn: ({ signal }) => fetchOrgTree(signal),
  });
}

/** `enabled` false (the user may not read organisations) asks nothing. */
export function useOrgTree(enabled = true) {
  return useQuery({ ...orgTreeQueryOptions(), enabled });
}

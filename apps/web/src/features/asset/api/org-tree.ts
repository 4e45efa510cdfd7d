// GET /api/iot/v2/orgs/tree: the caller's organisations, for choosing the owner of a new device
// or asset.
import { useQuery } from '@tanstack/react-query';
import { PLATFORM_API, type OrgNode } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';

/** `enabled` false (the user may not read organisations) asks nothing. */
export function useOrgTree(enabled: boolean) {
  return useQuery({
    queryKey: ['platform', 'orgTree'] as const,
    queryFn: ({ signal }) => request<OrgNode[]>(PLATFORM_API.orgTree, { signal }),
    enabled,
  });
}

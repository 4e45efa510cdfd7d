// DELETE /api/iot/v2/orgs/:id (409 ORG_NOT_EMPTY with users or children, NOT_YOUR_ORG for the caller's own).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { orgTreeQueryOptions } from '../../../api/org-tree.ts';

export function deleteOrg(id: string): Promise<unknown> {
  return request(`${PLATFORM_API.orgs}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteOrg() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteOrg,
    onSuccess: () => client.invalidateQueries({ queryKey: orgTreeQueryOptions().queryKey }),
  });
}

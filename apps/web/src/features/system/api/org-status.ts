// POST /api/iot/v2/orgs/:id/deactivate and /activate (409 NOT_YOUR_ORG for the caller's own).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { orgTreeQueryOptions } from '../../../api/org-tree.ts';

export type StatusChange = 'deactivate' | 'activate';

export function changeOrgStatus({ id, change }: { id: string; change: StatusChange }): Promise<unknown> {
  return request(`${PLATFORM_API.orgs}/${encodeURIComponent(id)}/${change}`, { method: 'POST', silent: true });
}

export function useChangeOrgStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeOrgStatus,
    onSuccess: () => client.invalidateQueries({ queryKey: orgTreeQueryOptions().queryKey }),
  });
}

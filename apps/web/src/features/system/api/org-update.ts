// PUT /api/iot/v2/orgs/:id: renames an organisation; lists showing its name refresh.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API, type OrgUpdateBody } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { orgTreeQueryOptions } from '../../../api/org-tree.ts';
import { ROLES_LIST_KEY } from './roles.ts';
import { USERS_LIST_KEY } from './users.ts';

export function updateOrg({ id, ...body }: OrgUpdateBody & { id: string }): Promise<unknown> {
  return request(`${PLATFORM_API.orgs}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true });
}

export function useUpdateOrg() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateOrg,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: orgTreeQueryOptions().queryKey }),
        client.invalidateQueries({ queryKey: USERS_LIST_KEY }),
        client.invalidateQueries({ queryKey: ROLES_LIST_KEY }),
      ]),
  });
}

// PUT /api/iot/v2/roles/:id: names and grants of a role, replaced as a whole.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API, type RoleUpdateBody } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { ROLE_DETAIL_KEY } from './role-detail.ts';
import { ROLES_LIST_KEY } from './roles.ts';
import { USERS_LIST_KEY } from './users.ts';

export function updateRole({ id, ...body }: RoleUpdateBody & { id: string }): Promise<unknown> {
  return request(`${PLATFORM_API.roles}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true });
}

export function useUpdateRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateRole,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ROLES_LIST_KEY }),
        client.invalidateQueries({ queryKey: ROLE_DETAIL_KEY }),
        // Users lists show role names.
        client.invalidateQueries({ queryKey: USERS_LIST_KEY }),
      ]),
  });
}

// PUT /api/iot/v2/users/:id/roles: the roles a user holds, replaced as a whole.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API, type UserRolesBody } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { ROLES_LIST_KEY } from './roles.ts';
import { USERS_LIST_KEY } from './users.ts';

export function setUserRoles({ id, ...body }: UserRolesBody & { id: string }): Promise<unknown> {
  return request(`${PLATFORM_API.users}/${encodeURIComponent(id)}/roles`, { method: 'PUT', body, silent: true });
}

export function useSetUserRoles() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setUserRoles,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: USERS_LIST_KEY }),
        client.invalidateQueries({ queryKey: ROLES_LIST_KEY }),
      ]),
  });
}

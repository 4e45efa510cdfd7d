// PUT /api/iot/v2/users/:id: name, e-mail and mobile of a user.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API, type UserUpdateBody } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { USERS_LIST_KEY } from './users.ts';

export function updateUser({ id, ...body }: UserUpdateBody & { id: string }): Promise<unknown> {
  return request(`${PLATFORM_API.users}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true });
}

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => client.invalidateQueries({ queryKey: USERS_LIST_KEY }),
  });
}

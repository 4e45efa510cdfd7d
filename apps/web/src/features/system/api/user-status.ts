// POST /api/iot/v2/users/:id/deactivate and /activate (409 NOT_YOURSELF for the caller's own account).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import type { StatusChange } from './org-status.ts';
import { USERS_LIST_KEY } from './users.ts';

export function changeUserStatus({ id, change }: { id: string; change: StatusChange }): Promise<unknown> {
  return request(`${PLATFORM_API.users}/${encodeURIComponent(id)}/${change}`, { method: 'POST', silent: true });
}

export function useChangeUserStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeUserStatus,
    onSuccess: () => client.invalidateQueries({ queryKey: USERS_LIST_KEY }),
  });
}

// DELETE /api/iot/v2/roles/:id (409 ROLE_IN_USE while users hold it).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { ROLES_LIST_KEY } from './roles.ts';

export function deleteRole(id: string): Promise<unknown> {
  return request(`${PLATFORM_API.roles}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteRole,
    onSuccess: () => client.invalidateQueries({ queryKey: ROLES_LIST_KEY }),
  });
}

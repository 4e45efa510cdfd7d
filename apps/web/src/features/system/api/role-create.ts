// POST /api/iot/v2/roles: a role of an organisation with its actions and menu items
// (409 ROLE_CODE_TAKEN when the organisation already has the code).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API, type RoleCreateBody, type RoleRow } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { ROLES_LIST_KEY } from './roles.ts';

export function createRole(body: RoleCreateBody): Promise<RoleRow> {
  return request<RoleRow>(PLATFORM_API.roles, { method: 'POST', body, silent: true });
}

export function useCreateRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: () => client.invalidateQueries({ queryKey: ROLES_LIST_KEY }),
  });
}

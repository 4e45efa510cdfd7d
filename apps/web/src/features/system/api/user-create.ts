// POST /api/iot/v2/users: a new user; the answer carries the initial password, shown once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API, type InitialPasswordData, type UserCreateBody } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { orgTreeQueryOptions } from '../../../api/org-tree.ts';
import { ROLES_LIST_KEY } from './roles.ts';
import { USERS_LIST_KEY } from './users.ts';

export function createUser(body: UserCreateBody): Promise<InitialPasswordData> {
  return request<InitialPasswordData>(PLATFORM_API.users, { method: 'POST', body, silent: true });
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    // User counts of the organisation tree and of the roles change too.
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: USERS_LIST_KEY }),
        client.invalidateQueries({ queryKey: orgTreeQueryOptions().queryKey }),
        client.invalidateQueries({ queryKey: ROLES_LIST_KEY }),
      ]),
  });
}

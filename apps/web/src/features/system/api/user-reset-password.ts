// POST /api/iot/v2/users/:id/reset-password: a new initial password, shown once; the user must
// change it at the next sign-in.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API, type InitialPasswordData } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { USERS_LIST_KEY } from './users.ts';

export function resetUserPassword(id: string): Promise<InitialPasswordData> {
  return request<InitialPasswordData>(`${PLATFORM_API.users}/${encodeURIComponent(id)}/reset-password`, {
    method: 'POST',
    silent: true,
  });
}

export function useResetUserPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resetUserPassword,
    // The must-change flag of the row is set again.
    onSuccess: () => client.invalidateQueries({ queryKey: USERS_LIST_KEY }),
  });
}

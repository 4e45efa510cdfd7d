// POST /iot-cloud-auth/user/v1/resetPassword: the spec's 'update password' (change password with
// captcha). Works with or without a token: a new user may change the initial password first.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@iotc/shared/auth';
import { API } from '@iotc/shared/auth-api';
import { getToken, getUserinfo, setUserinfo } from '../lib/session.ts';
import { request } from './client.ts';
import { infoQueryOptions } from './info.ts';

export function resetPassword(body: ChangePasswordBody): Promise<null> {
  // The form shows the server's refusal inline, so the client's notification stays quiet.
  return request<null>(API.resetPassword, { method: 'POST', body, silent: true });
}

export function useResetPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'resetPassword'],
    mutationFn: resetPassword,
    onSuccess: (_data, body) => {
      // This session stays valid; the stored user no longer has to change the initial password.
      const user = getUserinfo();
      if (getToken() && user?.account === body.account) setUserinfo({ ...user, mustChangePassword: false });
      void client.invalidateQueries({ queryKey: infoQueryOptions().queryKey });
    },
  });
}

// GET /iot-cloud-auth/auth/v1/logout: revokes the current token on the server.
import { useMutation } from '@tanstack/react-query';
import { API } from '@iotc/shared/auth-api';
import { request } from './client.ts';

/** Revokes `token` (the one the browser has just forgotten), or else the stored one. */
export function logout(token?: string): Promise<null> {
  // Logging out must work even when the token has already expired: no dialog, no notification.
  return request<null>(API.logout, { silent: true, noAuthDialog: true, token });
}

export function useLogout() {
  return useMutation({ mutationKey: ['auth', 'logout'], mutationFn: (token?: string) => logout(token) });
}

// POST /iot-cloud-auth/auth/v1/login: exchanges account and password for a token.
import { useMutation } from '@tanstack/react-query';
import type { LoginBody, LoginData } from '@iotc/shared/auth';
import { API } from '@iotc/shared/auth-api';
import { request } from './client.ts';

export function login(body: LoginBody): Promise<LoginData> {
  // The login form shows its own inline error, so the client's notification stays quiet.
  return request<LoginData>(API.login, { method: 'POST', body, silent: true, noAuthDialog: true });
}

export function useLogin() {
  return useMutation({ mutationKey: ['auth', 'login'], mutationFn: login });
}

// POST /api/iot/v2/registrations: a new account together with its own new organisation.
import { useMutation } from '@tanstack/react-query';
import type { RegisterBody, RegisterData } from '@iotc/shared/account';
import { ACCOUNT_API } from '@iotc/shared/account-api';
import { request } from '../../../api/client.ts';

export function register(body: RegisterBody): Promise<RegisterData> {
  // The form shows the server's refusal inline, so the client's notification stays quiet.
  return request<RegisterData>(ACCOUNT_API.register, { method: 'POST', body, silent: true, noAuthDialog: true });
}

export function useRegister() {
  return useMutation({ mutationKey: ['auth', 'register'], mutationFn: register });
}

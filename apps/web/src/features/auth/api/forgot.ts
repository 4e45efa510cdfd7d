// POST /iot-cloud-auth/auth/v1/forgot: the new password of a retrieval, authorised by the
// ticket of mailVerify.
import { useMutation } from '@tanstack/react-query';
import type { ForgotBody } from '@iotc/shared/account';
import { ACCOUNT_API } from '@iotc/shared/account-api';
import { request } from '../../../api/client.ts';

export function forgot(body: ForgotBody): Promise<null> {
  return request<null>(ACCOUNT_API.forgot, { method: 'POST', body, silent: true, noAuthDialog: true });
}

export function useForgot() {
  return useMutation({ mutationKey: ['auth', 'forgot'], mutationFn: forgot });
}

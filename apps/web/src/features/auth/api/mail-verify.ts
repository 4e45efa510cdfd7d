// POST /iot-cloud-auth/auth/v1/mailVerify: checks the retrieval code; a right one yields the
// short-lived ticket that authorises setting the new password.
import { useMutation } from '@tanstack/react-query';
import type { VerifyCodeBody, VerifyCodeData } from '@iotc/shared/account';
import { ACCOUNT_API } from '@iotc/shared/account-api';
import { request } from '../../../api/client.ts';

export function verifyCode(body: VerifyCodeBody): Promise<VerifyCodeData> {
  return request<VerifyCodeData>(ACCOUNT_API.mailVerify, { method: 'POST', body, silent: true, noAuthDialog: true });
}

export function useVerifyCode() {
  return useMutation({ mutationKey: ['auth', 'mailVerify'], mutationFn: verifyCode });
}

// POST /iot-cloud-auth/auth/v1/sendMail: sends a four-digit retrieval code by e-mail or SMS.
import { useMutation } from '@tanstack/react-query';
import type { SendCodeBody, SendCodeData } from '@iotc/shared/account';
import { ACCOUNT_API } from '@iotc/shared/account-api';
import { request } from '../../../api/client.ts';

export function sendCode(body: SendCodeBody): Promise<SendCodeData> {
  return request<SendCodeData>(ACCOUNT_API.sendMail, { method: 'POST', body, silent: true, noAuthDialog: true });
}

export function useSendCode() {
  return useMutation({ mutationKey: ['auth', 'sendMail'], mutationFn: sendCode });
}

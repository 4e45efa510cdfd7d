// POST /iot-cloud-auth/auth/v1/sysUserModel: first step of password retrieval; which
// verification channels an account has, with the addresses masked.
import { useMutation } from '@tanstack/react-query';
import type { UserModelData } from '@iotc/shared/account';
import { ACCOUNT_API } from '@iotc/shared/account-api';
import { request } from '../../../api/client.ts';

export function fetchUserModel(account: string): Promise<UserModelData> {
  // The retrieval steps show refusals inline, so the client's notification stays quiet.
  return request<UserModelData>(ACCOUNT_API.sysUserModel, {
    method: 'POST',
    body: { account },
    silent: true,
    noAuthDialog: true,
  });
}

export function useUserModel() {
  return useMutation({ mutationKey: ['auth', 'sysUserModel'], mutationFn: fetchUserModel });
}

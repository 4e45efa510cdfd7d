// GET /api/iot/v2/sso/auth/bindUser: binds the pending external sign-in (`openid`) to an
// existing account and signs in with it. The spec defines it as a GET with a query, password
// included; the client builds the query with URLSearchParams.
import { useMutation } from '@tanstack/react-query';
import type { BindUserQuery } from '@iotc/shared/account';
import { ACCOUNT_API } from '@iotc/shared/account-api';
import type { LoginData } from '@iotc/shared/auth';
import { request } from '../../../api/client.ts';

export function bindUser(query: BindUserQuery): Promise<LoginData> {
  return request<LoginData>(ACCOUNT_API.bindUser, { query: { ...query }, silent: true, noAuthDialog: true });
}

export function useBindUser() {
  return useMutation({ mutationKey: ['auth', 'bindUser'], mutationFn: bindUser });
}

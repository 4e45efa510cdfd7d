// GET /api/iot/v2/sso/config: whether external sign-in is offered, and by which provider (the
// login screen, and the signature dialog's re-authentication); POST /api/iot/v2/sso/reauth: where
// to open the provider's sign-in again to sign a record.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SsoConfig, SsoReauthStart } from '@iotc/shared/account';
import { ACCOUNT_API } from '@iotc/shared/account-api';
import { request } from './client.ts';

export function fetchSsoConfig(signal?: AbortSignal): Promise<SsoConfig> {
  // Without an answer no external sign-in is offered: nothing to report.
  return request<SsoConfig>(ACCOUNT_API.ssoConfig, { signal, silent: true, noAuthDialog: true });
}

export const ssoConfigQueryOptions = queryOptions({
  queryKey: ['auth', 'ssoConfig'],
  queryFn: ({ signal }) => fetchSsoConfig(signal),
  // Server configuration: read once per page load.
  staleTime: Infinity,
  retry: false,
});

export function useSsoConfig(enabled = true) {
  return useQuery({ ...ssoConfigQueryOptions, enabled });
}

/** The provider's address for the signed-in user's sign-in again (409 SSO_NOT_BOUND without a bound identity). */
export function startSsoReauth(): Promise<SsoReauthStart> {
  return request<SsoReauthStart>(ACCOUNT_API.ssoReauth, { method: 'POST', silent: true });
}

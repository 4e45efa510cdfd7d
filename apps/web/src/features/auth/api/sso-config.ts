// GET /api/iot/v2/sso/config: whether the login screen offers external sign-in, and where it starts.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SsoConfig } from '@iotc/shared/account';
import { ACCOUNT_API } from '@iotc/shared/account-api';
import { request } from '../../../api/client.ts';

export function fetchSsoConfig(signal?: AbortSignal): Promise<SsoConfig> {
  // Without an answer the login screen simply offers no external sign-in: nothing to report.
  return request<SsoConfig>(ACCOUNT_API.ssoConfig, { signal, silent: true, noAuthDialog: true });
}

export const ssoConfigQueryOptions = queryOptions({
  queryKey: ['auth', 'ssoConfig'],
  queryFn: ({ signal }) => fetchSsoConfig(signal),
  // Server configuration: read once per page load.
  staleTime: Infinity,
  retry: false,
});

export function useSsoConfig() {
  return useQuery(ssoConfigQueryOptions);
}

// POST /api/iot/v2/captchas: a new single-use picture captcha for the change-password form.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Captcha } from '@iotc/shared/auth';
import { API } from '@iotc/shared/auth-api';
import { request } from './client.ts';

/** Ask for the next captcha this long before the server lets the current one expire. */
const EXPIRY_MARGIN_MS = 5_000;

export function fetchCaptcha(signal?: AbortSignal): Promise<Captcha> {
  return request<Captcha>(API.captchas, { method: 'POST', body: {}, signal, noAuthDialog: true });
}

export function captchaQueryOptions() {
  return queryOptions<Captcha, Error, Captcha, readonly ['auth', 'captcha']>({
    queryKey: ['auth', 'captcha'],
    queryFn: ({ signal }) => fetchCaptcha(signal),
    // Every fetch creates a captcha on the server: only the form asks for one (refresh, after a
    // failure, before expiry), never a remount or a focus change, and none is kept once it is gone.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchInterval: (query) => {
      const expiresAt = Date.parse(query.state.data?.expiresAt ?? '');
      return Number.isFinite(expiresAt) ? Math.max(expiresAt - Date.now() - EXPIRY_MARGIN_MS, 1_000) : false;
    },
  });
}

export function useCaptcha() {
  return useQuery(captchaQueryOptions());
}

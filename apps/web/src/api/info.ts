// POST /iot-cloud-auth/auth/v1/info: the signed-in user, kept in session storage as `userinfo`.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@iotc/shared/auth';
import { API } from '@iotc/shared/auth-api';
import { errorText } from '@iotc/shared/errors';
import { currentLang } from '../lib/language.ts';
import { getUserinfo, setUserinfo } from '../lib/session.ts';
import { request } from './client.ts';

export async function fetchInfo(signal?: AbortSignal): Promise<UserInfo> {
  const user = await request<UserInfo>(API.info, {
    method: 'POST',
    body: {},
    signal,
    errormsgAsMessage: true,
    // The spec's own text for this call's failure (section 8), not the generic server error.
    failureTitle: () => errorText('USER_INFO_FAILED', currentLang()),
  });
  setUserinfo(user);
  return user;
}

export function infoQueryOptions() {
  return queryOptions<UserInfo, Error, UserInfo, readonly ['auth', 'info']>({
    queryKey: ['auth', 'info'],
    queryFn: ({ signal }) => fetchInfo(signal),
    // The copy saved at login shows at once; the call refreshes it.
    placeholderData: () => getUserinfo(),
  });
}

export function useInfo() {
  return useQuery(infoQueryOptions());
}

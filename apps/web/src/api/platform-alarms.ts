// GET /api/iot/v2/platform/alarms: the platform's own alarms (a database that cannot write, ...),
// for platform administrators only; asked every 15 s while the console is open.
import { useQuery } from '@tanstack/react-query';
import { PLATFORM_ALARMS_API, PLATFORM_ALARMS_REFRESH_MS, type PlatformAlarm } from '@iotc/shared/platform-alarms';
import { request } from './client.ts';

export const PLATFORM_ALARMS_KEY = ['platform', 'alarms'] as const;

export function usePlatformAlarms(enabled: boolean) {
  return useQuery({
    queryKey: PLATFORM_ALARMS_KEY,
    queryFn: ({ signal }) => request<PlatformAlarm[]>(PLATFORM_ALARMS_API.list, { signal }),
    enabled,
    refetchInterval: PLATFORM_ALARMS_REFRESH_MS,
    refetchIntervalInBackground: true,
  });
}

// GET /api/iot/v2/alarms/stats: alarm counts by type, by level and per time bucket and level,
// for the same filters as the list (buckets in the browser's time zone, sent as Timezone).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ALARM_API, type AlarmStats, type AlarmStatsQuery } from '@iotc/shared/alarm';
import { request } from '../../../api/client.ts';
import { ALARM_KEY } from '../../../api/alarm-acknowledge.ts';
import type { FilterValues } from '../../../lib/list-query.ts';

export type StatsBucket = AlarmStatsQuery['bucket'];

/** Windows up to this long are counted per hour, longer ones per day. */
export const HOURLY_MAX_MS = 2 * 86_400_000;

export function statsBucket(from: string | undefined, to: string | undefined): StatsBucket {
  const a = from ? Date.parse(from) : NaN;
  const b = to ? Date.parse(to) : NaN;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return 'day';
  return b - a <= HOURLY_MAX_MS ? 'hour' : 'day';
}

export function alarmStatsQueryOptions(filters: FilterValues, bucket: StatsBucket) {
  const query = { ...filters, bucket };
  return queryOptions({
    queryKey: [...ALARM_KEY, 'stats', query] as const,
    queryFn: ({ signal }) => request<AlarmStats>(`${ALARM_API.alarms}/stats`, { query, signal }),
    // The charts keep the last counts while new filters load, instead of blinking empty.
    placeholderData: keepPreviousData,
  });
}

export function useAlarmStats(filters: FilterValues, bucket: StatsBucket, enabled = true) {
  return useQuery({ ...alarmStatsQueryOptions(filters, bucket), enabled });
}

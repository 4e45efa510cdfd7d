// GET /api/iot/v2/transport-tasks/monitor: tasks in transit or arrived (abnormal first) with where
// they are now. The screen reads it again when the live channel reports a task change or a report
// of a device it shows; every MONITOR_REFRESH_MS too, for what no event announces (a task turning
// late as the clock passes its planned arrival, an alarm of a task).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { TRANSPORT_API, type TaskDetail } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';

export const MONITOR_REFRESH_MS = 60_000;
/** Live events re-read the tasks at most this often. */
export const MONITOR_LIVE_MIN_MS = 2000;

export interface MonitorFilter {
  abnormal: boolean;
  keyword: string;
}

export function monitorQuery(f: MonitorFilter) {
  return { abnormal: f.abnormal ? 'true' : undefined, keyword: f.keyword.trim() || undefined };
}

export function monitorQueryOptions(f: MonitorFilter) {
  const query = monitorQuery(f);
  return queryOptions({
    queryKey: ['transport-monitor', query] as const,
    queryFn: ({ signal }) => request<TaskDetail[]>(TRANSPORT_API.monitor, { query, signal }),
  });
}

export function useMonitor(f: MonitorFilter) {
  return useQuery({ ...monitorQueryOptions(f), refetchInterval: MONITOR_REFRESH_MS, placeholderData: keepPreviousData });
}

// GET /api/iot/v2/transport-tasks/monitor: tasks in transit or arrived (abnormal first) with where
// they are now; read again every MONITOR_REFRESH_MS while the screen is open.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { TRANSPORT_API, type TaskDetail } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';

export const MONITOR_REFRESH_MS = 15_000;

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

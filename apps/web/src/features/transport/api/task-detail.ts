// GET /api/iot/v2/transport-tasks/:id: one task with where it is now (live), for the drawer; read
// again every 30 s while it is open, since a task in transit moves.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TRANSPORT_API, type TaskDetail } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { TASK_KEY } from './tasks.ts';

export const LIVE_REFRESH_MS = 30_000;

export const taskPath = (id: string) => `${TRANSPORT_API.tasks}/${encodeURIComponent(id)}`;

export function taskQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...TASK_KEY, id] as const,
    queryFn: ({ signal }) => request<TaskDetail>(taskPath(id), { signal }),
  });
}

export function useTask(id: string | null) {
  return useQuery({
    ...taskQueryOptions(id ?? ''),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.status === 'in_transit' ? LIVE_REFRESH_MS : false),
  });
}

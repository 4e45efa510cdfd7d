// GET /api/iot/v2/transport-tasks/:id: one task with where it is now (live), for the drawer; read
// again (with its story) when the live channel reports a change of the task or, while it is in
// transit, a report of one of its devices (subscribed to those devices only).
import { useMemo } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { TRANSPORT_API, type TaskDetail } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { useLiveRefresh } from '../../../lib/live.ts';
import { TASK_KEY } from './tasks.ts';

/** Reports of a task's devices re-read it at most this often. */
export const LIVE_REFRESH_MS = 5000;

export const taskPath = (id: string) => `${TRANSPORT_API.tasks}/${encodeURIComponent(id)}`;

export function taskQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...TASK_KEY, id] as const,
    queryFn: ({ signal }) => request<TaskDetail>(taskPath(id), { signal }),
  });
}

export function useTask(id: string | null) {
  const query = useQuery({ ...taskQueryOptions(id ?? ''), enabled: !!id });
  const queryClient = useQueryClient();
  const task = query.data;
  const devices = useMemo(() => (task?.status === 'in_transit' ? task.devices.map((d) => d.id) : undefined), [task]);
  useLiveRefresh(() => void queryClient.invalidateQueries({ queryKey: [...TASK_KEY, id] }), { tasks: id ?? undefined, devices, minMs: LIVE_REFRESH_MS });
  return query;
}

// GET /api/iot/v2/transport-tasks/:id/events: the story of one task, oldest first (created,
// updated, status_changed, started, arrived, copied, handover); only ever appended to.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TaskEventRow } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { taskPath } from './task-detail.ts';
import { TASK_KEY } from './tasks.ts';

export function taskEventsQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...TASK_KEY, id, 'events'] as const,
    queryFn: ({ signal }) => request<TaskEventRow[]>(`${taskPath(id)}/events`, { signal }),
  });
}

export function useTaskEvents(id: string | null) {
  return useQuery({ ...taskEventsQueryOptions(id ?? ''), enabled: !!id });
}

// POST /api/iot/v2/transport-tasks/:id/transition { to, note }: moves a task by hand to a status
// its current one allows (TASK_TRANSITIONS; cancelling needs a reason).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TaskDetail, TaskTransition } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { taskPath } from './task-detail.ts';
import { invalidateTasks } from './tasks.ts';

export function transitionTask({ id, ...body }: TaskTransition & { id: string }): Promise<TaskDetail> {
  return request<TaskDetail>(`${taskPath(id)}/transition`, { method: 'POST', body, silent: true });
}

export function useTransitionTask() {
  const client = useQueryClient();
  return useMutation({ mutationFn: transitionTask, onSuccess: () => invalidateTasks(client) });
}

// PUT /api/iot/v2/transport-tasks/:id: every field of a task not yet completed or cancelled; its
// status moves through transitions. The form shows a refusal itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TaskBody, TaskDetail } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { taskPath } from './task-detail.ts';
import { invalidateTasks } from './tasks.ts';

export function updateTask({ id, body }: { id: string; body: TaskBody }): Promise<TaskDetail> {
  return request<TaskDetail>(taskPath(id), { method: 'PUT', body, silent: true });
}

export function useUpdateTask() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateTask, onSuccess: () => invalidateTasks(client) });
}

// POST /api/iot/v2/transport-tasks/:id/copy: a new pending task with the same goods, places,
// devices and settings (times and progress not copied).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TaskDetail } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { taskPath } from './task-detail.ts';
import { invalidateTasks } from './tasks.ts';

export function copyTask(id: string): Promise<TaskDetail> {
  return request<TaskDetail>(`${taskPath(id)}/copy`, { method: 'POST', silent: true });
}

export function useCopyTask() {
  const client = useQueryClient();
  return useMutation({ mutationFn: copyTask, onSuccess: () => invalidateTasks(client) });
}

// POST /api/iot/v2/transport-tasks/:id/handover: the goods changed hands while the task is in
// transit or arrived (from, to, when, where, seals, temperature, signed, note); written into the
// task's story, so the task and its story are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TaskDetail, TaskHandoverInput } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { taskPath } from './task-detail.ts';
import { invalidateTasks } from './tasks.ts';

export function handoverTask({ id, ...body }: TaskHandoverInput & { id: string }): Promise<TaskDetail> {
  return request<TaskDetail>(`${taskPath(id)}/handover`, { method: 'POST', body, silent: true });
}

export function useHandoverTask() {
  const client = useQueryClient();
  return useMutation({ mutationFn: handoverTask, onSuccess: () => invalidateTasks(client) });
}

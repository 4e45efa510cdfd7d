// POST /api/iot/v2/transport-tasks: a new task (transport:write); the form shows a refusal itself
// (silent), on its field where it names one.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TRANSPORT_API, type TaskBody, type TaskDetail } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { invalidateTasks } from './tasks.ts';

export function createTask(body: TaskBody): Promise<TaskDetail> {
  return request<TaskDetail>(TRANSPORT_API.tasks, { method: 'POST', body, silent: true });
}

export function useCreateTask() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createTask, onSuccess: () => invalidateTasks(client) });
}

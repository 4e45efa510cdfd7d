// The batches a task carries (issue 27 item 3): read for the edit form, written after the task is
// saved. A batch number new to the task's organisation is made there (without a profile: the
// batch screens set it); a known one keeps its profile.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PRODUCT_API, type TaskBatch } from '@iotc/shared/product';
import { request } from '../../../api/client.ts';

export const taskBatchesKey = (taskId: string | null) => ['task-batches', taskId] as const;

export function useTaskBatches(taskId: string | null) {
  return useQuery({
    queryKey: taskBatchesKey(taskId),
    queryFn: ({ signal }) => request<TaskBatch[]>(PRODUCT_API.taskBatches(encodeURIComponent(taskId!)), { signal, silent: true }),
    enabled: !!taskId,
  });
}

export function useSetTaskBatches() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, batchNos, goodsName }: { taskId: string; batchNos: string[]; goodsName: string }) =>
      request<TaskBatch[]>(PRODUCT_API.taskBatches(encodeURIComponent(taskId)), { method: 'PUT', body: { batches: batchNos.map((batchNo) => ({ batchNo, goodsName })) }, silent: true }),
    onSuccess: (_data, v) => Promise.all([client.invalidateQueries({ queryKey: taskBatchesKey(v.taskId) }), client.invalidateQueries({ queryKey: ['list', PRODUCT_API.batches] })]),
  });
}

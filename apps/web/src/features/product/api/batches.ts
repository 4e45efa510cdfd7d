// Batches' calls: one page with the budgets, one batch with its periods, save, delete, and adding
// a batch to a transport task (the task's batch list read, the batch added, written back).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { PRODUCT_API, type BatchBody, type BatchDetail, type BatchRow, type TaskBatch } from '@iotc/shared/product';
import { request } from '../../../api/client.ts';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

export const BATCH_LISTS_KEY = ['list', PRODUCT_API.batches] as const;
const batchPath = (id: string) => `${PRODUCT_API.batches}/${encodeURIComponent(id)}`;
const invalidate = (client: QueryClient) => Promise.all([client.invalidateQueries({ queryKey: BATCH_LISTS_KEY }), client.invalidateQueries({ queryKey: ['batch'] })]);

export function useBatches(state: ListState) {
  return useQuery(listQueryOptions<BatchRow>(PRODUCT_API.batches, state));
}

export function useBatch(id: string | null) {
  return useQuery({ queryKey: ['batch', id], queryFn: ({ signal }) => request<BatchDetail>(batchPath(id!), { signal }), enabled: !!id });
}

export function useSaveBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: BatchBody }) =>
      id ? request<BatchDetail>(batchPath(id), { method: 'PUT', body, silent: true }) : request<BatchDetail>(PRODUCT_API.batches, { method: 'POST', body, silent: true }),
    onSuccess: () => invalidate(client),
  });
}

export function useDeleteBatch() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: string) => request(batchPath(id), { method: 'DELETE', silent: true }), onSuccess: () => invalidate(client) });
}

export interface AddToTask {
  taskId: string;
  batchNo: string;
  goodsName: string;
  profileId: string | null;
}

/** Adds the batch to the task's batches (kept as they are). */
export function useAddToTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (a: AddToTask) => {
      const path = PRODUCT_API.taskBatches(encodeURIComponent(a.taskId));
      const current = await request<TaskBatch[]>(path, { silent: true });
      const batches = [...current.filter((b) => b.batchNo !== a.batchNo).map((b) => ({ batchNo: b.batchNo })), { batchNo: a.batchNo, goodsName: a.goodsName, profileId: a.profileId }];
      return request<TaskBatch[]>(path, { method: 'PUT', body: { batches }, silent: true });
    },
    onSuccess: () => invalidate(client),
  });
}

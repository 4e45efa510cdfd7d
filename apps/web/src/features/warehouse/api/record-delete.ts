// DELETE /api/iot/v2/warehouse-records/:id: a pending record only.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WAREHOUSE_API } from '@iotc/shared/warehouse';
import { request } from '../../../api/client.ts';
import { invalidateWarehouse } from './records.ts';

export function deleteRecord(id: string): Promise<null> {
  return request<null>(WAREHOUSE_API.record(id), { method: 'DELETE', silent: true });
}

export function useDeleteRecord() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteRecord, onSuccess: () => invalidateWarehouse(client) });
}

// POST /api/iot/v2/warehouse-records and PUT /:id: enter a record or change a pending one (the
// server reads the temperature at hand-over again for the place and time).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WAREHOUSE_API, type RecordInput, type RecordRow } from '@iotc/shared/warehouse';
import { request } from '../../../api/client.ts';
import { invalidateWarehouse } from './records.ts';

export function saveRecord({ id, body }: { id?: string; body: RecordInput }): Promise<RecordRow> {
  return id
    ? request<RecordRow>(WAREHOUSE_API.record(id), { method: 'PUT', body, silent: true })
    : request<RecordRow>(WAREHOUSE_API.records, { method: 'POST', body, silent: true });
}

export function useSaveRecord() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveRecord, onSuccess: () => invalidateWarehouse(client) });
}

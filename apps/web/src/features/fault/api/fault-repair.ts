// POST /api/iot/v2/faults/:id/repairs { action, result, note }: a repair record (fault:handle).
// `in_progress` keeps the fault repairing, any other result resolves it; the answer is the fault
// with its records, which replaces the drawer's. The form shows a refusal itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FaultDetail, RepairBody } from '@iotc/shared/fault';
import { request } from '../../../api/client.ts';
import { faultPath, faultQueryOptions } from './fault-detail.ts';
import { FAULT_LISTS_KEY, FAULT_KEY } from './faults.ts';

export function recordRepair({ id, body }: { id: string; body: RepairBody }): Promise<FaultDetail> {
  return request<FaultDetail>(`${faultPath(id)}/repairs`, { method: 'POST', body, silent: true });
}

export function useRecordRepair() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: recordRepair,
    onSuccess: (detail, { id }) => {
      client.setQueryData(faultQueryOptions(id).queryKey, detail);
      // The lists and the counters; the fault itself is fresh already.
      return Promise.all([
        client.invalidateQueries({ queryKey: FAULT_LISTS_KEY }),
        client.invalidateQueries({ queryKey: [...FAULT_KEY, 'stats'] }),
      ]);
    },
  });
}

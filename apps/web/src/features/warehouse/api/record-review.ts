// POST /api/iot/v2/warehouse-records/:id/approve | reject { reason }: the review of a pending
// record (warehouse:audit, not one's own; rejecting needs a reason; an outbound needs the stock).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WAREHOUSE_API, type RecordRow } from '@iotc/shared/warehouse';
import { request } from '../../../api/client.ts';
import { invalidateWarehouse } from './records.ts';

export type ReviewDecision = 'approve' | 'reject';

export function reviewRecord({ id, decision, reason }: { id: string; decision: ReviewDecision; reason: string }): Promise<RecordRow> {
  const path = decision === 'approve' ? WAREHOUSE_API.approve(id) : WAREHOUSE_API.reject(id);
  return request<RecordRow>(path, { method: 'POST', body: { reason }, silent: true });
}

export function useReviewRecord() {
  const client = useQueryClient();
  return useMutation({ mutationFn: reviewRecord, onSuccess: () => invalidateWarehouse(client) });
}

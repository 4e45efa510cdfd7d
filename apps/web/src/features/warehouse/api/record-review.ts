// POST /api/iot/v2/warehouse-records/:id/approve | reject { reason, password | ssoProof, meaning }: the
// signed review of a pending record (warehouse:audit, not one's own; rejecting needs a reason;
// an outbound needs the stock; the reviewer's password again).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignatureMeaning, SignatureProof } from '@iotc/shared/signature';
import { WAREHOUSE_API, type RecordRow } from '@iotc/shared/warehouse';
import { request } from '../../../api/client.ts';
import { invalidateSignatures } from '../../../api/signatures.ts';
import { invalidateWarehouse } from './records.ts';

export type ReviewDecision = 'approve' | 'reject';

export function reviewRecord({ id, decision, reason, proof, meaning }: { id: string; decision: ReviewDecision; reason: string; proof: SignatureProof; meaning: SignatureMeaning }): Promise<RecordRow> {
  const path = decision === 'approve' ? WAREHOUSE_API.approve(id) : WAREHOUSE_API.reject(id);
  return request<RecordRow>(path, { method: 'POST', body: { reason, ...proof, meaning }, silent: true });
}

export function useReviewRecord() {
  const client = useQueryClient();
  return useMutation({ mutationFn: reviewRecord, onSuccess: () => Promise.all([invalidateWarehouse(client), invalidateSignatures(client)]) });
}

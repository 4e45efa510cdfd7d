// POST /api/iot/v2/legal-holds: places a legal hold; the holds list refreshes.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RETENTION_API, type LegalHoldBody } from '@iotc/shared/retention';
import { request } from '../../../api/client.ts';
import { LEGAL_HOLDS_KEY } from './legal-holds.ts';

export function placeLegalHold(body: LegalHoldBody): Promise<{ id: string }> {
  return request<{ id: string }>(RETENTION_API.holds, { method: 'POST', body, silent: true });
}

export function usePlaceLegalHold() {
  const client = useQueryClient();
  return useMutation({ mutationFn: placeLegalHold, onSuccess: () => client.invalidateQueries({ queryKey: LEGAL_HOLDS_KEY }) });
}

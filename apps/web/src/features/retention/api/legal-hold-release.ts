// POST /api/iot/v2/legal-holds/:id/release: releases a legal hold; the holds list refreshes.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RETENTION_API } from '@iotc/shared/retention';
import { request } from '../../../api/client.ts';
import { LEGAL_HOLDS_KEY } from './legal-holds.ts';

export function releaseLegalHold(id: string): Promise<unknown> {
  return request(`${RETENTION_API.holds}/${encodeURIComponent(id)}/release`, { method: 'POST', silent: true });
}

export function useReleaseLegalHold() {
  const client = useQueryClient();
  return useMutation({ mutationFn: releaseLegalHold, onSuccess: () => client.invalidateQueries({ queryKey: LEGAL_HOLDS_KEY }) });
}

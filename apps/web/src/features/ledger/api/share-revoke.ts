// POST LEDGER_API.revoke(id): the link stops working at once (its page says it was revoked).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LEDGER_API, type ShareRow } from '@iotc/shared/ledger/api';
import { request } from '../../../api/client.ts';
import { invalidateShares } from './share-list.ts';

export function revokeShare(id: string): Promise<ShareRow> {
  // Silent: the confirmation that asked for it reports a refusal itself.
  return request<ShareRow>(LEDGER_API.revoke(encodeURIComponent(id)), { method: 'POST', silent: true });
}

export function useRevokeShare() {
  const client = useQueryClient();
  return useMutation({ mutationFn: revokeShare, onSuccess: () => invalidateShares(client) });
}

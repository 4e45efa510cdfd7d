// POST LEDGER_API.shares: a public link to the records of one scope (a task, a device range, a
// warehouse batch or one warehouse record), ending at the expiry the maker chose.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LEDGER_API, type ShareAnswer, type ShareBody } from '@iotc/shared/ledger/api';
import { request } from '../../../api/client.ts';
import { invalidateShares } from './share-list.ts';

export function createShare(body: ShareBody): Promise<ShareAnswer> {
  return request<ShareAnswer>(LEDGER_API.shares, { method: 'POST', body });
}

export function useCreateShare() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createShare, onSuccess: () => invalidateShares(client) });
}

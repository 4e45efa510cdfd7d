// POST LEDGER_API.shares: a public link to one task's or one device range's records (warehouse
// records are not shared on their own: the server's share takes a task or a device range).
import { useMutation } from '@tanstack/react-query';
import { LEDGER_API, type ShareAnswer, type ShareBody } from '@iotc/shared/ledger/api';
import { request } from '../../../api/client.ts';

export function createShare(body: ShareBody): Promise<ShareAnswer> {
  return request<ShareAnswer>(LEDGER_API.shares, { method: 'POST', body });
}

export function useCreateShare() {
  return useMutation({ mutationFn: createShare });
}

// POST LEDGER_API.shares: a public link to the records of one scope (a task, a device range, a
// warehouse batch or one warehouse record).
import { useMutation } from '@tanstack/react-query';
import { LEDGER_API, type ShareAnswer, type ShareBody } from '@iotc/shared/ledger/api';
import { request } from '../../../api/client.ts';

export function createShare(body: ShareBody): Promise<ShareAnswer> {
  return request<ShareAnswer>(LEDGER_API.shares, { method: 'POST', body });
}

export function useCreateShare() {
  return useMutation({ mutationFn: createShare });
}

// GET /api/iot/v2/transport-tasks/:id/signatures: the electronic signatures of a task's GSP record
// and shipment report, each with whether the task still matches what was signed; POST { document,
// meaning, password }: sign one of them as reviewed or responsible (transport:write; the reviewer
// is never the person responsible).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SIGNATURE_API, type SignatureRow, type TaskSignBody } from '@iotc/shared/signature';
import { request } from '../../../api/client.ts';
import { invalidateSignatures } from '../../../api/signatures.ts';

const taskSignaturesQuery = (taskId: string) =>
  queryOptions({
    queryKey: ['signatures', 'task', taskId] as const,
    queryFn: ({ signal }) => request<SignatureRow[]>(SIGNATURE_API.taskSignatures(taskId), { signal }),
  });

export function useTaskSignatures(taskId: string | null) {
  return useQuery({ ...taskSignaturesQuery(taskId ?? ''), enabled: !!taskId });
}

export function signTaskDocument({ taskId, ...body }: TaskSignBody & { taskId: string }): Promise<SignatureRow> {
  return request<SignatureRow>(SIGNATURE_API.taskSignatures(taskId), { method: 'POST', body, silent: true });
}

export function useSignTaskDocument() {
  const client = useQueryClient();
  return useMutation({ mutationFn: signTaskDocument, onSuccess: () => invalidateSignatures(client) });
}

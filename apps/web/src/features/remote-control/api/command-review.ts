// POST /api/iot/v2/commands/:id/review { approve, reason, password | ssoProof, meaning }: approve (sent to
// the device at once) or reject with a reason, signed with the reviewer's password again; the
// server refuses a review of one's own request.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { COMMAND_API, type CommandRow } from '@iotc/shared/command';
import type { SignatureMeaning, SignatureProof } from '@iotc/shared/signature';
import { request } from '../../../api/client.ts';
import { invalidateSignatures } from '../../../api/signatures.ts';
import { invalidateCommands } from './commands.ts';

export function reviewCommand({ id, approve, reason, proof, meaning }: { id: string; approve: boolean; reason: string; proof: SignatureProof; meaning: SignatureMeaning }): Promise<CommandRow> {
  return request<CommandRow>(`${COMMAND_API.commands}/${id}/review`, { method: 'POST', body: { approve, reason, ...proof, meaning }, silent: true });
}

export function useReviewCommand() {
  const client = useQueryClient();
  return useMutation({ mutationFn: reviewCommand, onSuccess: () => Promise.all([invalidateCommands(client), invalidateSignatures(client)]) });
}

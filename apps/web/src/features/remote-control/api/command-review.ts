// POST /api/iot/v2/commands/:id/review { approve, reason }: approve (sent to the device at once)
// or reject with a reason; the server refuses a review of one's own request.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { COMMAND_API, type CommandRow } from '@iotc/shared/command';
import { request } from '../../../api/client.ts';
import { invalidateCommands } from './commands.ts';

export function reviewCommand({ id, approve, reason }: { id: string; approve: boolean; reason: string }): Promise<CommandRow> {
  return request<CommandRow>(`${COMMAND_API.commands}/${id}/review`, { method: 'POST', body: { approve, reason }, silent: true });
}

export function useReviewCommand() {
  const client = useQueryClient();
  return useMutation({ mutationFn: reviewCommand, onSuccess: () => invalidateCommands(client) });
}

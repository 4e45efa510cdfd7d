// POST /api/iot/v2/commands/:id/cancel: the requester takes back a request still waiting for review.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { COMMAND_API, type CommandRow } from '@iotc/shared/command';
import { request } from '../../../api/client.ts';
import { invalidateCommands } from './commands.ts';

export function cancelCommand(id: string): Promise<CommandRow> {
  return request<CommandRow>(`${COMMAND_API.commands}/${id}/cancel`, { method: 'POST', body: {} });
}

export function useCancelCommand() {
  const client = useQueryClient();
  return useMutation({ mutationFn: cancelCommand, onSuccess: () => invalidateCommands(client) });
}

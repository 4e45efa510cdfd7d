// POST /api/iot/v2/commands: an operator asks for a command to a device; it waits for review.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { COMMAND_API, type CommandRequestInput, type CommandRow } from '@iotc/shared/command';
import { request } from '../../../api/client.ts';
import { invalidateCommands } from './commands.ts';

export function requestCommand(body: CommandRequestInput): Promise<CommandRow> {
  return request<CommandRow>(COMMAND_API.commands, { method: 'POST', body, silent: true });
}

export function useRequestCommand() {
  const client = useQueryClient();
  return useMutation({ mutationFn: requestCommand, onSuccess: () => invalidateCommands(client) });
}

// GET /api/iot/v2/commands/:id/events: a command's story, oldest first (live like the list while
// the command is out at its device).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { COMMAND_API, type CommandEventRow } from '@iotc/shared/command';
import { request } from '../../../api/client.ts';
import { COMMAND_KEY, LIVE_REFRESH_MS } from './commands.ts';

export function commandEventsQueryOptions(id: string, live: boolean) {
  return queryOptions({
    queryKey: [...COMMAND_KEY, id, 'events'],
    queryFn: ({ signal }) => request<CommandEventRow[]>(`${COMMAND_API.commands}/${id}/events`, { signal }),
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
}

export function useCommandEvents(id: string | null, live: boolean) {
  return useQuery({ ...commandEventsQueryOptions(id ?? '', live), enabled: !!id });
}

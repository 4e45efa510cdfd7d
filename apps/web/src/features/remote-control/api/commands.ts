// GET /api/iot/v2/commands and GET /api/iot/v2/commands/export: one page of the remote-control
// screen with the per-status counts its tabs show, refreshed every 5 s while a command of the
// query waits for its device's acknowledgement; the export; and the keys every change makes stale.
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { COMMAND_API, type CommandPage } from '@iotc/shared/command';
import { request } from '../../../api/client.ts';
import { exportList, listQuery, type ExportFormat, type FilterValues, type ListState } from '../../../lib/list-query.ts';

/** Every command list: the keys start so (as listQueryOptions' do). */
export const COMMAND_LISTS_KEY = ['list', COMMAND_API.commands] as const;
/** Everything else read about commands: one command's story. */
export const COMMAND_KEY = ['command'] as const;
/** How often the list is read again while a sent command is not yet acknowledged. */
export const LIVE_REFRESH_MS = 5000;

export function invalidateCommands(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: COMMAND_LISTS_KEY }), client.invalidateQueries({ queryKey: COMMAND_KEY })]);
}

/** The filter bar's field names that are also the API's. */
const PLAIN_FILTERS = ['status', 'kind', 'keyword', 'mine'] as const;
/** The requested-time range field: the filter bar gives `requestedFrom` / `requestedTo`. */
export const REQUESTED_FILTER = 'requested';

/** The API's query values of the screen's filters (address names); anything else is left out. */
export function commandFilters(filters: FilterValues): FilterValues {
  const out: FilterValues = {};
  if (filters[`${REQUESTED_FILTER}From`]) out.from = filters[`${REQUESTED_FILTER}From`]!;
  if (filters[`${REQUESTED_FILTER}To`]) out.to = filters[`${REQUESTED_FILTER}To`]!;
  for (const key of PLAIN_FILTERS) if (filters[key]) out[key] = filters[key]!;
  return out;
}

export function commandsQueryOptions(state: ListState) {
  const query = listQuery(state);
  return queryOptions({
    queryKey: [...COMMAND_LISTS_KEY, query],
    queryFn: ({ signal }) => request<CommandPage>(COMMAND_API.commands, { query, signal }),
    placeholderData: keepPreviousData,
    // Live while any command of the query is out at a device without an answer yet.
    refetchInterval: (q) => ((q.state.data?.counts.sent ?? 0) > 0 ? LIVE_REFRESH_MS : false),
  });
}

export function useCommands(state: ListState) {
  return useQuery(commandsQueryOptions(state));
}

/** Every command the filters match (not just the page), as Excel or CSV. */
export function exportCommands(format: ExportFormat, state: Pick<ListState, 'filters' | 'sort'>): Promise<string> {
  return exportList(COMMAND_API.commands, format, state);
}

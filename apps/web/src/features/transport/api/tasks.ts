// GET /api/iot/v2/transport-tasks, /counts and /export: one page of the tasks screen, the number
// of tasks of each status tab for the same filters, the export, and the query keys every task
// change makes stale.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { TRANSPORT_API, type TaskCounts, type TaskRow } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { exportList, listQueryOptions, type ExportFormat, type FilterValues, type ListState } from '../../../lib/list-query.ts';

/** Every task list (pages and tab counts): listQueryOptions keys start so. */
export const TASK_LISTS_KEY = ['list', TRANSPORT_API.tasks] as const;
/** Everything else read about tasks: one task, its story. */
export const TASK_KEY = ['transportTask'] as const;

/** Reads again whatever a created or changed task may have changed. */
export function invalidateTasks(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: TASK_LISTS_KEY }), client.invalidateQueries({ queryKey: TASK_KEY })]);
}

/** The filter bar's field names that are also the API's. */
const PLAIN_FILTERS = ['status', 'highValue', 'keyword', 'orgId', 'deviceId', 'assetId', 'templateId'] as const;
/** The planned-start range field: the filter bar gives `plannedFrom` / `plannedTo`. */
export const PLANNED_FILTER = 'planned';

/** The API's query values of the screen's filters (address names); anything else is left out. */
export function taskFilters(filters: FilterValues): FilterValues {
  const out: FilterValues = {};
  for (const key of PLAIN_FILTERS) if (filters[key]) out[key] = filters[key]!;
  if (filters[`${PLANNED_FILTER}From`]) out.from = filters[`${PLANNED_FILTER}From`]!;
  if (filters[`${PLANNED_FILTER}To`]) out.to = filters[`${PLANNED_FILTER}To`]!;
  return out;
}

export function useTasks(state: ListState) {
  return useQuery(listQueryOptions<TaskRow>(TRANSPORT_API.tasks, state));
}

/** How many tasks each tab holds for the filters (their own status left out). */
export function taskCountsQueryOptions(filters: FilterValues) {
  const { status: _status, ...rest } = filters;
  return queryOptions({
    queryKey: [...TASK_LISTS_KEY, 'counts', rest] as const,
    queryFn: ({ signal }) => request<TaskCounts>(`${TRANSPORT_API.tasks}/counts`, { query: rest, signal }),
  });
}

export function useTaskCounts(filters: FilterValues) {
  return useQuery(taskCountsQueryOptions(filters));
}

/** Every task the filters match (not just the page), as Excel or CSV. */
export function exportTasks(format: ExportFormat, state: Pick<ListState, 'filters' | 'sort'>): Promise<string> {
  return exportList(TRANSPORT_API.tasks, format, state);
}

// GET /api/iot/v2/faults and GET /api/iot/v2/faults/export: one page of the faults screen and
// its export; and the query keys a recorded repair makes stale.
import { useQuery } from '@tanstack/react-query';
import { FAULT_API, type FaultRow } from '@iotc/shared/fault';
import { exportList, listQueryOptions, type ExportFormat, type FilterValues, type ListState } from '../../../lib/list-query.ts';

/** Every faults list: listQueryOptions keys start so. */
export const FAULT_LISTS_KEY = ['list', FAULT_API.faults] as const;
/** Everything else read about faults: one fault (`[...FAULT_KEY, id]`), the counts (`[...FAULT_KEY, 'stats', filters]`). */
export const FAULT_KEY = ['fault'] as const;

/** The filter bar's field names that are also the API's. */
const PLAIN_FILTERS = ['kind', 'status', 'keyword'] as const;
/** The last-seen range field: the filter bar gives `lastSeenFrom` / `lastSeenTo`. */
export const LAST_SEEN_FILTER = 'lastSeen';

/** The API's query values of the screen's filters (address names); anything else is left out. */
export function faultFilters(filters: FilterValues): FilterValues {
  const out: FilterValues = {};
  if (filters[`${LAST_SEEN_FILTER}From`]) out.from = filters[`${LAST_SEEN_FILTER}From`]!;
  if (filters[`${LAST_SEEN_FILTER}To`]) out.to = filters[`${LAST_SEEN_FILTER}To`]!;
  for (const key of PLAIN_FILTERS) if (filters[key]) out[key] = filters[key]!;
  return out;
}

export function faultsQueryOptions(state: ListState) {
  return listQueryOptions<FaultRow>(FAULT_API.faults, state);
}

export function useFaults(state: ListState) {
  return useQuery(faultsQueryOptions(state));
}

/** Every fault the filters match (not just the page), as Excel or CSV. */
export function exportFaults(format: ExportFormat, state: Pick<ListState, 'filters' | 'sort'>): Promise<string> {
  return exportList(FAULT_API.faults, format, state);
}

// GET /api/iot/v2/warehouse-records (a page with the audit tab counts) and /export: one page of
// the records screen, the export, and the query keys every record change makes stale (the stock
// and the province amounts included: an approval changes them).
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { WAREHOUSE_API, type RecordPage } from '@iotc/shared/warehouse';
import { request } from '../../../api/client.ts';
import { exportList, listQuery, type ExportFormat, type FilterValues, type ListState } from '../../../lib/list-query.ts';

/** Every warehouse read: record pages, one record, the stock, the provinces. */
export const WAREHOUSE_KEY = ['warehouse'] as const;

export function invalidateWarehouse(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: WAREHOUSE_KEY });
}

/** The filter bar's field names that are also the API's. */
const PLAIN_FILTERS = ['auditStatus', 'warehouseId', 'roomId', 'direction', 'keyword', 'province', 'orgId'] as const;
/** The time range field: the filter bar gives `timeFrom` / `timeTo`. */
export const TIME_FILTER = 'time';

/** The API's query values of the screen's filters (address names); anything else is left out. */
export function recordFilters(filters: FilterValues): FilterValues {
  const out: FilterValues = {};
  for (const key of PLAIN_FILTERS) if (filters[key]) out[key] = filters[key]!;
  if (filters[`${TIME_FILTER}From`]) out.from = filters[`${TIME_FILTER}From`]!;
  if (filters[`${TIME_FILTER}To`]) out.to = filters[`${TIME_FILTER}To`]!;
  return out;
}

export function recordsQueryOptions(state: ListState) {
  return queryOptions({
    queryKey: [...WAREHOUSE_KEY, 'records', listQuery(state)] as const,
    queryFn: ({ signal }) => request<RecordPage>(WAREHOUSE_API.records, { query: listQuery(state), signal }),
    // The previous page (and its counts) stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useRecords(state: ListState) {
  return useQuery(recordsQueryOptions(state));
}

/** Every record the filters match (not just the page), as Excel or CSV. */
export function exportRecords(format: ExportFormat, state: Pick<ListState, 'filters' | 'sort'>): Promise<string> {
  return exportList(WAREHOUSE_API.records, format, state);
}

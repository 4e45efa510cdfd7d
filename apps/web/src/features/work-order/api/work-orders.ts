// GET /api/iot/v2/work-orders and GET /api/iot/v2/work-orders/export: one page of the work orders
// screen, the totals per status its tabs show (the same call asking one row), the export, and
// the query keys every work order change makes stale.
import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { WORK_ORDER_API, WORK_ORDER_STATUSES, type WorkOrderRow, type WorkOrderStatus } from '@iotc/shared/work-order';
import { exportList, listQueryOptions, type ExportFormat, type FilterValues, type ListState } from '../../../lib/list-query.ts';

/** Every work order list (pages and tab totals): listQueryOptions keys start so. */
export const WORK_ORDER_LISTS_KEY = ['list', WORK_ORDER_API.workOrders] as const;
/** Everything else read about work orders: one order, its story. */
export const WORK_ORDER_KEY = ['workOrder'] as const;

/** Reads again whatever a created or changed work order may have changed. */
export function invalidateWorkOrders(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: WORK_ORDER_LISTS_KEY }), client.invalidateQueries({ queryKey: WORK_ORDER_KEY })]);
}

/** The filter bar's field names that are also the API's. */
const PLAIN_FILTERS = ['status', 'priority', 'assigneeId', 'mine', 'overdue', 'keyword'] as const;
/** The created-time range field: the filter bar gives `createdFrom` / `createdTo`. */
export const CREATED_FILTER = 'created';

/** The API's query values of the screen's filters (address names); anything else is left out. */
export function workOrderFilters(filters: FilterValues): FilterValues {
  const out: FilterValues = {};
  if (filters[`${CREATED_FILTER}From`]) out.from = filters[`${CREATED_FILTER}From`]!;
  if (filters[`${CREATED_FILTER}To`]) out.to = filters[`${CREATED_FILTER}To`]!;
  for (const key of PLAIN_FILTERS) if (filters[key]) out[key] = filters[key]!;
  return out;
}

export function workOrdersQueryOptions(state: ListState) {
  return listQueryOptions<WorkOrderRow>(WORK_ORDER_API.workOrders, state);
}

export function useWorkOrders(state: ListState) {
  return useQuery(workOrdersQueryOptions(state));
}

/**
 * How many orders of each status the filters (without their own status) match: one row asked per
 * status, its `total` kept. Undefined while a total is not known.
 */
export function useStatusTotals(filters: FilterValues): Partial<Record<WorkOrderStatus, number>> | undefined {
  const { status: _status, ...rest } = filters;
  return useQueries({
    queries: WORK_ORDER_STATUSES.map((status) => ({
      ...listQueryOptions<WorkOrderRow>(WORK_ORDER_API.workOrders, { page: 1, size: 1, filters: { ...rest, status } }),
      select: (page: { total: number }) => page.total,
    })),
    combine: (results) => {
      if (results.some((r) => r.data === undefined)) return undefined;
      return Object.fromEntries(WORK_ORDER_STATUSES.map((s, i) => [s, results[i]!.data])) as Record<WorkOrderStatus, number>;
    },
  });
}

/** Every work order the filters match (not just the page), as Excel or CSV. */
export function exportWorkOrders(format: ExportFormat, state: Pick<ListState, 'filters' | 'sort'>): Promise<string> {
  return exportList(WORK_ORDER_API.workOrders, format, state);
}

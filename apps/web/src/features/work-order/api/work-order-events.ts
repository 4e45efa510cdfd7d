// GET /api/iot/v2/work-orders/:id/events: the story of one order, oldest first (created, updated,
// assigned, status_changed, commented, alarms_linked); never changed, only appended to.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WorkOrderEventRow } from '@iotc/shared/work-order';
import { request } from '../../../api/client.ts';
import { workOrderPath } from './work-order-detail.ts';
import { WORK_ORDER_KEY } from './work-orders.ts';

export function workOrderEventsQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...WORK_ORDER_KEY, id, 'events'] as const,
    queryFn: ({ signal }) => request<WorkOrderEventRow[]>(`${workOrderPath(id)}/events`, { signal }),
  });
}

export function useWorkOrderEvents(id: string | null) {
  return useQuery({ ...workOrderEventsQueryOptions(id ?? ''), enabled: !!id });
}

// GET /api/iot/v2/work-orders/:id: one work order with the alarms it gathers, for the drawer.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { WORK_ORDER_API, type WorkOrderDetail } from '@iotc/shared/work-order';
import { request } from '../../../api/client.ts';
import { WORK_ORDER_KEY } from './work-orders.ts';

export const workOrderPath = (id: string) => `${WORK_ORDER_API.workOrders}/${encodeURIComponent(id)}`;

export function workOrderQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...WORK_ORDER_KEY, id] as const,
    queryFn: ({ signal }) => request<WorkOrderDetail>(workOrderPath(id), { signal }),
  });
}

export function useWorkOrder(id: string | null) {
  return useQuery({ ...workOrderQueryOptions(id ?? ''), enabled: !!id });
}

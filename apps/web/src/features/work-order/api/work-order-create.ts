// POST /api/iot/v2/work-orders: a work order opened by hand (alarm:handle); the form shows a
// refusal itself (silent), on its field where it names one.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WORK_ORDER_API, type WorkOrderCreate, type WorkOrderRow } from '@iotc/shared/work-order';
import { request } from '../../../api/client.ts';
import { invalidateWorkOrders } from './work-orders.ts';

export function createWorkOrder(body: WorkOrderCreate): Promise<WorkOrderRow> {
  return request<WorkOrderRow>(WORK_ORDER_API.workOrders, { method: 'POST', body, silent: true });
}

export function useCreateWorkOrder() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createWorkOrder, onSuccess: () => invalidateWorkOrders(client) });
}

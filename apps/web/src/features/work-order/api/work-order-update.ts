// PUT /api/iot/v2/work-orders/:id: the order's own fields (title, description, priority,
// assignee, due time); its status moves through transitions. The form shows a refusal itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WorkOrderRow, WorkOrderUpdate } from '@iotc/shared/work-order';
import { request } from '../../../api/client.ts';
import { workOrderPath } from './work-order-detail.ts';
import { invalidateWorkOrders } from './work-orders.ts';

export function updateWorkOrder({ id, body }: { id: string; body: WorkOrderUpdate }): Promise<WorkOrderRow> {
  return request<WorkOrderRow>(workOrderPath(id), { method: 'PUT', body, silent: true });
}

export function useUpdateWorkOrder() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateWorkOrder, onSuccess: () => invalidateWorkOrders(client) });
}

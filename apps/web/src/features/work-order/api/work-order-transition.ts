// POST /api/iot/v2/work-orders/:id/transition { to, note, password?, meaning? }: moves an order to
// a status its current one allows (WORK_ORDER_TRANSITIONS; resolving needs a note; closing is
// signed with the password again). The alarms it holds show the order's status, so they are read
// again too, and so are the signatures.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WorkOrderRow, WorkOrderTransition } from '@iotc/shared/work-order';
import { request } from '../../../api/client.ts';
import { invalidateAlarms } from '../../../api/alarm-acknowledge.ts';
import { invalidateSignatures } from '../../../api/signatures.ts';
import { workOrderPath } from './work-order-detail.ts';
import { invalidateWorkOrders } from './work-orders.ts';

export function transitionWorkOrder({ id, ...body }: WorkOrderTransition & { id: string }): Promise<WorkOrderRow> {
  return request<WorkOrderRow>(`${workOrderPath(id)}/transition`, { method: 'POST', body, silent: true });
}

export function useTransitionWorkOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: transitionWorkOrder,
    onSuccess: () => Promise.all([invalidateWorkOrders(client), invalidateAlarms(client), invalidateSignatures(client)]),
  });
}

// POST /api/iot/v2/work-orders with the alarm: opens a work order for one alarm from its details
// (alarm:handle). The work orders screen has everything else about orders.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WORK_ORDER_API, type WorkOrderCreateInput, type WorkOrderRow } from '@iotc/shared/work-order';
import { request } from '../../../api/client.ts';
import { invalidateAlarms } from '../../../api/alarm-acknowledge.ts';

export function openWorkOrder(body: WorkOrderCreateInput): Promise<WorkOrderRow> {
  return request<WorkOrderRow>(WORK_ORDER_API.workOrders, { method: 'POST', body, silent: true });
}

export function useOpenWorkOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: openWorkOrder,
    onSuccess: () => Promise.all([invalidateAlarms(client), client.invalidateQueries({ queryKey: ['list', WORK_ORDER_API.workOrders] })]),
  });
}

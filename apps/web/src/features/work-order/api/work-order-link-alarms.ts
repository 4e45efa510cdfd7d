// POST /api/iot/v2/work-orders/:id/alarms { alarmIds }: gathers more alarms into an order
// (alarm:handle); refused when an alarm belongs to another order or another organisation.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client.ts';
import { invalidateAlarms } from '../../../api/alarm-acknowledge.ts';
import { workOrderPath } from './work-order-detail.ts';
import { invalidateWorkOrders } from './work-orders.ts';

export function linkAlarms({ id, alarmIds }: { id: string; alarmIds: string[] }): Promise<unknown> {
  return request(`${workOrderPath(id)}/alarms`, { method: 'POST', body: { alarmIds }, silent: true });
}

export function useLinkAlarms() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: linkAlarms,
    onSuccess: () => Promise.all([invalidateWorkOrders(client), invalidateAlarms(client)]),
  });
}

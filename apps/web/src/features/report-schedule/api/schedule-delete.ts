// DELETE /api/iot/v2/report-schedules/:id (report:schedule): no further run is sent.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client.ts';
import { invalidateSchedules, schedulePath } from './schedules.ts';

export function deleteSchedule(id: string): Promise<unknown> {
  return request(schedulePath(id), { method: 'DELETE', silent: true });
}

export function useDeleteSchedule() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteSchedule, onSuccess: () => invalidateSchedules(client) });
}

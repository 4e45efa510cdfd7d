// POST /api/iot/v2/report-schedules/:id/enable | disable (report:schedule): a disabled schedule
// sends nothing; an enabled one sends next at its first slot after now.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScheduleRow } from '@iotc/shared/ops-report';
import { request } from '../../../api/client.ts';
import { invalidateSchedules, schedulePath } from './schedules.ts';

export function setScheduleEnabled({ id, enabled }: { id: string; enabled: boolean }): Promise<ScheduleRow> {
  return request<ScheduleRow>(`${schedulePath(id)}/${enabled ? 'enable' : 'disable'}`, { method: 'POST', silent: true });
}

export function useSetScheduleEnabled() {
  const client = useQueryClient();
  return useMutation({ mutationFn: setScheduleEnabled, onSuccess: () => invalidateSchedules(client) });
}

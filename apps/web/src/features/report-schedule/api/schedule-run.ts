// POST /api/iot/v2/report-schedules/:id/run (report:schedule): "send now", the last whole period
// made and mailed at once; answers the run (sent, in the outbox, or failed with its error).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScheduleRun } from '@iotc/shared/ops-report';
import { request } from '../../../api/client.ts';
import { invalidateSchedules, schedulePath } from './schedules.ts';

export function runSchedule(id: string): Promise<ScheduleRun | null> {
  // Making and mailing a month's PDF may take longer than a form call.
  return request<ScheduleRun | null>(`${schedulePath(id)}/run`, { method: 'POST', silent: true, timeoutMs: 120_000 });
}

export function useRunSchedule() {
  const client = useQueryClient();
  return useMutation({ mutationFn: runSchedule, onSuccess: () => invalidateSchedules(client) });
}

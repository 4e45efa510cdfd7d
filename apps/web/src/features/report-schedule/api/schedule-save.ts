// POST /api/iot/v2/report-schedules and PUT /:id: a scheduled report, whole (report:schedule);
// the form shows a refusal itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OPS_REPORT_API, type ScheduleBody, type ScheduleRow } from '@iotc/shared/ops-report';
import { request } from '../../../api/client.ts';
import { invalidateSchedules, schedulePath } from './schedules.ts';

export interface ScheduleSave {
  /** Absent: create. */
  id?: string;
  body: ScheduleBody;
}

export function saveSchedule({ id, body }: ScheduleSave): Promise<ScheduleRow> {
  return id
    ? request<ScheduleRow>(schedulePath(id), { method: 'PUT', body, silent: true })
    : request<ScheduleRow>(OPS_REPORT_API.schedules, { method: 'POST', body, silent: true });
}

export function useSaveSchedule() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveSchedule, onSuccess: () => invalidateSchedules(client) });
}

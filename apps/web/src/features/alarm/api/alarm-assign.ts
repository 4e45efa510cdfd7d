// POST /api/iot/v2/alarms/:id/assign { userId }: hands an alarm to a user of the organisation tree
// (alarm:handle); the dialog shows a refusal itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ALARM_API, type AlarmRow } from '@iotc/shared/alarm';
import { request } from '../../../api/client.ts';
import { invalidateAlarms } from '../../../api/alarm-acknowledge.ts';

export function assignAlarm({ id, userId }: { id: string; userId: string }): Promise<AlarmRow> {
  return request<AlarmRow>(`${ALARM_API.alarms}/${encodeURIComponent(id)}/assign`, { method: 'POST', body: { userId }, silent: true });
}

export function useAssignAlarm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: assignAlarm,
    onSuccess: () => invalidateAlarms(client),
  });
}

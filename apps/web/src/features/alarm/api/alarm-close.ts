// POST /api/iot/v2/alarms/:id/close { reason }: closes an alarm by hand (alarm:handle); the
// dialog asking for the reason shows a refusal itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ALARM_API, type AlarmRow } from '@iotc/shared/alarm';
import { request } from '../../../api/client.ts';
import { invalidateAlarms } from '../../../api/alarm-acknowledge.ts';

export function closeAlarm({ id, reason }: { id: string; reason: string }): Promise<AlarmRow> {
  return request<AlarmRow>(`${ALARM_API.alarms}/${encodeURIComponent(id)}/close`, { method: 'POST', body: { reason }, silent: true });
}

export function useCloseAlarm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: closeAlarm,
    onSuccess: () => invalidateAlarms(client),
  });
}

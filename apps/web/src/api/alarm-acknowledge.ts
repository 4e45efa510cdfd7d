// POST /api/iot/v2/alarms/:id/acknowledge: marks an alarm as seen by the caller (alarm:handle).
// Shared by the alarm screens and the console's alarm notifications; it also names the query
// keys an alarm changing makes stale, so every alarm mutation invalidates the same ones.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ALARM_API, type AlarmRow } from '@iotc/shared/alarm';
import { request } from './client.ts';

/** Every alarm list (alarm query, real-time alarms): listQueryOptions keys start so. */
export const ALARM_LISTS_KEY = ['list', ALARM_API.alarms] as const;
/** Everything else read about alarms: one alarm, its timeline, the statistics. */
export const ALARM_KEY = ['alarm'] as const;

/** Reads again what an acknowledged or closed alarm may have changed. */
export function invalidateAlarms(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: ALARM_LISTS_KEY }), client.invalidateQueries({ queryKey: ALARM_KEY })]);
}

export function acknowledgeAlarm(id: string): Promise<AlarmRow> {
  return request<AlarmRow>(`${ALARM_API.alarms}/${encodeURIComponent(id)}/acknowledge`, { method: 'POST' });
}

export function useAcknowledgeAlarm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeAlarm,
    onSuccess: () => invalidateAlarms(client),
  });
}

// POST /api/iot/v2/alarms/:id/comments { text }: a comment in the alarm's timeline
// (alarm:handle); the answer is the whole timeline, which replaces the drawer's.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ALARM_API, type AlarmEventRow } from '@iotc/shared/alarm';
import { request } from '../../../api/client.ts';
import { alarmEventsQueryOptions } from './alarm-detail.ts';

export function commentAlarm({ id, text }: { id: string; text: string }): Promise<AlarmEventRow[]> {
  return request<AlarmEventRow[]>(`${ALARM_API.alarms}/${encodeURIComponent(id)}/comments`, { method: 'POST', body: { text } });
}

export function useCommentAlarm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: commentAlarm,
    onSuccess: (events, { id }) => client.setQueryData(alarmEventsQueryOptions(id).queryKey, events),
  });
}

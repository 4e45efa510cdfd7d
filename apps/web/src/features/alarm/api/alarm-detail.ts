// GET /api/iot/v2/alarms/:id and GET /api/iot/v2/alarms/:id/events: one alarm and its timeline
// (created, acknowledged, assigned, commented, cleared, closed; oldest first) for the details drawer.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ALARM_API, type AlarmEventRow, type AlarmRow } from '@iotc/shared/alarm';
import { request } from '../../../api/client.ts';
import { ALARM_KEY } from '../../../api/alarm-acknowledge.ts';

/** One entry of the timeline; `detail` by kind: created / cleared `value`, closed `reason` (a
 * cleared one `reason: 'rule_stopped'` when its rule stopped), assigned `account` and `name`,
 * commented `text`. */
export type AlarmEvent = AlarmEventRow;

const path = (id: string) => `${ALARM_API.alarms}/${encodeURIComponent(id)}`;

export function alarmQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...ALARM_KEY, id] as const,
    queryFn: ({ signal }) => request<AlarmRow>(path(id), { signal }),
  });
}

export function alarmEventsQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...ALARM_KEY, id, 'events'] as const,
    queryFn: ({ signal }) => request<AlarmEvent[]>(`${path(id)}/events`, { signal }),
  });
}

export function useAlarm(id: string | null) {
  return useQuery({ ...alarmQueryOptions(id ?? ''), enabled: !!id });
}

export function useAlarmEvents(id: string | null) {
  return useQuery({ ...alarmEventsQueryOptions(id ?? ''), enabled: !!id });
}

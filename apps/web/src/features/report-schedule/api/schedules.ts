// GET /api/iot/v2/report-schedules (`keyword`, `kind`, `enabled` filters, paged, sorted): the scheduled reports of
// the caller's organisation; and the key every schedule change makes stale (its lists and runs).
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { OPS_REPORT_API, type ScheduleRow } from '@iotc/shared/ops-report';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** Every schedules query (lists and run histories): listQueryOptions keys start so. */
export const SCHEDULES_KEY = ['list', OPS_REPORT_API.schedules] as const;

export const schedulePath = (id: string) => `${OPS_REPORT_API.schedules}/${encodeURIComponent(id)}`;

export function useSchedules(state: ListState, enabled = true) {
  return useQuery({ ...listQueryOptions<ScheduleRow>(OPS_REPORT_API.schedules, state), enabled });
}

export function invalidateSchedules(client: QueryClient): Promise<unknown> {
  return client.invalidateQueries({ queryKey: SCHEDULES_KEY });
}

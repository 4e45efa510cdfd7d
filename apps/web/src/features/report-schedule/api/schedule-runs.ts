// GET /api/iot/v2/report-schedules/:id/runs (paged, newest first): what a schedule sent, when,
// for which period, and whether it went out, waits in the outbox or failed.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import type { ScheduleRun } from '@iotc/shared/ops-report';
import { request } from '../../../api/client.ts';
import { SCHEDULES_KEY, schedulePath } from './schedules.ts';

export function scheduleRunsQueryOptions(id: string, page: number, size: number) {
  return queryOptions({
    queryKey: [...SCHEDULES_KEY, 'runs', id, page, size] as const,
    queryFn: ({ signal }) => request<Page<ScheduleRun>>(`${schedulePath(id)}/runs`, { query: { page, size }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useScheduleRuns(id: string | null, page: number, size: number) {
  return useQuery({ ...scheduleRunsQueryOptions(id ?? '', page, size), enabled: id !== null });
}

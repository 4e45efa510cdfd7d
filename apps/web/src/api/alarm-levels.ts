// GET /api/iot/v2/alarm-levels: the alarm levels of the caller's organisations, by priority;
// shared by the alarm screens (policy rules pick one, the alarm lists filter and colour by it).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ALARM_API, type LevelRow } from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import { MAX_PAGE_SIZE } from '@iotc/shared/list';
import { request } from './client.ts';

/** Every alarm levels query: what level mutations invalidate. */
export const ALARM_LEVELS_KEY = ['list', ALARM_API.levels] as const;

export function fetchAlarmLevels(signal?: AbortSignal): Promise<LevelRow[]> {
  return request<Page<LevelRow>>(`${ALARM_API.levels}?page=1&size=${MAX_PAGE_SIZE}&sort=priority,asc`, { signal }).then((p) => p.rows);
}

export function alarmLevelsQueryOptions() {
  return queryOptions({ queryKey: [...ALARM_LEVELS_KEY, 'all'] as const, queryFn: ({ signal }) => fetchAlarmLevels(signal) });
}

/** All levels the caller sees (at most one page of 100: four per organisation by default). */
export function useAlarmLevels(enabled = true) {
  return useQuery({ ...alarmLevelsQueryOptions(), enabled });
}

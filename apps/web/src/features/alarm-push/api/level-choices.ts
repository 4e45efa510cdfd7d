// What a push rule may match by level: the alarm levels of the caller's organisations
// (GET /api/iot/v2/alarm-levels, the list the other alarm screens share, so a level change
// reaches this pick list too).
import { useQuery } from '@tanstack/react-query';
import { alarmLevelsQueryOptions } from '../../../api/alarm-levels.ts';

export function useLevelChoices(enabled: boolean) {
  return useQuery({ ...alarmLevelsQueryOptions(), enabled });
}

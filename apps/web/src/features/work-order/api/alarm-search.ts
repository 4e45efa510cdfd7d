// GET /api/iot/v2/alarms?keyword=&size=20: alarms to link to an order, searched as the user
// types (device id or name, asset, policy), newest first; the ones already in an order are
// shown but cannot be picked.
import { ALARM_API, type AlarmRow } from '@iotc/shared/alarm';
import { fetchList } from '../../../lib/list-query.ts';

const SEARCH_SIZE = 20;

export function searchAlarms(search: string, signal: AbortSignal): Promise<AlarmRow[]> {
  const keyword = search.trim();
  return fetchList<AlarmRow>(ALARM_API.alarms, { page: 1, size: SEARCH_SIZE, sort: 'startedAt,desc', filters: keyword ? { keyword } : {} }, signal).then((p) => p.rows);
}

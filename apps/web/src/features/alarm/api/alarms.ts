// GET /api/iot/v2/alarms and GET /api/iot/v2/alarms/export: the alarm list both alarm screens
// show, and its export. A screen's filters (as the filter bar and the address hold them) become
// the API's query values here.
import { useQuery } from '@tanstack/react-query';
import { ALARM_API, type AlarmRow } from '@iotc/shared/alarm';
import { exportList, listQueryOptions, type ExportFormat, type FilterValues, type ListState } from '../../../lib/list-query.ts';

/** The filter bar's field names that are also the API's. */
const PLAIN_FILTERS = ['type', 'levelId', 'status', 'acknowledged', 'keyword', 'mine', 'inWorkOrder'] as const;
/** The time range field: the filter bar gives `timeFrom` / `timeTo`. */
export const TIME_FILTER = 'time';

/** The API's query values of a screen's filters; anything else in the address is left out. */
export function alarmFilters(filters: FilterValues): FilterValues {
  const out: FilterValues = {};
  if (filters[`${TIME_FILTER}From`]) out.from = filters[`${TIME_FILTER}From`]!;
  if (filters[`${TIME_FILTER}To`]) out.to = filters[`${TIME_FILTER}To`]!;
  for (const key of PLAIN_FILTERS) if (filters[key]) out[key] = filters[key]!;
  return out;
}

/** The list call of `state` (its filters already the API's); keys start with ALARM_LISTS_KEY. */
export function alarmsQueryOptions(state: ListState) {
  return listQueryOptions<AlarmRow>(ALARM_API.alarms, state);
}

export function useAlarms(state: ListState) {
  return useQuery(alarmsQueryOptions(state));
}

/** Every alarm the filters match (not just the page), as Excel or CSV. */
export function exportAlarms(format: ExportFormat, state: Pick<ListState, 'filters' | 'sort'>): Promise<string> {
  return exportList(ALARM_API.alarms, format, state);
}

// GET /api/iot/v2/alarm-policies (`keyword`, `enabled`, `orgId` filters): the alarm policies of
// the caller's organisations, `updatedAt` shown in the user's time zone.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { ALARM_API, type PolicyRow } from '@iotc/shared/alarm';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { ALARM_LEVELS_KEY } from '../../../api/alarm-levels.ts';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** Every policies list, whatever its filters: what policy mutations invalidate. */
export const POLICIES_LIST_KEY = ['list', ALARM_API.policies] as const;

/** A row as shown: `updatedAt` in the user's time zone (the sort key stays the API's). */
export type PolicyView = PolicyRow;

export function usePolicies(state: ListState) {
  return useQuery({
    ...listQueryOptions<PolicyRow>(ALARM_API.policies, state),
    select: (page) => ({ ...page, rows: page.rows.map((r): PolicyView => ({ ...r, updatedAt: dayjs(r.updatedAt).format(DATETIME_FORMAT) })) }),
  });
}

/** After policies were created, changed or deleted: the lists, and the levels' "rules using it" counts. */
export function invalidatePolicies(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: POLICIES_LIST_KEY }), client.invalidateQueries({ queryKey: ALARM_LEVELS_KEY })]);
}

// GET /api/iot/v2/deliveries: the delivery log of the caller's organisations, newest first, with
// the `status` and `channel` (comma lists), `ruleId`, `orgId`, `from` and `to` filters.
import { useQuery } from '@tanstack/react-query';
import { PUSH_API, type DeliveryRow } from '@iotc/shared/alarm-push';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** Every delivery log query: what "send again" invalidates. */
export const DELIVERIES_KEY = ['list', PUSH_API.deliveries] as const;

export function useDeliveries(state: ListState, enabled = true) {
  return useQuery({ ...listQueryOptions<DeliveryRow>(PUSH_API.deliveries, state), enabled });
}

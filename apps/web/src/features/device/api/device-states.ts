// GET /api/iot/v2/device-states: one page of the devices' latest states for the monitoring
// table, filtered by status, keyword and asset kind. Live batches patch the cached page in place
// (by the key these options define), so the table follows the devices between reads.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import { LIVE_API, type DeviceState } from '@iotc/shared/live';
import { fetchList, listQuery, type ListState } from '../../../lib/list-query.ts';

export function deviceStatesQueryOptions(state: ListState) {
  return queryOptions({
    queryKey: ['monitor', 'states', listQuery(state)] as const,
    queryFn: ({ signal }): Promise<Page<DeviceState>> => fetchList<DeviceState>(LIVE_API.states, state, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDeviceStates(state: ListState) {
  return useQuery(deviceStatesQueryOptions(state));
}

// GET /api/iot/v2/transport-routes/config: whether the server has a routing service for road
// routes; it changes only with the server's configuration, so it is read once per session.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TRANSPORT_API, type RoutingConfig } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';

export function fetchRoutingConfig(signal?: AbortSignal): Promise<RoutingConfig> {
  return request<RoutingConfig>(TRANSPORT_API.routingConfig, { signal, silent: true });
}

export function routingConfigQueryOptions() {
  return queryOptions({
    queryKey: ['transport-routing-config'] as const,
    queryFn: ({ signal }) => fetchRoutingConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function useRoutingConfig() {
  return useQuery(routingConfigQueryOptions());
}

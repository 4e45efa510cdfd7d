// POST /api/iot/v2/transport-routes: the road route through origin, via points and destination
// ([lat, lon]) from the server's routing service. Nothing is stored, so nothing is invalidated;
// the form shows a failure next to the route itself.
import { useMutation } from '@tanstack/react-query';
import { TRANSPORT_API, type RoadRoute, type RoadRouteBody } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';

export function fetchRoadRoute(body: RoadRouteBody): Promise<RoadRoute> {
  return request<RoadRoute>(TRANSPORT_API.roadRoute, { method: 'POST', body, silent: true });
}

export function useRoadRoute() {
  return useMutation({ mutationFn: fetchRoadRoute });
}

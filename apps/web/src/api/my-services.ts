// GET /api/iot/v2/my-services: the scenarios the user may open, and platform management for administrators.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyServices } from '@iotc/shared/auth';
import { API } from '@iotc/shared/auth-api';
import { request } from './client.ts';

export function fetchMyServices(signal?: AbortSignal): Promise<MyServices> {
  return request<MyServices>(API.myServices, { signal });
}

export const myServicesQueryOptions = queryOptions({ queryKey: ['my-services'], queryFn: ({ signal }) => fetchMyServices(signal) });

export function useMyServices() {
  return useQuery(myServicesQueryOptions);
}

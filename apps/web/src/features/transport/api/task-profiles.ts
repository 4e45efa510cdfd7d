// The product profiles a task may be judged against (issue 27 item 3), for the task form's select:
// the first 100 by name; asked only of a caller holding product:read.
import { useQuery } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import { PRODUCT_API, type ProfileRow } from '@iotc/shared/product';
import { request } from '../../../api/client.ts';

export function useTaskProfileOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['list', PRODUCT_API.profiles, 'task-options'],
    queryFn: ({ signal }) => request<Page<ProfileRow>>(`${PRODUCT_API.profiles}?page=1&size=100&sort=name,asc`, { signal, silent: true }),
    enabled,
  });
}

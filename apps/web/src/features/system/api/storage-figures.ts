// GET /api/iot/v2/storage-figures: storage per organisation (one page) with the platform's
// totals, free space and days left; platform administrator only.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { STORAGE_API, type StoragePage } from '@iotc/shared/storage';
import { request } from '../../../api/client.ts';
import { listQuery, type ListState } from '../../../lib/list-query.ts';

export function storageFiguresOptions(state: ListState) {
  return queryOptions({
    queryKey: ['list', STORAGE_API.list, listQuery(state)],
    queryFn: ({ signal }) => request<StoragePage>(STORAGE_API.list, { query: listQuery(state), signal }),
    placeholderData: keepPreviousData,
  });
}

export function useStorageFigures(state: ListState) {
  return useQuery(storageFiguresOptions(state));
}

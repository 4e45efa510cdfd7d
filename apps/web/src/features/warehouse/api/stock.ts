// GET /api/iot/v2/warehouse-records/stock and /provinces: the approved stock per room and goods /
// batch, and the warehouses and stock per province.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { WAREHOUSE_API, type ProvinceAmount, type StockAnswer } from '@iotc/shared/warehouse';
import { request } from '../../../api/client.ts';
import type { FilterValues } from '../../../lib/list-query.ts';
import { WAREHOUSE_KEY } from './records.ts';

export function stockQueryOptions(filters: FilterValues) {
  return queryOptions({
    queryKey: [...WAREHOUSE_KEY, 'stock', filters] as const,
    queryFn: ({ signal }) => request<StockAnswer>(WAREHOUSE_API.stock, { query: filters, signal }),
  });
}

export function useStock(filters: FilterValues) {
  return useQuery(stockQueryOptions(filters));
}

export function provincesQueryOptions() {
  return queryOptions({
    queryKey: [...WAREHOUSE_KEY, 'provinces'] as const,
    queryFn: ({ signal }) => request<ProvinceAmount[]>(WAREHOUSE_API.provinces, { signal }),
  });
}

export function useProvinces() {
  return useQuery(provincesQueryOptions());
}

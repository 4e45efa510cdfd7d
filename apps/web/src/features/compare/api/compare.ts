// GET /api/iot/v2/compare (and /export): the chosen warehouses, vehicles or routes on one metric
// over two periods; GET /compare/routes and the warehouse and vehicle lists for the target picker.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ASSET_API, ASSET_RESOURCES, type AssetRow } from '@iotc/shared/asset';
import { COMPARE_API, type CompareAnswer, type CompareKind, type CompareQuery, type CompareRoutes } from '@iotc/shared/compare';
import { request } from '../../../api/client.ts';
import { assetLabel } from '../../../api/pickers.ts';
import { downloadFile, fetchList, type ExportFormat } from '../../../lib/list-query.ts';

export const COMPARE_KEY = ['compare'] as const;

/** The query values of a comparison: the targets as a JSON array (route keys may hold commas). */
const queryValues = (q: CompareQuery) => ({ ...q, ids: JSON.stringify(q.ids) });

export function compareQueryOptions(q: CompareQuery | null) {
  return queryOptions({
    queryKey: [...COMPARE_KEY, 'answer', q] as const,
    // A refusal (a period too long) is shown beside the pickers, so not notified twice.
    queryFn: ({ signal }) => request<CompareAnswer>(COMPARE_API.compare, { query: queryValues(q!), signal, silent: true }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
}

export function useCompare(q: CompareQuery | null) {
  return useQuery(compareQueryOptions(q));
}

export interface TargetOption {
  value: string;
  label: string;
}

/** Up to 100 warehouses or vehicles (the API's largest page), or the routes of the caller's tasks. */
export function targetOptions(kind: CompareKind) {
  return queryOptions({
    queryKey: [...COMPARE_KEY, 'targets', kind] as const,
    queryFn: async ({ signal }): Promise<TargetOption[]> => {
      if (kind === 'route') return (await request<CompareRoutes>(COMPARE_API.routes, { signal })).map((r) => ({ value: r.key, label: r.key }));
      const page = await fetchList<AssetRow>(`${ASSET_API.base}/${ASSET_RESOURCES[kind]}`, { page: 1, size: 100, filters: {} }, signal);
      return page.rows.map((a) => ({ value: a.id, label: assetLabel(a) }));
    },
    staleTime: 60_000,
  });
}

export function useTargets(kind: CompareKind, enabled: boolean) {
  return useQuery({ ...targetOptions(kind), enabled });
}

export function exportCompare(q: CompareQuery, format: ExportFormat): Promise<string> {
  return downloadFile(COMPARE_API.export, { ...queryValues(q), format }, `comparison.${format}`);
}

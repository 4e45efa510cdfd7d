// GET /api/iot/v2/reports/temperature: the GSP temperature and humidity record of an asset for a
// local day or month (JSON for the screen; PDF and Excel downloads), and the search of the assets
// that keep one, behind the screen's picker. Days are cut in the time zone of the client's headers.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ASSET_API, ASSET_RESOURCES, type AssetRow } from '@iotc/shared/asset';
import { GSP_REPORT_API, type GspAssetKind, type GspPeriod, type GspReport } from '@iotc/shared/gsp-report';
import { request } from '../../../api/client.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { downloadFile, fetchList } from '../../../lib/list-query.ts';

export interface GspRequest {
  assetId: string;
  period: GspPeriod;
  date: string;
}

export const GSP_REPORT_KEY = ['gspReport', 'temperature'] as const;

export function gspReportQueryOptions(query: GspRequest | null) {
  return queryOptions({
    queryKey: [...GSP_REPORT_KEY, query] as const,
    queryFn: ({ signal }) => request<GspReport>(GSP_REPORT_API.temperature, { query: { ...query!, format: 'json' }, signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

export function useGspReport(query: GspRequest | null) {
  return useQuery(gspReportQueryOptions(query));
}

export function downloadGspReport(query: GspRequest, format: 'pdf' | 'xlsx'): Promise<string> {
  return downloadFile(GSP_REPORT_API.temperature, { ...query, format }, `temperature-record-${query.date}.${format}`);
}

/** Picker options: the first 20 assets of a kind whose code or name contains `search`. */
export async function searchGspAssets(kind: GspAssetKind, search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await fetchList<AssetRow>(`${ASSET_API.base}/${ASSET_RESOURCES[kind]}`, { page: 1, size: 20, filters: search.trim() ? { keyword: search.trim() } : {} }, signal);
  return page.rows.map((r) => ({ value: r.id, label: `${r.code} · ${r.name}` }));
}

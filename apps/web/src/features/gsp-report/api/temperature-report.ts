// GET /api/iot/v2/reports/temperature: the GSP temperature and humidity record of an asset for a
// local day or month (JSON for the screen; PDF and Excel downloads). Days are cut in the time
// zone of the client's headers.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { GSP_REPORT_API, type GspPeriod, type GspReport } from '@iotc/shared/gsp-report';
import { request } from '../../../api/client.ts';
import { downloadFile } from '../../../lib/list-query.ts';

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

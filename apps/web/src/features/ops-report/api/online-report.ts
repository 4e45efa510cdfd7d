// GET /api/iot/v2/reports/online: each device's online rate per local day and over a day, week
// or month, its outages and the rate of all of them together (JSON for the screen; PDF and Excel
// downloads). Days are cut in the time zone of the client's headers.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPS_REPORT_API, type FileFormat, type OnlineReport } from '@iotc/shared/ops-report';
import { request } from '../../../api/client.ts';
import { downloadFile } from '../../../lib/list-query.ts';
import type { OpsQuery } from '../components/ops-report-model.ts';

export const ONLINE_REPORT_KEY = ['opsReport', 'online'] as const;

export function onlineReportQueryOptions(query: OpsQuery) {
  return queryOptions({
    queryKey: [...ONLINE_REPORT_KEY, query] as const,
    queryFn: ({ signal }) => request<OnlineReport>(OPS_REPORT_API.online, { query: { ...query, format: 'json' }, signal, silent: true }),
    placeholderData: keepPreviousData,
  });
}

export function useOnlineReport(query: OpsQuery) {
  return useQuery(onlineReportQueryOptions(query));
}

export function downloadOnlineReport(query: OpsQuery, format: FileFormat): Promise<string> {
  return downloadFile(OPS_REPORT_API.online, { ...query, format }, `online-rate-${query.date ?? ''}.${format}`);
}

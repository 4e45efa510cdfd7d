// GET /api/iot/v2/reports/mileage: the distance of each vehicle or container per local day of a
// day, week or month, with driving time, trips and top speed (JSON for the screen; PDF and Excel
// downloads). Days are cut in the time zone of the client's headers.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPS_REPORT_API, type FileFormat, type MileageReport } from '@iotc/shared/ops-report';
import { request } from '../../../api/client.ts';
import { downloadFile } from '../../../lib/list-query.ts';
import type { OpsQuery } from '../components/ops-report-model.ts';

export const MILEAGE_REPORT_KEY = ['opsReport', 'mileage'] as const;

export function mileageReportQueryOptions(query: OpsQuery) {
  return queryOptions({
    queryKey: [...MILEAGE_REPORT_KEY, query] as const,
    queryFn: ({ signal }) => request<MileageReport>(OPS_REPORT_API.mileage, { query: { ...query, format: 'json' }, signal, silent: true }),
    placeholderData: keepPreviousData,
  });
}

export function useMileageReport(query: OpsQuery) {
  return useQuery(mileageReportQueryOptions(query));
}

export function downloadMileageReport(query: OpsQuery, format: FileFormat): Promise<string> {
  return downloadFile(OPS_REPORT_API.mileage, { ...query, format }, `mileage-report-${query.date ?? ''}.${format}`);
}

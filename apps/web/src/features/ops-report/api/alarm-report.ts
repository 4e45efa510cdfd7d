// GET /api/iot/v2/reports/alarm: the alarms that started in a day, week or month, grouped by
// asset, device, type or level, with per-level counts, acknowledgement and duration figures and
// the count per day (JSON for the screen; PDF and Excel downloads). Days are cut in the time zone
// of the client's headers.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPS_REPORT_API, type AlarmReport, type FileFormat } from '@iotc/shared/ops-report';
import { request } from '../../../api/client.ts';
import { downloadFile } from '../../../lib/list-query.ts';
import type { OpsQuery } from '../components/ops-report-model.ts';

export const ALARM_REPORT_KEY = ['opsReport', 'alarm'] as const;

export function alarmReportQueryOptions(query: OpsQuery) {
  return queryOptions({
    queryKey: [...ALARM_REPORT_KEY, query] as const,
    // The screen shows a failure beside the filters that caused it.
    queryFn: ({ signal }) => request<AlarmReport>(OPS_REPORT_API.alarm, { query: { ...query, format: 'json' }, signal, silent: true }),
    placeholderData: keepPreviousData,
  });
}

export function useAlarmReport(query: OpsQuery) {
  return useQuery(alarmReportQueryOptions(query));
}

export function downloadAlarmReport(query: OpsQuery, format: FileFormat): Promise<string> {
  return downloadFile(OPS_REPORT_API.alarm, { ...query, format }, `alarm-report-${query.date ?? ''}.${format}`);
}

// GET /api/iot/v2/reports/shipment/:taskId: a task's shipment report as JSON for the dialog, and
// the same report as a PDF or an Excel file (raw readings), made by the server in the language and
// time zone the client's headers name. The token is a header, so the files come through the HTTP
// client rather than a plain link.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { REPORT_API, type ShipmentReport } from '@iotc/shared/report';
import { request } from '../../../api/client.ts';
import { downloadFile } from '../../../lib/list-query.ts';
import { TASK_KEY } from './tasks.ts';

export type ShipmentFileFormat = 'pdf' | 'xlsx';

export function shipmentReportQueryOptions(taskId: string) {
  return queryOptions({
    // Under the task's key: a task that changes makes its report stale too.
    queryKey: [...TASK_KEY, taskId, 'shipmentReport'] as const,
    queryFn: ({ signal }) => request<ShipmentReport>(REPORT_API.shipment(encodeURIComponent(taskId)), { signal }),
  });
}

export function useShipmentReport(taskId: string | null) {
  return useQuery({ ...shipmentReportQueryOptions(taskId ?? ''), enabled: !!taskId });
}

/** Saves the report as a file; answers the name the server gave it. */
export function downloadShipmentReport(taskId: string, format: ShipmentFileFormat, code: string): Promise<string> {
  return downloadFile(REPORT_API.shipment(encodeURIComponent(taskId)), { format }, `${code || 'shipment-report'}.${format}`);
}

// GET /api/iot/v2/warehouse-records/import-template and POST /import (the .xlsx file itself as the
// body): records from a sheet, pending review. A sheet with any error stores nothing.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportResult } from '@iotc/shared/asset';
import { WAREHOUSE_API } from '@iotc/shared/warehouse';
import { request } from '../../../api/client.ts';
import { downloadFile } from '../../../lib/list-query.ts';
import { invalidateWarehouse } from './records.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Reading a large sheet (and a reading per row) may take longer than the 20 s of a form call. */
const IMPORT_TIMEOUT_MS = 120_000;

export function downloadRecordTemplate(fallback: string): Promise<string> {
  return downloadFile(`${WAREHOUSE_API.records}/import-template`, {}, fallback);
}

export function importRecords(file: Blob): Promise<ImportResult> {
  return request<ImportResult>(`${WAREHOUSE_API.records}/import`, { method: 'POST', body: file, contentType: XLSX_TYPE, silent: true, timeoutMs: IMPORT_TIMEOUT_MS });
}

export function useImportRecords() {
  const client = useQueryClient();
  return useMutation({ mutationFn: importRecords, onSuccess: (r) => (r.errors.length === 0 ? invalidateWarehouse(client) : undefined) });
}

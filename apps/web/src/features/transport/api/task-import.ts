// GET /api/iot/v2/transport-tasks/import-template and POST /import (the .xlsx file itself as the
// body): tasks from a sheet. A sheet with any error stores nothing and answers its errors per row.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportResult } from '@iotc/shared/asset';
import { TRANSPORT_API } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { downloadFile } from '../../../lib/list-query.ts';
import { invalidateTasks } from './tasks.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Reading and checking a large sheet may take longer than the 20 s of a form call. */
const IMPORT_TIMEOUT_MS = 120_000;

export function downloadTaskTemplate(fallback: string): Promise<string> {
  return downloadFile(`${TRANSPORT_API.tasks}/import-template`, {}, fallback);
}

export function importTasks(file: Blob): Promise<ImportResult> {
  return request<ImportResult>(`${TRANSPORT_API.tasks}/import`, { method: 'POST', body: file, contentType: XLSX_TYPE, silent: true, timeoutMs: IMPORT_TIMEOUT_MS });
}

export function useImportTasks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importTasks,
    onSuccess: (result) => (result.errors.length === 0 ? invalidateTasks(client) : undefined),
  });
}

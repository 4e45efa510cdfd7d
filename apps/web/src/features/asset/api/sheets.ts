// The spreadsheet calls every resource (devices and each asset kind) has besides its export
// (exportList): GET <path>/import-template (the header row in the
// user's language) and POST <path>/import with the .xlsx file itself as the body. An import with
// any error stores nothing and answers the errors per sheet row.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportResult } from '@iotc/shared/asset';
import { request } from '../../../api/client.ts';
import { downloadFile } from '../../../lib/list-query.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Reading and checking a large sheet may take longer than the 20 s of a form call. */
const IMPORT_TIMEOUT_MS = 120_000;

export function downloadTemplate(path: string, fallback: string): Promise<string> {
  return downloadFile(`${path}/import-template`, {}, fallback);
}

export function importSheet({ path, file }: { path: string; file: Blob }): Promise<ImportResult> {
  return request<ImportResult>(`${path}/import`, { method: 'POST', body: file, contentType: XLSX_TYPE, silent: true, timeoutMs: IMPORT_TIMEOUT_MS });
}

export function useImportSheet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importSheet,
    // Created or changed rows show in this list; nothing changed when the sheet had errors.
    onSuccess: (result, { path }) => (result.errors.length === 0 ? client.invalidateQueries({ queryKey: ['list', path] }) : undefined),
  });
}

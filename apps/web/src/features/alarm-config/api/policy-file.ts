// The policies as a JSON file: GET /api/iot/v2/alarm-policies/export?ids=a,b (the given ones, or
// all the caller sees) downloads it; POST /api/iot/v2/alarm-policies/import?orgId= takes the
// file's JSON as the body and creates all its policies or, with any error, none.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ALARM_API } from '@iotc/shared/alarm';
import { request } from '../../../api/client.ts';
import { downloadFile } from '../../../lib/list-query.ts';
import { invalidatePolicies } from './policies.ts';

/** Downloads the file; answers its name. */
export function exportPolicies(ids: string[]): Promise<string> {
  return downloadFile(`${ALARM_API.policies}/export`, { ids: ids.length ? ids.join(',') : undefined }, 'alarm-policies.json');
}

export interface PolicyImport {
  /** The parsed content of the file. */
  file: unknown;
  /** The organisation the policies go to; the caller's own when absent. */
  orgId?: string;
}

export function importPolicies({ file, orgId }: PolicyImport): Promise<{ created: number }> {
  return request<{ created: number }>(`${ALARM_API.policies}/import`, { method: 'POST', body: file, query: { orgId }, silent: true });
}

export function useImportPolicies() {
  const client = useQueryClient();
  return useMutation({ mutationFn: importPolicies, onSuccess: () => invalidatePolicies(client) });
}

/** A picked file's text (Blob.text where the browser has it, else a FileReader). */
export function readFileText(file: Blob): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file);
  });
}

// GET /api/iot/v2/reports/temperature/signatures?assetId&period&date: the electronic signatures
// of an asset's GSP record (its day or month cut in the client's time zone), each with whether the
// record still matches what was signed; POST { assetId, period, date, meaning, password }: sign it
// as recorded (responsible) or reviewed (the reviewer is never the person who recorded it).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SIGNATURE_API, type GspSignBody, type SignatureRow } from '@iotc/shared/signature';
import { request } from '../../../api/client.ts';
import { invalidateSignatures } from '../../../api/signatures.ts';
import type { GspRequest } from './temperature-report.ts';

const gspSignaturesQuery = (key: GspRequest | null) =>
  queryOptions({
    // Under 'signatures', so a signing anywhere reads every shown list again.
    queryKey: ['signatures', 'gsp', key] as const,
    queryFn: ({ signal }) => request<SignatureRow[]>(SIGNATURE_API.gspSignatures, { signal, query: { ...key! } }),
    enabled: key !== null,
  });

export function useGspSignatures(key: GspRequest | null) {
  return useQuery(gspSignaturesQuery(key));
}

export function signGspRecord(body: GspSignBody): Promise<SignatureRow> {
  return request<SignatureRow>(SIGNATURE_API.gspSignatures, { method: 'POST', body, silent: true });
}

export function useSignGspRecord() {
  const client = useQueryClient();
  return useMutation({ mutationFn: signGspRecord, onSuccess: () => invalidateSignatures(client) });
}

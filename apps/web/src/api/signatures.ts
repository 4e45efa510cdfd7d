// GET /api/iot/v2/signatures?recordType&recordId: a record's electronic signatures, oldest first,
// each with whether the record still matches what was signed. Shared by the warehouse, remote
// control, work order and transport screens through components/signature-list.tsx.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { SIGNATURE_API, type SignatureRecordType, type SignatureRow } from '@iotc/shared/signature';
import { request } from './client.ts';

const SIGNATURES_KEY = ['signatures'] as const;

export function signaturesQuery(recordType: SignatureRecordType, recordId: string) {
  return queryOptions({
    queryKey: [...SIGNATURES_KEY, recordType, recordId] as const,
    queryFn: ({ signal }) => request<SignatureRow[]>(SIGNATURE_API.signatures, { signal, query: { recordType, recordId } }),
  });
}

export function useSignatures(recordType: SignatureRecordType, recordId: string | null | undefined) {
  return useQuery({ ...signaturesQuery(recordType, recordId ?? ''), enabled: !!recordId });
}

/** After a signing: every shown signature list reads again. */
export function invalidateSignatures(client: QueryClient) {
  return client.invalidateQueries({ queryKey: SIGNATURES_KEY });
}

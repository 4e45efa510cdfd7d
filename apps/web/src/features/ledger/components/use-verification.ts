// Runs the browser verifier over loaded pages; the result follows every new load (a reload after
// a row changed checks again).
import { useQuery } from '@tanstack/react-query';
import type { RecordsAnswer } from '@iotc/shared/ledger/api';
import { verifyPages } from '../lib/verify.ts';

export function useVerification(id: string, pages: readonly RecordsAnswer[] | undefined, loadedAt: number) {
  return useQuery({
    queryKey: ['ledger', 'verification', id, loadedAt] as const,
    queryFn: () => verifyPages(pages!),
    enabled: !!pages,
    staleTime: Infinity,
    gcTime: 0,
    structuralSharing: false,
  });
}

// GET /api/iot/v2/devices/:id/jt808: a JT/T 808 terminal's registration, connection now and a
// page of its last frames (newest first). Refreshed every 10 s while shown, so the troubleshooting
// table follows the terminal without a reload.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { JT808_API, type Jt808Terminal } from '@iotc/shared/jt808';
import { request } from '../../../api/client.ts';

export const JT808_TERMINAL_KEY = ['asset', 'jt808'] as const;

export function useJt808Terminal(id: string | undefined, page: number, size: number) {
  return useQuery({
    queryKey: [...JT808_TERMINAL_KEY, id, page, size],
    queryFn: ({ signal }) => request<Jt808Terminal>(JT808_API.terminal(encodeURIComponent(id!)), { query: { page, size }, signal }),
    enabled: !!id,
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
}

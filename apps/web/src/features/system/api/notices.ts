// GET and POST /api/iot/v2/platform/notices, DELETE .../:id: the platform notices, platform
// administrator only. Publishing or withdrawing one reads the list and the own inbox again.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { NOTICE_API, type NoticeBody, type NoticeRow } from '@iotc/shared/notice';
import { request } from '../../../api/client.ts';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

export function useNotices(state: ListState) {
  return useQuery(listQueryOptions<NoticeRow>(NOTICE_API.notices, state));
}

const changed = (client: QueryClient) =>
  Promise.all([client.invalidateQueries({ queryKey: ['list', NOTICE_API.notices] }), client.invalidateQueries({ queryKey: ['inbox'] })]);

export function usePublishNotice() {
  const client = useQueryClient();
  return useMutation({
    // Silent: the form shows a refusal next to its fields.
    mutationFn: (body: NoticeBody) => request<NoticeRow>(NOTICE_API.notices, { method: 'POST', body, silent: true }),
    onSuccess: () => changed(client),
  });
}

export function useWithdrawNotice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<null>(NOTICE_API.one(encodeURIComponent(id)), { method: 'DELETE', silent: true }),
    onSuccess: () => changed(client),
  });
}

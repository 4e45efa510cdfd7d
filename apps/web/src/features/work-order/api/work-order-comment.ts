// POST /api/iot/v2/work-orders/:id/comments { text }: a comment in the order's story
// (alarm:handle); the story is read again afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client.ts';
import { workOrderPath } from './work-order-detail.ts';
import { workOrderEventsQueryOptions } from './work-order-events.ts';

export function commentWorkOrder({ id, text }: { id: string; text: string }): Promise<unknown> {
  return request(`${workOrderPath(id)}/comments`, { method: 'POST', body: { text } });
}

export function useCommentWorkOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: commentWorkOrder,
    onSuccess: (_answer, { id }) => client.invalidateQueries({ queryKey: workOrderEventsQueryOptions(id).queryKey }),
  });
}

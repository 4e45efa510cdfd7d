// GET /api/iot/v2/outbox-messages: the outbox (mail and texts), rows made ready for the table
// (time in the user's time zone).
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { OUTBOX_API, type OutboxRow } from '@iotc/shared/outbox';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

export function useOutboxMessages(state: ListState) {
  return useQuery({
    ...listQueryOptions<OutboxRow>(OUTBOX_API.list, state),
    select: (page) => ({ ...page, rows: page.rows.map((r) => ({ ...r, createdAt: dayjs(r.createdAt).format(DATETIME_FORMAT) })) }),
  });
}

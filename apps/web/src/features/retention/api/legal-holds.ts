// GET /api/iot/v2/legal-holds: the legal holds of the caller's tree (those in force first), rows
// made ready for the table (times in the user's time zone).
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { RETENTION_API, type LegalHoldRow } from '@iotc/shared/retention';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** Every page of the list: what placing or releasing a hold invalidates. */
export const LEGAL_HOLDS_KEY = ['list', RETENTION_API.holds] as const;

export interface LegalHoldView extends LegalHoldRow {
  active: boolean;
}

export function useLegalHolds(state: ListState) {
  return useQuery({
    ...listQueryOptions<LegalHoldRow>(RETENTION_API.holds, state),
    select: (page) => ({
      ...page,
      rows: page.rows.map(
        (r): LegalHoldView => ({
          ...r,
          active: r.releasedAt === null,
          placedAt: dayjs(r.placedAt).format(DATETIME_FORMAT),
          releasedAt: r.releasedAt ? dayjs(r.releasedAt).format(DATETIME_FORMAT) : null,
        }),
      ),
    }),
  });
}

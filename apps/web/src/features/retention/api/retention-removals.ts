// GET /api/iot/v2/retention-removals: what retention removed in the caller's tree, newest first,
// rows made ready for the table (times in the user's time zone, the rule in the user's language).
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { RETENTION_API, type RetentionRemovalRow } from '@iotc/shared/retention';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';
import { policyText } from '../components/rules-model.ts';

export interface RemovalView extends RetentionRemovalRow {
  device: string;
}

export function useRetentionRemovals(state: ListState) {
  const { t } = useTranslation();
  return useQuery({
    ...listQueryOptions<RetentionRemovalRow>(RETENTION_API.removals, state),
    select: (page) => ({
      ...page,
      rows: page.rows.map(
        (r): RemovalView => ({
          ...r,
          device: r.deviceId ? (r.deviceName && r.deviceName !== r.deviceId ? `${r.deviceName} (${r.deviceId})` : r.deviceId) : r.deviceRef,
          fromTime: dayjs(r.fromTime).format(DATETIME_FORMAT),
          toTime: dayjs(r.toTime).format(DATETIME_FORMAT),
          removedAt: dayjs(r.removedAt).format(DATETIME_FORMAT),
          policy: policyText(t, r.policy),
        }),
      ),
    }),
  });
}

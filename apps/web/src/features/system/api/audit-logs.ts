// GET /api/iot/v2/audit-logs: the audit log list, and its export; rows made ready for the table
// (time in the user's time zone, recorded reasons in the user's language).
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { AuditLogRow } from '@iotc/shared/audit';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { errorText, isErrorCode } from '@iotc/shared/errors';
import type { Lang } from '@iotc/shared/i18n';
import { exportList, listQueryOptions, type ExportFormat, type ListState } from '../../../lib/list-query.ts';

export const AUDIT_LOGS_PATH = '/api/iot/v2/audit-logs';

/** A row as shown: `time` formatted in the user's time zone, the recorded reason worded. */
export interface AuditLogView extends AuditLogRow {
  detailText: string;
}

/** A recorded refusal is an error code: shown as its text; 'period=7' is the week login. */
function detailText(detail: string | null, lang: Lang, periodText: string): string {
  if (!detail) return '';
  if (detail === 'period=7') return periodText;
  return isErrorCode(detail) ? errorText(detail, lang) : detail;
}

export function useAuditLogs(state: ListState, lang: Lang, periodText: string) {
  return useQuery({
    ...listQueryOptions<AuditLogRow>(AUDIT_LOGS_PATH, state),
    select: (page) => ({
      ...page,
      rows: page.rows.map(
        (r): AuditLogView => ({ ...r, time: dayjs(r.time).format(DATETIME_FORMAT), detailText: detailText(r.detail, lang, periodText) }),
      ),
    }),
  });
}

export function exportAuditLogs(format: ExportFormat, state: ListState): Promise<string> {
  return exportList(AUDIT_LOGS_PATH, format, state);
}

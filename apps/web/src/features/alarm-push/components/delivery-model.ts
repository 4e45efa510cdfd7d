// What the delivery log shows of a delivery, as plain functions: status colours, the step and
// round, the target with its user, the last result, which deliveries may be sent again, and the
// log's filters as the API takes them.
import dayjs from 'dayjs';
import type { DeliveryRow, DeliveryStatus } from '@iotc/shared/alarm-push';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { FilterValues } from '../../../lib/list-query.ts';

/** Status tags: sent green, failed red, kept in the outbox amber, pending blue. */
export const DELIVERY_STATUS_COLORS: Record<DeliveryStatus, { background: string; color: string }> = {
  sent: { background: '#f6ffed', color: '#389e0d' },
  failed: { background: '#fff1f0', color: '#cf1322' },
  outbox: { background: '#fffbe6', color: '#d48806' },
  pending: { background: '#e6f4ff', color: '#0958d9' },
};

/** Failed ones and those kept in the outbox are worth sending again (the server takes any). */
export function canResend(row: Pick<DeliveryRow, 'status'>): boolean {
  return row.status === 'failed' || row.status === 'outbox';
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(DATETIME_FORMAT) : '';
}

/** The recipient: the user's name with the address it went to, else the address. */
export function targetText(row: Pick<DeliveryRow, 'target' | 'user'>): string {
  return row.user ? `${row.user.name} (${row.target})` : row.target;
}

/** The last answer: the HTTP status code and the error, whichever there are. */
export function resultText(row: { responseCode: number | null; lastError?: string | null; error?: string | null }): string {
  const error = row.lastError ?? row.error ?? null;
  return [row.responseCode !== null ? `HTTP ${row.responseCode}` : null, error].filter(Boolean).join(' · ');
}

/** The filter bar's range field: `timeFrom` / `timeTo` in the address. */
export const TIME_FILTER = 'time';

/** The address's filters as the deliveries endpoint takes them. */
export function deliveryFilters(filters: FilterValues): FilterValues {
  const out: FilterValues = {};
  for (const [key, value] of Object.entries(filters)) {
    if (key === `${TIME_FILTER}From`) out.from = value;
    else if (key === `${TIME_FILTER}To`) out.to = value;
    else if (['status', 'channel', 'ruleId', 'orgId', 'alarmId'].includes(key)) out[key] = value;
  }
  return out;
}

// The time window and order the alarm lists start with: the last 7 days, newest first.
import dayjs from 'dayjs';
import { LAST_WEEK_DAYS } from '@iotc/shared/constants';
import type { FilterValues } from '../../../lib/list-query.ts';
import { TIME_FILTER } from '../api/alarms.ts';

export const DEFAULT_SORT = 'startedAt,desc';
const FROM = `${TIME_FILTER}From`;
const TO = `${TIME_FILTER}To`;

/** The window shown when the address names none: the last 7 days. */
export function lastWeek(now = dayjs()): { from: string; to: string } {
  return { from: now.subtract(LAST_WEEK_DAYS, 'day').toISOString(), to: now.toISOString() };
}

/** The filters in force: the address's, with the default window where it names no time. */
export function withDefaultWindow(filters: FilterValues, fallback: { from: string; to: string }): FilterValues {
  if (filters[FROM] || filters[TO]) return filters;
  return { ...filters, [FROM]: fallback.from, [TO]: fallback.to };
}


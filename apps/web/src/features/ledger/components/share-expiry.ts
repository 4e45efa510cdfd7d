// A share link's expiry as the maker picks it: one of the offered spans (SHARE_EXPIRY_DAYS, 30
// days unless changed) or the last day it works (to the end of that day, local time), never
// further than MAX_SHARE_EXPIRY_DAYS: the body fields it sends and the moment it ends.
import dayjs, { type Dayjs } from 'dayjs';
import { DEFAULT_SHARE_EXPIRY_DAYS, MAX_SHARE_EXPIRY_DAYS, type ShareBody } from '@iotc/shared/ledger/api';

export type ExpiryChoice = { kind: 'days'; days: number } | { kind: 'date'; date: Dayjs | null };

export const DEFAULT_EXPIRY: ExpiryChoice = { kind: 'days', days: DEFAULT_SHARE_EXPIRY_DAYS };

const DAY_MS = 86_400_000;

/** A day the date picker refuses: one already over, or one whose end is past the longest expiry. */
export function dayOutOfRange(day: Dayjs, now = Date.now()): boolean {
  const end = day.endOf('day').valueOf();
  return end <= now || end > now + MAX_SHARE_EXPIRY_DAYS * DAY_MS;
}

/** The moment the link would end; null while no usable date is picked. */
export function expiryEnd(choice: ExpiryChoice, now = Date.now()): Dayjs | null {
  if (choice.kind === 'days') return dayjs(now + choice.days * DAY_MS);
  return choice.date && !dayOutOfRange(choice.date, now) ? choice.date.endOf('day') : null;
}

/** The fields of the share body for the choice; null while no usable date is picked. */
export function expiryFields(choice: ExpiryChoice, now = Date.now()): Pick<ShareBody, 'expiresInDays' | 'expiresAt'> | null {
  if (choice.kind === 'days') return { expiresInDays: choice.days };
  const end = expiryEnd(choice, now);
  return end ? { expiresAt: end.toISOString() } : null;
}

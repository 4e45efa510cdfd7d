// A share link's expiry as the dialog sends it: a span as days, a date as the end of that day
// (local time); a day already over or past five years is refused and nothing is sent for it.
import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { MAX_SHARE_EXPIRY_DAYS } from '@iotc/shared/ledger/api';
import { DEFAULT_EXPIRY, dayOutOfRange, expiryEnd, expiryFields } from './share-expiry.ts';

const NOW = dayjs('2026-11-25T10:30:00').valueOf();

describe('share expiry', () => {
  it('is 30 days by default, sent as days', () => {
    expect(expiryFields(DEFAULT_EXPIRY, NOW)).toEqual({ expiresInDays: 30 });
    expect(expiryEnd(DEFAULT_EXPIRY, NOW)!.valueOf()).toBe(NOW + 30 * 86_400_000);
    expect(expiryFields({ kind: 'days', days: 365 }, NOW)).toEqual({ expiresInDays: 365 });
  });

  it('ends a picked date at the end of that day', () => {
    const choice = { kind: 'date' as const, date: dayjs('2027-03-01T00:00:00') };
    expect(expiryEnd(choice, NOW)!.format('YYYY-MM-DD HH:mm:ss')).toBe('2027-03-01 23:59:59');
    expect(expiryFields(choice, NOW)).toEqual({ expiresAt: dayjs('2027-03-01T23:59:59.999').toISOString() });
    // Today still works until its end.
    expect(dayOutOfRange(dayjs(NOW), NOW)).toBe(false);
  });

  it('refuses a day already over, one past five years, and no day at all', () => {
    expect(dayOutOfRange(dayjs(NOW).subtract(1, 'day'), NOW)).toBe(true);
    const last = dayjs(NOW + MAX_SHARE_EXPIRY_DAYS * 86_400_000);
    expect(dayOutOfRange(last.subtract(1, 'day'), NOW)).toBe(false);
    expect(dayOutOfRange(last.add(1, 'day'), NOW)).toBe(true);
    expect(expiryFields({ kind: 'date', date: last.add(1, 'day') }, NOW)).toBeNull();
    expect(expiryFields({ kind: 'date', date: null }, NOW)).toBeNull();
    expect(expiryEnd({ kind: 'date', date: null }, NOW)).toBeNull();
  });
});

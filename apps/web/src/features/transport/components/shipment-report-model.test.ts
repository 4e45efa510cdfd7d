import { describe, expect, it } from 'vitest';
import { durationParts, hasShipmentReport, percent } from './shipment-report-model.ts';

describe('shipment report model', () => {
  it('offers a report for tasks that started, a cancelled one only if it had started', () => {
    expect(hasShipmentReport({ status: 'pending', startedAt: null })).toBe(false);
    for (const status of ['in_transit', 'arrived', 'completed'] as const) expect(hasShipmentReport({ status, startedAt: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(hasShipmentReport({ status: 'cancelled', startedAt: null })).toBe(false);
    expect(hasShipmentReport({ status: 'cancelled', startedAt: '2026-01-01T00:00:00Z' })).toBe(true);
  });

  it('splits durations into seconds, minutes, hours and days with padded minutes', () => {
    expect(durationParts(0)).toEqual({ unit: 'm', m: 0 });
    expect(durationParts(45)).toEqual({ unit: 's', s: 45 });
    expect(durationParts(5 * 60 + 20)).toEqual({ unit: 'm', m: 5 });
    expect(durationParts(3900)).toEqual({ unit: 'hm', h: 1, m: '05' });
    // 59 min 40 s rounds to a whole hour, not "0 h 60 min".
    expect(durationParts(3580)).toEqual({ unit: 'hm', h: 1, m: '00' });
    expect(durationParts(26 * 3600 + 7 * 60)).toEqual({ unit: 'dhm', d: 1, h: '02', m: '07' });
    expect(durationParts(Number.NaN)).toEqual({ unit: 'm', m: 0 });
  });

  it('shows shares as percentages with at most one decimal', () => {
    expect(percent(0.875)).toBe('87.5%');
    expect(percent(1)).toBe('100%');
    expect(percent(0.12345)).toBe('12.3%');
    expect(percent(null)).toBe('-');
  });
});

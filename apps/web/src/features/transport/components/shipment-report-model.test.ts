import { describe, expect, it } from 'vitest';
import { hasShipmentReport, percent } from './shipment-report-model.ts';

describe('shipment report model', () => {
  it('offers a report for tasks that started, a cancelled one only if it had started', () => {
    expect(hasShipmentReport({ status: 'pending', startedAt: null })).toBe(false);
    for (const status of ['in_transit', 'arrived', 'completed'] as const) expect(hasShipmentReport({ status, startedAt: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(hasShipmentReport({ status: 'cancelled', startedAt: null })).toBe(false);
    expect(hasShipmentReport({ status: 'cancelled', startedAt: '2026-01-01T00:00:00Z' })).toBe(true);
  });

  it('shows shares as percentages with at most one decimal', () => {
    expect(percent(0.875)).toBe('87.5%');
    expect(percent(1)).toBe('100%');
    expect(percent(0.12345)).toBe('12.3%');
    expect(percent(null)).toBe('-');
  });
});

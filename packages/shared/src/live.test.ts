// The status categories of the spec derived from the latest state: each boundary of speed,
// ignition and silence.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OFFLINE_AFTER_MS, deviceStatus, PARKED_BELOW_KMH } from './live.ts';

const now = Date.parse('2026-11-22T08:00:00Z');
const ago = (ms: number) => new Date(now - ms);
const status = (s: Partial<Parameters<typeof deviceStatus>[0]>) =>
  deviceStatus({ lastSeenAt: ago(1000), speed: 50, acc: true, ...s }, now, DEFAULT_OFFLINE_AFTER_MS);

describe('deviceStatus', () => {
  it('is unused before the first report', () => expect(status({ lastSeenAt: null })).toBe('unused'));
  it('is offline only when silent longer than the offline time', () => {
    expect(status({ lastSeenAt: ago(DEFAULT_OFFLINE_AFTER_MS) })).toBe('driving');
    expect(status({ lastSeenAt: ago(DEFAULT_OFFLINE_AFTER_MS + 1) })).toBe('offline');
    // Silence wins over a last report of ignition off.
    expect(status({ lastSeenAt: ago(DEFAULT_OFFLINE_AFTER_MS + 1), acc: false })).toBe('offline');
  });
  it('is shutdown when the last report said ignition off, whatever the speed', () => expect(status({ acc: false, speed: 30 })).toBe('shutdown'));
  it('is parked below the threshold or without a speed, driving at it', () => {
    expect(status({ speed: PARKED_BELOW_KMH - 0.1 })).toBe('parked');
    expect(status({ speed: null })).toBe('parked');
    expect(status({ speed: PARKED_BELOW_KMH })).toBe('driving');
    // No ignition flag at all (a cold room logger) is not shutdown.
    expect(status({ acc: null, speed: null })).toBe('parked');
  });
});

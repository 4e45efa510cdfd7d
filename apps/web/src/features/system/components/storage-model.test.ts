import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDays, formatShare, storageRowView } from './storage-model.ts';

describe('storage figures as people read them', () => {
  it('gives bytes in the largest unit with a whole number in front, per day when asked, in both languages', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(999, 'en')).toBe('999 B');
    expect(formatBytes(419, 'zh')).toBe('419 B');
    expect(formatBytes(5, 'en', { perDay: true })).toBe('5 B/d');
    expect(formatBytes(5, 'zh', { perDay: true })).toBe('5 B/天');
    expect(formatBytes(1_234, 'en')).toBe('1.23 kB');
    expect(formatBytes(12_345_678, 'en')).toBe('12.3 MB');
    expect(formatBytes(3_500_000_000, 'zh')).toBe('3.5 GB');
    expect(formatBytes(1_500_000, 'en', { perDay: true })).toBe('1.5 MB/d');
    expect(formatBytes(1_500_000, 'zh', { perDay: true })).toBe('1.5 MB/天');
    expect(formatBytes(-2_000, 'en', { perDay: true })).toBe('-2 kB/d');
    expect(formatBytes(null, 'en')).toBe('');
  });

  it('groups counts, gives shares as percentages and whole days left', () => {
    expect(formatCount(1_234_567, 'en')).toBe('1,234,567');
    expect(formatShare(0.1234, 'zh')).toBe('12.3%');
    expect(formatShare(null, 'en')).toBe('');
    expect(formatDays(120.9, 'en')).toBe('120 days');
    expect(formatDays(120.9, 'zh')).toBe('120天');
    expect(formatDays(null, 'en')).toBeNull();
  });

  it('makes a table row of an organisation, its bytes as rows and in packs added up', () => {
    const row = storageRowView(
      { orgId: 'o', orgCode: 'demo', orgName: 'Demo', day: '2026-11-27', rowReadings: 2000, packedReadings: 1500, packs: 3, rowBytes: 600_000, packBytes: 40_000, bytesPerReading: 320, growthPerDay: null, share: 0.5 },
      'en',
    );
    expect(row).toMatchObject({ orgName: 'Demo', rowReadings: '2,000', packedReadings: '1,500', packs: '3', bytes: '640 kB', bytesPerReading: '320 B', growthPerDay: '', share: '50%' });
  });
});

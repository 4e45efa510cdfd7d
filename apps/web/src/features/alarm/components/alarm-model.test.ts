import { describe, expect, it } from 'vitest';
import type { Page } from '@iotc/shared/envelope';
import type { AlarmRow } from '@iotc/shared/alarm';
import { alarm, MINOR, URGENT } from '../alarm-fixtures.ts';
import { AlarmBuffer, alarmPoints, formatDuration, knownLevels, levelPalette, levelsByCode, mergeActive, toAlarmView, valuePeakText } from './alarm-model.ts';
import { readableTextOn } from '../../../lib/color.ts';

const words = { days: (n: number) => `${n}d`, hours: (n: number) => `${n}h`, minutes: (n: number) => `${n}m`, seconds: (n: number) => `${n}s` };

function page(rows: AlarmRow[], over: Partial<Page<AlarmRow>> = {}): Page<AlarmRow> {
  return { rows, total: rows.length, page: 1, size: 50, ...over };
}
const batch = (...rows: AlarmRow[]) => new Map(rows.map((r) => [r.id, r]));
const ids = (p: Page<AlarmRow>) => p.rows.map((r) => r.device.name);

describe('mergeActive', () => {
  // Newest first: alarm 3 started at 03:00, 2 at 02:00, 1 at 01:00.
  const shown = page([alarm(3), alarm(2), alarm(1)]);

  it('drops a cleared or closed alarm from the list and the total', () => {
    const next = mergeActive(shown, batch(alarm(2, { status: 'cleared', endedAt: '2026-03-01T02:30:00Z' })));
    expect(ids(next)).toEqual(['Truck 3', 'Truck 1']);
    expect(next.total).toBe(2);
    const closed = mergeActive(next, batch(alarm(3, { status: 'closed' })));
    expect(ids(closed)).toEqual(['Truck 1']);
    expect(closed.total).toBe(1);
  });

  it('updates an acknowledged or repeated alarm in its place', () => {
    const next = mergeActive(shown, batch(alarm(2, { acknowledgedAt: '2026-03-01T02:10:00Z', acknowledgedBy: 'admin', count: 4 })));
    expect(ids(next)).toEqual(['Truck 3', 'Truck 2', 'Truck 1']);
    expect(next.rows[1]!.acknowledgedBy).toBe('admin');
    expect(next.rows[1]!.count).toBe(4);
    expect(next.total).toBe(3);
  });

  it('puts a new alarm in its place on the first page, which keeps its size', () => {
    const next = mergeActive(shown, batch(alarm(4)));
    expect(ids(next)).toEqual(['Truck 4', 'Truck 3', 'Truck 2', 'Truck 1']);
    expect(next.total).toBe(4);
    const full = mergeActive(page([alarm(3), alarm(2)], { size: 2, total: 7 }), batch(alarm(4)));
    expect(ids(full)).toEqual(['Truck 4', 'Truck 3']);
    expect(full.total).toBe(8);
  });

  it('leaves a later page as it is, counting a new alarm in the total', () => {
    const later = page([alarm(2), alarm(1)], { page: 2, total: 52 });
    const next = mergeActive(later, batch(alarm(5)));
    expect(ids(next)).toEqual(['Truck 2', 'Truck 1']);
    expect(next.total).toBe(53);
  });

  it('answers the same page when nothing on it changed', () => {
    expect(mergeActive(shown, batch(alarm(9, { status: 'cleared' })))).toBe(shown);
  });
});

describe('AlarmBuffer', () => {
  it('keeps the newest row of each alarm until it is flushed', () => {
    const buffer = new AlarmBuffer();
    const got: string[][] = [];
    const stop = buffer.subscribe((b) => got.push([...b.values()].map((r) => `${r.device.name}:${r.count}`)));
    buffer.push([alarm(1), alarm(2)]);
    buffer.push([alarm(1, { count: 2 })]);
    expect(got).toEqual([]);
    buffer.flush();
    buffer.flush();
    expect(got).toEqual([['Truck 1:2', 'Truck 2:1']]);
    stop();
  });
});

describe('alarm texts', () => {
  it('writes a duration with its two largest units', () => {
    expect(formatDuration(0, words)).toBe('0s');
    expect(formatDuration(42_000, words)).toBe('42s');
    expect(formatDuration(3_725_000, words)).toBe('1h 2m');
    expect(formatDuration(2 * 86_400_000 + 3_600_000 + 5_000, words)).toBe('2d 1h');
    expect(formatDuration(86_400_000 + 60_000, words)).toBe('1d');
  });

  it('shows value and peak with one unit, rounded', () => {
    expect(valuePeakText({ value: 9.3, peak: 12.156, unit: '°C' })).toBe('9.3 / 12.2 °C');
    expect(valuePeakText({ value: 111.78995078908814, peak: 118.04, unit: 'km/h' })).toBe('111.8 / 118 km/h');
    expect(valuePeakText({ value: 630, peak: 1410, unit: 's' }, 'zh')).toBe('10分30秒 / 23分30秒');
    expect(valuePeakText({ value: 1, peak: 1, unit: '' })).toBe('1 / 1');
    expect(valuePeakText({ value: null, peak: null, unit: '%' })).toBe('-');
  });

  it('makes a table row of an alarm', () => {
    const view = toAlarmView(alarm(1, { acknowledgedAt: '2026-03-01T01:10:00Z', acknowledgedBy: 'admin', endedAt: '2026-03-01T02:30:00Z' }), { duration: words, lang: 'en' });
    expect(view).toMatchObject({ priority: URGENT.id, deviceId: '860000000000001', deviceName: 'Truck 1', asset: 'Reefer 1 (沪A00001)', duration: '1h 30m', peak: '9.3 / 12.2 °C' });
    expect(view.acknowledged).toMatch(/^admin · 2026-03-01 \d\d:10:00$/);
  });

  it('writes dark text on light level colours', () => {
    expect(readableTextOn(MINOR.color)).toBe('rgba(0, 0, 0, 0.88)');
    expect(readableTextOn(URGENT.color)).toBe('#fff');
    expect(readableTextOn('#1677ff')).toBe('#fff');
  });
});

describe('map and levels', () => {
  it('places an alarm with a position, coloured by its level', () => {
    const points = alarmPoints([alarm(1), alarm(2, { lat: null, lon: null, level: MINOR })], (t) => t.toUpperCase());
    expect(points).toEqual([{ id: alarm(1).id, name: 'Truck 1 · TEMP_HIGH', status: URGENT.code, lat: 31.1, lon: 121 }]);
    const palette = levelPalette(levelsByCode(knownLevels([MINOR, URGENT])));
    expect(palette.severity).toEqual([URGENT.code, MINOR.code]);
    expect(palette.color(MINOR.code)).toBe(MINOR.color);
  });

  it('shows the same level of several organisations once, by code', () => {
    const otherUrgent = { ...URGENT, id: 'another-org-urgent' };
    expect(levelsByCode(knownLevels([MINOR, URGENT, otherUrgent])).map((l) => l.id)).toEqual([URGENT.code, MINOR.code]);
  });

  it('adds the levels rows name that the list lacks', () => {
    expect(knownLevels([MINOR], [alarm(1)]).map((l) => l.id)).toEqual([URGENT.id, MINOR.id]);
  });
});

// The GSP slot rule worked by hand: local days in a time zone (with a daylight saving day), the
// 30 / 5 / 2-minute grid, the reading nearest to a slot's start, and the summary.
import { describe, expect, it } from 'vitest';
import { gspDays, gspMode, gspReportQuerySchema, gspRows, gspSummary, isGspDate, isOutOfRange, nearestInSlot, type GspLimits, type GspReading } from './gsp-report.ts';

const MIN = 60_000;
const LIMITS: GspLimits = { tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: 75 };
const at = (iso: string) => Date.parse(iso);
const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);

/** One reading a minute from `from` for `minutes`, temperature by minute. */
function minutely(from: number, minutes: number, temp: (i: number) => number | null, humidity: number | null = 50): GspReading[] {
  return Array.from({ length: minutes }, (_, i) => ({ t: from + i * MIN, temp: temp(i), humidity }));
}

describe('periods in a time zone', () => {
  it('cuts a local day at local midnight', () => {
    expect(gspDays('day', '2026-11-02', 'Asia/Shanghai')).toEqual([{ date: '2026-11-02', from: at('2026-11-01T16:00:00Z'), to: at('2026-11-02T16:00:00Z') }]);
    expect(gspDays('day', '2026-11-02', 'UTC')[0]!.from).toBe(at('2026-11-02T00:00:00Z'));
  });

  it('has a 23-hour day when the clocks go forward', () => {
    const [d] = gspDays('day', '2026-03-08', 'America/New_York');
    expect(d!.from).toBe(at('2026-03-08T05:00:00Z'));
    expect(d!.to).toBe(at('2026-03-09T04:00:00Z'));
    expect(gspRows([], LIMITS, d!.from, d!.to, 30)).toHaveLength(46);
  });

  it('lists every day of a month', () => {
    const days = gspDays('month', '2026-02', 'Asia/Shanghai');
    expect(days).toHaveLength(28);
    expect(days[27]).toEqual({ date: '2026-02-28', from: at('2026-02-27T16:00:00Z'), to: at('2026-02-28T16:00:00Z') });
  });

  it('accepts only real dates of the period', () => {
    expect(isGspDate('day', '2026-02-29')).toBe(false);
    expect(isGspDate('day', '2028-02-29')).toBe(true);
    expect(isGspDate('month', '2026-13')).toBe(false);
    expect(isGspDate('month', '2026-11-02')).toBe(false);
    expect(gspReportQuerySchema.safeParse({ assetId: '00000000-0000-4000-8000-000000000001', period: 'month', date: '2026-11' }).success).toBe(true);
    expect(gspReportQuerySchema.safeParse({ assetId: '00000000-0000-4000-8000-000000000001', date: '2026-11' }).success).toBe(false);
  });
});

describe('the slot rule', () => {
  const day = gspDays('day', '2026-11-02', 'UTC')[0]!;

  it('records storage every 30 minutes, a slot without readings as no data', () => {
    const readings = minutely(day.from, 60, () => 5);
    const rows = gspRows(readings, LIMITS, day.from, day.to, 30);
    expect(rows).toHaveLength(48);
    expect(rows.slice(0, 3).map((r) => [hhmm(r.start), r.temp, r.inRange])).toEqual([
      ['00:00', 5, true],
      ['00:30', 5, true],
      ['01:00', null, null],
    ]);
    expect(gspSummary(rows)).toMatchObject({ slots: 48, slotsWithData: 2, completeness: 2 / 48, outOfRangeRows: 0, excursions: 0 });
  });

  it('switches a storage slot with a 20-minute excursion to 2-minute rows', () => {
    // 5 °C all day, 9 °C from 10:05 to 10:24 (20 readings).
    const exStart = day.from + 605 * MIN;
    const readings = minutely(day.from, 24 * 60, (i) => (i >= 605 && i < 625 ? 9 : 5));
    const rows = gspRows(readings, LIMITS, day.from, day.to, 30);
    expect(rows).toHaveLength(47 + 15);
    const split = rows.filter((r) => r.fine);
    expect(split.map((r) => hhmm(r.start))).toEqual(['10:00', '10:02', '10:04', '10:06', '10:08', '10:10', '10:12', '10:14', '10:16', '10:18', '10:20', '10:22', '10:24', '10:26', '10:28']);
    expect(split.map((r) => r.inRange)).toEqual([true, true, true, false, false, false, false, false, false, false, false, false, false, true, true]);
    expect(rows[rows.indexOf(split[0]!) - 1]).toMatchObject({ start: day.from + 570 * MIN, end: day.from + 600 * MIN, fine: false });
    expect(rows[rows.indexOf(split[14]!) + 1]).toMatchObject({ start: day.from + 630 * MIN, fine: false, inRange: true });
    const s = gspSummary(rows);
    // 10 rows of 2 minutes out of range, one run.
    expect(s).toMatchObject({ slots: 62, slotsWithData: 62, completeness: 1, outOfRangeRows: 10, excursions: 1, outOfRangeS: 1200 });
    // Time-weighted: 20 of 1440 minutes recorded at 9, the rest at 5.
    expect(s.temperature).toEqual({ min: 5, max: 9, average: Math.round(((9 * 20 + 5 * 1420) / 1440) * 100) / 100 });
    expect(exStart).toBe(day.from + 605 * MIN);
  });

  it('records transport every 5 minutes, an excursion slot as 2, 2 and 1 minutes', () => {
    const readings = minutely(day.from, 24 * 60, (i) => (i === 62 ? 1.5 : 4));
    const rows = gspRows(readings, LIMITS, day.from, day.to, 5);
    expect(rows).toHaveLength(287 + 3);
    expect(rows.slice(11, 16).map((r) => [hhmm(r.start), (r.end - r.start) / MIN, r.inRange])).toEqual([
      ['00:55', 5, true],
      ['01:00', 2, true],
      ['01:02', 2, false],
      ['01:04', 1, true],
      ['01:05', 5, true],
    ]);
    expect(gspSummary(rows)).toMatchObject({ outOfRangeRows: 1, outOfRangeS: 120, completeness: 1 });
  });

  it('counts humidity out of range too, and leaves out slots after now', () => {
    const readings = [{ t: day.from + MIN, temp: 5, humidity: 80 }];
    const rows = gspRows(readings, LIMITS, day.from, day.to, 30, day.from + 3 * 3600_000);
    expect(rows).toHaveLength(15 + 5);
    expect(rows[0]).toMatchObject({ humidity: 80, inRange: false, fine: true });
    expect(rows[1]).toMatchObject({ humidity: null, inRange: null, fine: true });
    expect(isOutOfRange({ temp: 8, humidity: 75 }, LIMITS)).toBe(false);
  });

  it('picks the reading nearest to the slot time within the slot', () => {
    const readings: GspReading[] = [
      { t: 100, temp: 1, humidity: null },
      { t: 1_000, temp: 2, humidity: null },
      { t: 1_900, temp: 3, humidity: null },
      { t: 2_500, temp: 4, humidity: null },
    ];
    expect(nearestInSlot(readings, 500, 2_000)?.temp).toBe(2);
    expect(nearestInSlot(readings, 500, 2_000, 1_800)?.temp).toBe(3);
    expect(nearestInSlot(readings, 2_000, 2_400)).toBeNull();
  });

  it('tells storage from transport', () => {
    expect(gspMode('cold_room')).toBe('storage');
    expect(gspMode('refrigerator')).toBe('storage');
    expect(gspMode('vehicle')).toBe('transport');
  });
});

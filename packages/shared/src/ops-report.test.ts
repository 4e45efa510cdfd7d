import { describe, expect, it } from 'vitest';
import { isReportDate, nextRunAt, previousPeriod, reportRange, scheduleBodySchema, alarmReportQuerySchema } from './ops-report.ts';

const SH = 'Asia/Shanghai';
const iso = (t: number) => new Date(t).toISOString();

describe('report periods', () => {
  it('a day, an ISO week from Monday and a calendar month, in the time zone', () => {
    const day = reportRange('day', '2026-11-24', SH);
    expect([day.start, day.end, iso(day.from), iso(day.to)]).toEqual(['2026-11-24', '2026-11-24', '2026-11-23T16:00:00.000Z', '2026-11-24T16:00:00.000Z']);
    const week = reportRange('week', '2026-11-29', SH); // a Sunday
    expect([week.start, week.end, week.days.length]).toEqual(['2026-11-23', '2026-11-29', 7]);
    const feb = reportRange('month', '2028-02-10', 'UTC');
    expect([feb.start, feb.end, feb.days.length]).toEqual(['2028-02-01', '2028-02-29', 29]);
  });

  it('a day of 23 hours across daylight saving time', () => {
    const d = reportRange('day', '2026-03-29', 'Europe/Berlin');
    expect(d.to - d.from).toBe(23 * 3_600_000);
  });

  it('a run reports the last whole period before it', () => {
    const t = Date.parse('2026-12-01T00:30:00Z'); // 08:30 on Tuesday 1 December in Shanghai
    expect(previousPeriod('day', t, SH).start).toBe('2026-11-30');
    const w = previousPeriod('week', t, SH);
    expect([w.start, w.end]).toEqual(['2026-11-23', '2026-11-29']);
    const m = previousPeriod('month', t, SH);
    expect([m.start, m.end]).toEqual(['2026-11-01', '2026-11-30']);
  });

  it('next runs: daily at the hour, weekly on Monday, monthly on the 1st', () => {
    const after = Date.parse('2026-11-24T00:30:00Z'); // 08:30 Tuesday in Shanghai
    expect(iso(nextRunAt('daily', 7, SH, after))).toBe('2026-11-24T23:00:00.000Z');
    expect(iso(nextRunAt('daily', 9, SH, after))).toBe('2026-11-24T01:00:00.000Z');
    expect(iso(nextRunAt('weekly', 7, SH, after))).toBe('2026-11-29T23:00:00.000Z');
    expect(iso(nextRunAt('monthly', 7, SH, after))).toBe('2026-11-30T23:00:00.000Z');
    // strictly after: a run at its own instant schedules the next one
    const at = nextRunAt('daily', 7, SH, after);
    expect(nextRunAt('daily', 7, SH, at) - at).toBe(86_400_000);
  });

  it('rejects dates that are not calendar days', () => {
    expect(isReportDate('2026-02-29')).toBe(false);
    expect(isReportDate('2028-02-29')).toBe(true);
    expect(isReportDate('2026-11')).toBe(false);
    expect(alarmReportQuerySchema.safeParse({ date: '2026-13-01' }).success).toBe(false);
    expect(alarmReportQuerySchema.parse({ date: '2026-11-24', assetIds: '' }).assetIds).toBeUndefined();
  });
});

describe('schedule body', () => {
  const base = { name: 'Daily alarms', kind: 'alarm', frequency: 'daily', timezone: SH, lang: 'zh', recipients: ['ops@example.com'] };
  it('accepts a plain schedule with defaults', () => {
    const b = scheduleBodySchema.parse(base);
    expect([b.hour, b.format, b.enabled, b.subjectIds]).toEqual([7, 'pdf', true, []]);
  });
  it('refuses a weekly GSP record, a record of no asset, bad mail and unknown zones', () => {
    expect(scheduleBodySchema.safeParse({ ...base, kind: 'temperature', frequency: 'weekly', subjectIds: ['0b5c1f4e-8d7a-4c1e-9a55-0c9f7a3b2d11'] }).success).toBe(false);
    expect(scheduleBodySchema.safeParse({ ...base, kind: 'temperature' }).success).toBe(false);
    expect(scheduleBodySchema.safeParse({ ...base, recipients: ['not-mail'] }).success).toBe(false);
    expect(scheduleBodySchema.safeParse({ ...base, recipients: [] }).success).toBe(false);
    expect(scheduleBodySchema.safeParse({ ...base, timezone: 'Mars/Olympus' }).success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import type { ScheduleRow } from '@iotc/shared/ops-report';
import { badRecipients, bodyIssues, frequencyFor, hourText, isFrequencyOffered, newValues, recipientsIssue, rowValues, scheduleBody, splitRecipients, subjectsFor, timeZones } from './schedule-model.ts';

const A = '00000000-0000-4000-8000-0000000000a1';
const B = '00000000-0000-4000-8000-0000000000b2';

describe('scheduled report form model', () => {
  it('starts a new schedule in the given language and time zone, daily at 07:00 as PDF', () => {
    expect(newValues('zh', 'Asia/Shanghai')).toEqual({ name: '', kind: 'alarm', frequency: 'daily', hour: 7, timezone: 'Asia/Shanghai', lang: 'zh', format: 'pdf', subjectIds: [], recipients: [], enabled: true });
    expect(hourText(7)).toBe('07:00');
  });

  it('offers the temperature record daily and monthly only', () => {
    expect(isFrequencyOffered('temperature', 'weekly')).toBe(false);
    expect(isFrequencyOffered('temperature', 'monthly')).toBe(true);
    expect(isFrequencyOffered('alarm', 'weekly')).toBe(true);
    expect(frequencyFor('temperature', 'weekly')).toBe('daily');
    expect(frequencyFor('mileage', 'weekly')).toBe('weekly');
  });

  it('keeps subjects across kinds only when they pick the same things', () => {
    expect(subjectsFor('alarm', 'mileage', [A, B])).toEqual([A, B]);
    expect(subjectsFor('alarm', 'temperature', [A, B])).toEqual([A]);
    expect(subjectsFor('alarm', 'online', [A])).toEqual([]);
    expect(subjectsFor('online', 'online', [A])).toEqual([A]);
  });

  it('splits, trims and de-duplicates recipients and finds the bad ones', () => {
    expect(splitRecipients([' a@x.com, b@x.com;A@X.com ', 'c@x.com'])).toEqual(['a@x.com', 'b@x.com', 'c@x.com']);
    expect(badRecipients(['a@x.com', 'nope', 'b@'])).toEqual(['nope', 'b@']);
    expect(recipientsIssue([])).toEqual({ code: 'none' });
    expect(recipientsIssue(['a@x.com', 'nope'])).toEqual({ code: 'bad', addresses: ['nope'] });
    expect(recipientsIssue(Array.from({ length: 21 }, (_, i) => `u${i}@x.com`))).toEqual({ code: 'tooMany', max: 20 });
    expect(recipientsIssue(['a@x.com'])).toBeNull();
  });

  it('sends a body the shared schema takes, and refuses what it refuses', () => {
    const ok = { ...newValues('en', 'UTC'), name: ' Daily alarms ', recipients: ['ops@x.com'] };
    expect(scheduleBody(ok)).toMatchObject({ name: 'Daily alarms', recipients: ['ops@x.com'] });
    expect(bodyIssues(ok)).toEqual({});
    expect(Object.keys(bodyIssues({ ...ok, kind: 'temperature', frequency: 'weekly', subjectIds: [A] }))).toEqual(['frequency']);
    expect(Object.keys(bodyIssues({ ...ok, kind: 'temperature', subjectIds: [] }))).toEqual(['subjectIds']);
    expect(Object.keys(bodyIssues({ ...ok, recipients: ['nope'] }))).toEqual(['recipients']);
  });

  it('reads a stored row back into the form', () => {
    const row: ScheduleRow = {
      id: 's1',
      name: 'Cold room',
      kind: 'temperature',
      frequency: 'monthly',
      hour: 6,
      timezone: 'Asia/Shanghai',
      lang: 'zh',
      format: 'xlsx',
      subjectIds: [A],
      recipients: ['qa@x.com'],
      enabled: false,
      nextRunAt: null,
      lastRunAt: null,
      lastStatus: null,
      createdBy: null,
      createdAt: '',
      updatedAt: '',
    };
    expect(rowValues(row)).toEqual({ name: 'Cold room', kind: 'temperature', frequency: 'monthly', hour: 6, timezone: 'Asia/Shanghai', lang: 'zh', format: 'xlsx', subjectIds: [A], recipients: ['qa@x.com'], enabled: false });
  });

  it('offers the time zones with the stored one kept in', () => {
    const zones = timeZones('Etc/GMT-8');
    expect(zones).toContain('UTC');
    expect(zones).toContain('Etc/GMT-8');
    expect(zones).toContain('Asia/Shanghai');
  });
});

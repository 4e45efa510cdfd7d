// The operations reports of the Reports menu (spec section 1, issue 8): alarm reports, device
// online rate and mileage, each for a local day, ISO week (Monday first) or month in the request's
// time zone, as JSON for the screen and as PDF / Excel files in the user's language; and the
// scheduled reports that mail one of these (or the GSP temperature record) to recipients every
// day, week or month.
//
// The period rule (pure, so the screen, the server and the scheduler agree):
// - `date` is any calendar day (YYYY-MM-DD) of the period; the period is the local day, the ISO
//   week (Monday to Sunday) or the calendar month that holds it, in the time zone.
// - A scheduled run at instant t reports the last whole period before t: yesterday, last week,
//   last month.
import { z } from 'zod';
import { localMidnight } from './gsp-report.ts';
import { ALARM_TYPES } from './alarm.ts';

export const REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
export const REPORT_FORMATS = ['json', 'pdf', 'xlsx'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const FILE_FORMATS = ['pdf', 'xlsx'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** Most devices or assets one operations report lists. */
export const MAX_REPORT_SUBJECTS = 500;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `date` is a real calendar day YYYY-MM-DD between 2000 and 2100. */
export function isReportDate(date: string): boolean {
  const m = DAY_RE.exec(date);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (y < 2000 || y > 2100 || mo < 1 || mo > 12) return false;
  return d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

export interface ReportDay {
  /** YYYY-MM-DD */
  date: string;
  from: number;
  to: number;
}

export interface ReportRange {
  period: ReportPeriod;
  /** First local day of the period, YYYY-MM-DD. */
  start: string;
  /** Last local day of the period, YYYY-MM-DD. */
  end: string;
  /** [from, to) as epoch ms. */
  from: number;
  to: number;
  days: ReportDay[];
}

function ymd(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
}

/** The local days of the period holding `date`, each [from, to) in `tz`. */
export function reportRange(period: ReportPeriod, date: string, tz: string): ReportRange {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  let firstDay: number;
  let count: number;
  if (period === 'day') {
    firstDay = d;
    count = 1;
  } else if (period === 'week') {
    const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7; // Monday 0
    firstDay = d - weekday;
    count = 7;
  } else {
    firstDay = 1;
    count = new Date(Date.UTC(y, m, 0)).getUTCDate();
  }
  const days: ReportDay[] = [];
  for (let i = 0; i < count; i++) {
    days.push({ date: ymd(y, m, firstDay + i), from: localMidnight(y, m, firstDay + i, tz), to: localMidnight(y, m, firstDay + i + 1, tz) });
  }
  return { period, start: days[0]!.date, end: days[days.length - 1]!.date, from: days[0]!.from, to: days[days.length - 1]!.to, days };
}

/** The local calendar day of instant `t` in `tz`, YYYY-MM-DD. */
export function localDate(t: number, tz: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(t));
}

/** The last whole period before instant `t` in `tz`: what a scheduled run at `t` reports. */
export function previousPeriod(period: ReportPeriod, t: number, tz: string): ReportRange {
  const today = localDate(t, tz);
  const current = reportRange(period, today, tz);
  const [y, m, d] = current.start.split('-').map(Number) as [number, number, number];
  return reportRange(period, ymd(y, m, d - 1), tz);
}

const periodQuery = {
  period: z.enum(REPORT_PERIODS).default('day'),
  /** Any day of the period, YYYY-MM-DD, in the request's time zone. */
  date: z.string().refine(isReportDate, { message: 'date must be a calendar day YYYY-MM-DD' }),
  format: z.enum(REPORT_FORMATS).default('json'),
};
const idList = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.split(',').map((s) => s.trim())) : v),
    z.array(z.uuid()).max(max).optional(),
  );

// ---- alarm report

export const ALARM_REPORT_GROUPS = ['asset', 'device', 'type', 'level'] as const;
export type AlarmReportGroup = (typeof ALARM_REPORT_GROUPS)[number];

export const alarmReportQuerySchema = z.object({
  ...periodQuery,
  groupBy: z.enum(ALARM_REPORT_GROUPS).default('asset'),
  /** Only these assets (comma-separated ids); all of the organisation's when left out. */
  assetIds: idList(MAX_REPORT_SUBJECTS),
  type: z.enum(ALARM_TYPES).optional(),
});
export type AlarmReportQuery = z.infer<typeof alarmReportQuerySchema>;

/** One group of alarms that started in the period. Durations in seconds. */
export const alarmReportRowSchema = z.object({
  key: z.string(),
  /** Asset or device name, or the type / level code (the screen translates those). */
  label: z.string(),
  total: z.number().int(),
  /** Per level code. */
  byLevel: z.record(z.string(), z.number().int()),
  acknowledged: z.number().int(),
  /** Still active at the end of the period. */
  open: z.number().int(),
  /** Mean time from start to the first acknowledgement, of the acknowledged ones. */
  meanAckS: z.number().nullable(),
  /** Mean time from start to clear or close, of the ended ones. */
  meanDurationS: z.number().nullable(),
  /** Active time inside the period, summed. */
  activeS: z.number(),
});
export type AlarmReportRow = z.infer<typeof alarmReportRowSchema>;

export const alarmReportSchema = z.object({
  period: z.enum(REPORT_PERIODS),
  start: z.string(),
  end: z.string(),
  timezone: z.string(),
  groupBy: z.enum(ALARM_REPORT_GROUPS),
  levels: z.array(z.object({ code: z.string(), name: z.string(), color: z.string() })),
  rows: z.array(alarmReportRowSchema),
  /** Alarms started per local day of the period, per level code. */
  perDay: z.array(z.object({ date: z.string(), byLevel: z.record(z.string(), z.number().int()), total: z.number().int() })),
  totals: alarmReportRowSchema.omit({ key: true, label: true }),
  generatedAt: z.string(),
});
export type AlarmReport = z.infer<typeof alarmReportSchema>;

// ---- device online rate

export const onlineReportQuerySchema = z.object({
  ...periodQuery,
  /** Only these devices (comma-separated ids); all of the organisation's when left out. */
  deviceIds: idList(MAX_REPORT_SUBJECTS),
});
export type OnlineReportQuery = z.infer<typeof onlineReportQuerySchema>;

/**
 * A device is online from each stored report for the offline threshold (OFFLINE_AFTER_SECONDS)
 * or until its next report, whichever comes first: online time is the union of those windows
 * inside the period; the rate is online time over the period's time (from the device's creation,
 * or its first stored report when that is earlier, when that falls inside the period).
 */
export const onlineReportRowSchema = z.object({
  deviceId: z.string(),
  name: z.string(),
  asset: z.string().nullable(),
  /** Rate per local day, 0..1, null before the device existed. */
  days: z.array(z.number().nullable()),
  onlineS: z.number(),
  expectedS: z.number(),
  rate: z.number().nullable(),
  /** Times the device went offline inside the period (gaps past the threshold). */
  outages: z.number().int(),
  longestOutageS: z.number(),
  reports: z.number().int(),
  lastSeenAt: z.string().nullable(),
});
export type OnlineReportRow = z.infer<typeof onlineReportRowSchema>;

export const onlineReportSchema = z.object({
  period: z.enum(REPORT_PERIODS),
  start: z.string(),
  end: z.string(),
  timezone: z.string(),
  offlineAfterS: z.number(),
  dates: z.array(z.string()),
  rows: z.array(onlineReportRowSchema),
  /** Rate of all listed devices together, per day and over the period. */
  overall: z.object({ days: z.array(z.number().nullable()), rate: z.number().nullable() }),
  generatedAt: z.string(),
});
export type OnlineReport = z.infer<typeof onlineReportSchema>;

// ---- mileage

export const mileageReportQuerySchema = z.object({
  ...periodQuery,
  /** Only these vehicles or containers (comma-separated asset ids); all of them when left out. */
  assetIds: idList(MAX_REPORT_SUBJECTS),
});
export type MileageReportQuery = z.infer<typeof mileageReportQuerySchema>;

/**
 * Distance per vehicle or container per local day, in km: from the odometer (`mileage` sensor,
 * last reading of the day minus last reading before it) where the device has one, else from the
 * GPS track (GPS jumps and LBS positions left out, as the trip detection does).
 */
export const mileageReportRowSchema = z.object({
  assetId: z.string(),
  name: z.string(),
  kind: z.string(),
  plate: z.string().nullable(),
  days: z.array(z.number().nullable()),
  totalKm: z.number(),
  source: z.enum(['odometer', 'gps', 'none']),
  /** Driving time (trips) and trips counted in the period. */
  drivingS: z.number(),
  trips: z.number().int(),
  maxSpeedKmh: z.number().nullable(),
});
export type MileageReportRow = z.infer<typeof mileageReportRowSchema>;

export const mileageReportSchema = z.object({
  period: z.enum(REPORT_PERIODS),
  start: z.string(),
  end: z.string(),
  timezone: z.string(),
  dates: z.array(z.string()),
  rows: z.array(mileageReportRowSchema),
  totalKm: z.number(),
  generatedAt: z.string(),
});
export type MileageReport = z.infer<typeof mileageReportSchema>;

// ---- scheduled reports

export const SCHEDULE_KINDS = ['temperature', 'alarm', 'online', 'mileage'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];
export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
/** The period a run of each frequency reports. */
export const PERIOD_OF_FREQUENCY: Record<ScheduleFrequency, ReportPeriod> = { daily: 'day', weekly: 'week', monthly: 'month' };
/** The GSP record exists for a day and a month only. */
export const FREQUENCIES_OF_KIND: Record<ScheduleKind, readonly ScheduleFrequency[]> = {
  temperature: ['daily', 'monthly'],
  alarm: SCHEDULE_FREQUENCIES,
  online: SCHEDULE_FREQUENCIES,
  mileage: SCHEDULE_FREQUENCIES,
};
export const MAX_SCHEDULE_RECIPIENTS = 20;
export const MAX_SCHEDULE_NAME = 64;

export const scheduleBodySchema = z
  .object({
    name: z.string().trim().min(1).max(MAX_SCHEDULE_NAME),
    kind: z.enum(SCHEDULE_KINDS),
    frequency: z.enum(SCHEDULE_FREQUENCIES),
    /** Local hour of the day the run is sent (0-23); weekly runs go on Monday, monthly on the 1st. */
    hour: z.number().int().min(0).max(23).default(7),
    timezone: z.string().refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, { message: 'unknown time zone' }),
    lang: z.enum(['zh', 'en']),
    format: z.enum(FILE_FORMATS).default('pdf'),
    /** temperature: exactly one asset; alarm and mileage: assets (empty = all); online: devices (empty = all). */
    subjectIds: z.array(z.uuid()).max(MAX_REPORT_SUBJECTS).default([]),
    recipients: z.array(z.email()).min(1).max(MAX_SCHEDULE_RECIPIENTS),
    enabled: z.boolean().default(true),
  })
  .superRefine((b, ctx) => {
    if (!FREQUENCIES_OF_KIND[b.kind].includes(b.frequency)) ctx.addIssue({ code: 'custom', path: ['frequency'], message: 'frequency not offered for this report' });
    if (b.kind === 'temperature' && b.subjectIds.length !== 1) ctx.addIssue({ code: 'custom', path: ['subjectIds'], message: 'the temperature record is of exactly one asset' });
  });
export type ScheduleBody = z.infer<typeof scheduleBodySchema>;
export type ScheduleInput = z.input<typeof scheduleBodySchema>;

export const SCHEDULE_RUN_STATUSES = ['sent', 'outbox', 'failed'] as const;
export type ScheduleRunStatus = (typeof SCHEDULE_RUN_STATUSES)[number];

export const scheduleRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(SCHEDULE_KINDS),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  hour: z.number().int(),
  timezone: z.string(),
  lang: z.enum(['zh', 'en']),
  format: z.enum(FILE_FORMATS),
  subjectIds: z.array(z.string()),
  recipients: z.array(z.string()),
  enabled: z.boolean(),
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastStatus: z.enum(SCHEDULE_RUN_STATUSES).nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ScheduleRow = z.infer<typeof scheduleRowSchema>;

export const scheduleRunSchema = z.object({
  id: z.string(),
  scheduleId: z.string(),
  /** The period reported. */
  start: z.string(),
  end: z.string(),
  status: z.enum(SCHEDULE_RUN_STATUSES),
  /** By the scheduler, or by a user's "send now". */
  manual: z.boolean(),
  filename: z.string().nullable(),
  recipients: z.array(z.string()),
  error: z.string().nullable(),
  at: z.string(),
});
export type ScheduleRun = z.infer<typeof scheduleRunSchema>;

/**
 * The next instant a schedule sends, strictly after `after`: the local `hour` on each day
 * (daily), on Mondays (weekly) or on the 1st of each month (monthly), in its time zone. The hour
 * is counted from local midnight, so on the day of a daylight saving change it is one hour off.
 */
export function nextRunAt(frequency: ScheduleFrequency, hour: number, tz: string, after: number): number {
  const today = localDate(after, tz);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  for (let i = 0; i <= 62; i++) {
    const day = new Date(Date.UTC(y, m - 1, d + i));
    const dd = day.getUTCDate();
    if (frequency === 'weekly' && day.getUTCDay() !== 1) continue;
    if (frequency === 'monthly' && dd !== 1) continue;
    const t = localMidnight(day.getUTCFullYear(), day.getUTCMonth() + 1, dd, tz) + hour * 3_600_000;
    if (t > after) return t;
  }
  throw new Error('no next run within two months');
}

export const OPS_REPORT_API = {
  alarm: '/api/iot/v2/reports/alarm',
  online: '/api/iot/v2/reports/online',
  mileage: '/api/iot/v2/reports/mileage',
  schedules: '/api/iot/v2/report-schedules',
} as const;

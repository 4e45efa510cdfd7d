// What the operations report screens (alarms, online rate, mileage) ask and show, worked out
// without React: the filters as the address holds them and as the API takes them, the week a
// picked day belongs to, the period's first and last day, and how durations, rates and
// distances are written.
import dayjs, { type Dayjs } from 'dayjs';
import { ALARM_TYPES, type AlarmType } from '@iotc/shared/alarm';
import type { Lang } from '@iotc/shared/i18n';
import { ALARM_REPORT_GROUPS, isReportDate, MAX_REPORT_SUBJECTS, REPORT_PERIODS, reportRange, type AlarmReportGroup, type ReportPeriod } from '@iotc/shared/ops-report';
import { PATTERNS } from '@iotc/shared/validation';

export interface OpsFilters {
  period: ReportPeriod;
  /** Any day of the period, YYYY-MM-DD (a week is kept as its Monday, a month as its 1st). */
  date: string;
  /** The assets or devices picked; none means all of them. */
  ids: string[];
  /** Alarm report only. */
  groupBy: AlarmReportGroup;
  /** Alarm report only. */
  type?: AlarmType;
}

export type OpsQuery = Record<string, string>;

function oneOf<T extends string>(list: readonly T[], text: string | null, fallback: T): T {
  return (list as readonly string[]).includes(text ?? '') ? (text as T) : fallback;
}

/** The Monday of the ISO week holding `d`, whatever day the user's calendar starts its weeks on. */
export function isoMonday(d: Dayjs): Dayjs {
  const day = d.startOf('day');
  return day.subtract((day.day() + 6) % 7, 'day');
}

/** The day the address keeps for a period holding `d`: the day, the week's Monday, the month's 1st. */
export function periodDate(period: ReportPeriod, d: Dayjs): string {
  if (period === 'week') return isoMonday(d).format('YYYY-MM-DD');
  if (period === 'month') return d.startOf('month').format('YYYY-MM-DD');
  return d.format('YYYY-MM-DD');
}

/**
 * The default period when the address names none: yesterday, the whole last day (today is not
 * over yet, and a report of a part of a day reads as a failure).
 */
function defaultDate(period: ReportPeriod, now: Dayjs): string {
  return periodDate(period, now.subtract(1, 'day'));
}

/** The filters of an address; anything missing or malformed falls back to yesterday, all subjects. */
export function parseOpsFilters(params: URLSearchParams, now: Dayjs = dayjs()): OpsFilters {
  const period = oneOf(REPORT_PERIODS, params.get('period'), 'day');
  const date = params.get('date') ?? '';
  const ids = (params.get('ids') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => PATTERNS.uuid.test(s))
    .slice(0, MAX_REPORT_SUBJECTS);
  const type = params.get('type');
  return {
    period,
    date: isReportDate(date) ? periodDate(period, dayjs(date)) : defaultDate(period, now),
    ids: [...new Set(ids)],
    groupBy: oneOf(ALARM_REPORT_GROUPS, params.get('groupBy'), 'asset'),
    ...((ALARM_TYPES as readonly string[]).includes(type ?? '') ? { type: type as AlarmType } : {}),
  };
}

/** A copy of `params` holding `f`; the defaults (no subjects, by asset, every type) are left out. */
export function writeOpsFilters(params: URLSearchParams, f: OpsFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('period', f.period);
  next.set('date', f.date);
  const put = (name: string, value: string | undefined, fallback?: string) => {
    if (!value || value === fallback) next.delete(name);
    else next.set(name, value);
  };
  put('ids', f.ids.join(','));
  put('groupBy', f.groupBy, 'asset');
  put('type', f.type);
  return next;
}

/** A new period keeps the picked day's period: the week or month that holds it. */
export function switchPeriod(f: OpsFilters, period: ReportPeriod): OpsFilters {
  return period === f.period ? f : { ...f, period, date: periodDate(period, dayjs(f.date)) };
}

const ids = (name: string, list: string[]): OpsQuery => (list.length ? { [name]: list.join(',') } : {});

export function alarmRequest(f: OpsFilters): OpsQuery {
  return { period: f.period, date: f.date, groupBy: f.groupBy, ...(f.type ? { type: f.type } : {}), ...ids('assetIds', f.ids) };
}

export function onlineRequest(f: OpsFilters): OpsQuery {
  return { period: f.period, date: f.date, ...ids('deviceIds', f.ids) };
}

export function mileageRequest(f: OpsFilters): OpsQuery {
  return { period: f.period, date: f.date, ...ids('assetIds', f.ids) };
}

/** The address of a report call (what the client sends): `path?name=value&...`, values encoded. */
export function reportUrl(path: string, query: OpsQuery): string {
  const search = new URLSearchParams(Object.entries(query)).toString();
  return search ? `${path}?${search}` : path;
}

/** The period as the screen names it: the day, "first ~ last" of a week, the month YYYY-MM. */
export function periodText(period: ReportPeriod, date: string): string {
  if (period === 'day') return date;
  if (period === 'month') return date.slice(0, 7);
  // The time zone does not move the days of a week, only their instants.
  const r = reportRange('week', date, 'UTC');
  return `${r.start} ~ ${r.end}`;
}

/** A day of the period as an axis or column label: MM-DD. */
export const dayLabel = (date: string) => date.slice(5);

/** Seconds as hours and minutes ("2 h 05 min", "2小时5分钟", "45 min", "< 1 min"); '—' when none. */
export function formatDuration(seconds: number | null | undefined, lang: Lang): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return lang === 'zh' ? '不足1分钟' : '< 1 min';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (lang === 'zh') return h ? `${h}小时${m}分钟` : `${m}分钟`;
  return h ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min`;
}

/** A rate 0..1 as a percentage with one decimal ("87.5%"); '—' when it cannot be told. */
export function percent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return '—';
  return `${(rate * 100).toFixed(1)}%`;
}

/** Kilometres with one decimal; '—' when none. */
export function km(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(1);
}

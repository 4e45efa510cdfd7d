// What the production reports screen asks and shows, worked out without React: the filters as
// the address holds them (dates of the user's calendar, the last one included) and as the API
// takes them (instants, the end excluded), the range presets, group labels and percentages.
import dayjs, { type Dayjs } from 'dayjs';
import { DATE_FORMAT } from '@iotc/shared/constants';
import { PATTERNS } from '@iotc/shared/validation';
import { MAX_PRODUCTION_DAYS, PRODUCTION_GROUPS, PRODUCTION_PERIODS, type ProductionGroup, type ProductionPeriod } from '@iotc/shared/report';

export interface ProductionFilters {
  /** First and last day of the range (YYYY-MM-DD, both included), in the user's time zone. */
  from: string;
  to: string;
  groupBy: ProductionGroup;
  period: ProductionPeriod;
  orgId?: string;
}

/** The query values of the report call and its export. */
export interface ProductionRequest {
  from: string;
  to: string;
  groupBy: ProductionGroup;
  period?: ProductionPeriod;
  orgId?: string;
}

export const PRESETS = ['thisMonth', 'lastMonth', 'last30Days', 'thisYear'] as const;
export type Preset = (typeof PRESETS)[number];

/** A preset's first and last day. */
export function presetRange(preset: Preset, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const today = now.startOf('day');
  switch (preset) {
    case 'thisMonth':
      return [today.startOf('month'), today.endOf('month').startOf('day')];
    case 'lastMonth': {
      const last = today.subtract(1, 'month');
      return [last.startOf('month'), last.endOf('month').startOf('day')];
    }
    case 'last30Days':
      return [today.subtract(29, 'day'), today];
    case 'thisYear':
      return [today.startOf('year'), today.endOf('year').startOf('day')];
  }
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD date that exists, else undefined (an address is user input). */
function dateOrUndefined(text: string | null): string | undefined {
  if (!text || !DATE_RE.test(text)) return undefined;
  const d = dayjs(text);
  return d.isValid() && d.format(DATE_FORMAT) === text ? text : undefined;
}

function oneOf<T extends string>(list: readonly T[], text: string | null, fallback: T): T {
  return (list as readonly string[]).includes(text ?? '') ? (text as T) : fallback;
}

/** The filters of an address; anything missing or malformed falls back to this month by day. */
export function parseFilters(params: URLSearchParams, now: Dayjs = dayjs()): ProductionFilters {
  let from = dateOrUndefined(params.get('from'));
  let to = dateOrUndefined(params.get('to'));
  if (!from || !to || to < from) {
    const [a, b] = presetRange('thisMonth', now);
    from = a.format(DATE_FORMAT);
    to = b.format(DATE_FORMAT);
  }
  const orgId = params.get('orgId')?.trim();
  return {
    from,
    to,
    groupBy: oneOf(PRODUCTION_GROUPS, params.get('groupBy'), 'period'),
    period: oneOf(PRODUCTION_PERIODS, params.get('period'), 'day'),
    ...(orgId && PATTERNS.uuid.test(orgId) ? { orgId } : {}),
  };
}

/** A copy of `params` holding `filters`; the defaults (by period, per day) are left out. */
export function writeFilters(params: URLSearchParams, filters: ProductionFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('from', filters.from);
  next.set('to', filters.to);
  const put = (name: string, value: string | undefined, fallback?: string) => {
    if (!value || value === fallback) next.delete(name);
    else next.set(name, value);
  };
  put('groupBy', filters.groupBy, 'period');
  put('period', filters.period, 'day');
  put('orgId', filters.orgId);
  return next;
}

/** The report call's values: the range as instants [first day 00:00, day after the last 00:00). */
export function productionRequest(f: ProductionFilters): ProductionRequest {
  return {
    from: dayjs(f.from).startOf('day').toISOString(),
    to: dayjs(f.to).add(1, 'day').startOf('day').toISOString(),
    groupBy: f.groupBy,
    ...(f.groupBy === 'period' ? { period: f.period } : {}),
    ...(f.orgId ? { orgId: f.orgId } : {}),
  };
}

/** Days from `from` to `to`, both included. */
export function rangeDays(from: Dayjs, to: Dayjs): number {
  return to.startOf('day').diff(from.startOf('day'), 'day') + 1;
}

/** Whether a day may end (or start) a range that begins (or ends) at `picked`: at most MAX_PRODUCTION_DAYS days. */
export function outsideMaxRange(day: Dayjs, picked: Dayjs | null | undefined): boolean {
  if (!picked) return false;
  const [a, b] = day.isBefore(picked) ? [day, picked] : [picked, day];
  return rangeDays(a, b) > MAX_PRODUCTION_DAYS;
}

/** A group's label: months as YYYY-MM, other periods by their first day; '' is `none`. */
export function keyLabel(key: string, groupBy: ProductionGroup, period: ProductionPeriod, none: string): string {
  if (!key) return none;
  if (groupBy === 'period' && period === 'month' && DATE_RE.test(key)) return key.slice(0, 7);
  return key;
}

/** A rate 0..1 as a percentage with at most one decimal ("87.5%", "100%"); '-' when none can be told. */
export function percent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return '-';
  return `${Number((rate * 100).toFixed(1))}%`;
}

/** Kilometres with one decimal from metres. */
export function km(m: number): string {
  return Number.isFinite(m) ? (m / 1000).toFixed(1) : '-';
}

/** A number with thousands grouped in the user's language. */
export function amount(n: number, lang: string): string {
  return n.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 2 });
}

// The comparison screen's state in the address (kind, targets, metric, the two periods as
// YYYY-MM-DD days, both ends included), its presets (this week vs last week, this month vs last
// month, weeks from Monday), the query it sends and the chart of period A beside period B.
import dayjs, { type Dayjs } from 'dayjs';
import { DATE_FORMAT } from '@iotc/shared/constants';
import {
  COMPARE_KINDS,
  MAX_COMPARE_TARGETS,
  METRICS_BY_KIND,
  MIN_COMPARE_TARGETS,
  type CompareKind,
  type CompareMetric,
  type CompareQuery,
  type CompareRow,
} from '@iotc/shared/compare';
import type { EChartOption } from '../../../components/chart/echart.tsx';

export const PRESETS = ['week', 'month'] as const;
export type Preset = (typeof PRESETS)[number];

export interface Span {
  from: string;
  to: string;
}

export interface CompareState {
  kind: CompareKind;
  ids: string[];
  metric: CompareMetric;
  a: Span;
  b: Span;
}

const mondayOf = (d: Dayjs) => d.subtract((d.day() + 6) % 7, 'day').startOf('day');
const span = (from: Dayjs, lastDay: Dayjs): Span => ({ from: from.format(DATE_FORMAT), to: lastDay.format(DATE_FORMAT) });

/** Period A the current week or month, period B the one before. */
export function presetSpans(preset: Preset, now = dayjs()): { a: Span; b: Span } {
  if (preset === 'week') {
    const monday = mondayOf(now);
    return { a: span(monday, monday.add(6, 'day')), b: span(monday.subtract(7, 'day'), monday.subtract(1, 'day')) };
  }
  const first = now.startOf('month');
  const prev = first.subtract(1, 'month');
  return { a: span(first, first.endOf('month')), b: span(prev, prev.endOf('month')) };
}

const isDay = (v: string | null): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v) && dayjs(v).isValid();

export function parseState(params: URLSearchParams): CompareState {
  const kindParam = params.get('kind');
  const kind: CompareKind = (COMPARE_KINDS as readonly string[]).includes(kindParam ?? '') ? (kindParam as CompareKind) : 'warehouse';
  const allowed = METRICS_BY_KIND[kind];
  const metricParam = params.get('metric');
  const metric = allowed.find((m) => m === metricParam) ?? allowed[0]!;
  const week = presetSpans('week');
  const spanOf = (key: 'a' | 'b'): Span => {
    const from = params.get(`${key}From`);
    const to = params.get(`${key}To`);
    return isDay(from) && isDay(to) && from <= to ? { from, to } : week[key];
  };
  return { kind, ids: [...new Set(params.getAll('id'))].slice(0, MAX_COMPARE_TARGETS), metric, a: spanOf('a'), b: spanOf('b') };
}

export function writeState(prev: URLSearchParams, s: CompareState): URLSearchParams {
  const next = new URLSearchParams(prev);
  for (const k of ['kind', 'id', 'metric', 'aFrom', 'aTo', 'bFrom', 'bTo']) next.delete(k);
  next.set('kind', s.kind);
  for (const id of s.ids) next.append('id', id);
  next.set('metric', s.metric);
  next.set('aFrom', s.a.from);
  next.set('aTo', s.a.to);
  next.set('bFrom', s.b.from);
  next.set('bTo', s.b.to);
  return next;
}

/** The query of the state, or null until two to six targets are picked. */
export function compareQuery(s: CompareState): CompareQuery | null {
  if (s.ids.length < MIN_COMPARE_TARGETS || s.ids.length > MAX_COMPARE_TARGETS) return null;
  // Local days, the last one included: [first day 00:00, day after the last 00:00).
  const instant = (day: string, after = false) => (after ? dayjs(day).add(1, 'day') : dayjs(day)).startOf('day').toISOString();
  return { kind: s.kind, ids: s.ids, metric: s.metric, aFrom: instant(s.a.from), aTo: instant(s.a.to, true), bFrom: instant(s.b.from), bTo: instant(s.b.to, true) };
}

/** A value with its unit's decimals; '-' when it cannot be told. */
export function formatValue(v: number | null): string {
  return v === null ? '-' : String(Math.round(v * 100) / 100);
}

/** The change of A against B: ▲ up, ▼ down, no arrow for none. */
export function formatChange(v: number | null): string {
  if (v === null) return '-';
  const abs = formatValue(Math.abs(v));
  return v > 0 ? `▲ ${abs}` : v < 0 ? `▼ ${abs}` : '0';
}

const A_COLOR = '#1677ff';
const B_COLOR = '#bfbfbf';

/** Bars of period A beside period B for every target. */
export function compareChartOption(rows: readonly CompareRow[], words: { a: string; b: string; unit: string }): EChartOption {
  return {
    grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, data: [words.a, words.b] },
    xAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { interval: 0, width: 120, overflow: 'truncate' } },
    yAxis: { type: 'value', name: words.unit },
    series: [
      { name: words.a, type: 'bar', data: rows.map((r) => r.a), itemStyle: { color: A_COLOR }, barMaxWidth: 32 },
      { name: words.b, type: 'bar', data: rows.map((r) => r.b), itemStyle: { color: B_COLOR }, barMaxWidth: 32 },
    ],
  };
}

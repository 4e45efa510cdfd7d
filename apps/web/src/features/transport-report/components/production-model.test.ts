import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { keyLabel, outsideMaxRange, parseFilters, percent, presetRange, productionRequest, rangeDays, writeFilters } from './production-model.ts';
import { periodChartOption, topChartOption, topRows } from './production-chart.ts';
import type { ProductionRow } from '@iotc/shared/report';

const NOW = dayjs('2028-02-15T10:30:00');
const ORG = '00000000-0000-4000-8000-000000000001';
const fmt = (d: dayjs.Dayjs) => d.format('YYYY-MM-DD');

function row(key: string, tasks: number, onTimeRate: number | null = null): ProductionRow {
  return { key, tasks, pending: 0, inTransit: 0, delivered: tasks, cancelled: 0, onTime: 0, late: 0, onTimeRate, withAlarms: 0, alarms: 0, alarmRate: null, distanceM: 0, goodsValue: 0 };
}

describe('production report model', () => {
  it('gives the presets as first and last day', () => {
    expect(presetRange('thisMonth', NOW).map(fmt)).toEqual(['2028-02-01', '2028-02-29']);
    expect(presetRange('lastMonth', NOW).map(fmt)).toEqual(['2028-01-01', '2028-01-31']);
    expect(presetRange('last30Days', NOW).map(fmt)).toEqual(['2028-01-17', '2028-02-15']);
    const [a, b] = presetRange('thisYear', NOW);
    expect([fmt(a), fmt(b)]).toEqual(['2028-01-01', '2028-12-31']);
    // A leap year is 366 days: still one report.
    expect(rangeDays(a, b)).toBe(366);
    expect(outsideMaxRange(b, a)).toBe(false);
    expect(outsideMaxRange(b.add(1, 'day'), a)).toBe(true);
    expect(outsideMaxRange(a.subtract(1, 'day'), b)).toBe(true);
    expect(outsideMaxRange(a, null)).toBe(false);
  });

  it('reads the address, falling back to this month by day, and writes it back', () => {
    expect(parseFilters(new URLSearchParams(''), NOW)).toEqual({ from: '2028-02-01', to: '2028-02-29', groupBy: 'period', period: 'day' });
    expect(parseFilters(new URLSearchParams('from=2028-02-30&to=2028-03-01&groupBy=x&period=year&orgId=1'), NOW)).toEqual({ from: '2028-02-01', to: '2028-02-29', groupBy: 'period', period: 'day' });
    expect(parseFilters(new URLSearchParams('from=2028-03-05&to=2028-03-01'), NOW).from).toBe('2028-02-01');
    const f = parseFilters(new URLSearchParams(`from=2027-01-01&to=2027-06-30&groupBy=route&period=month&orgId=${ORG}`), NOW);
    expect(f).toEqual({ from: '2027-01-01', to: '2027-06-30', groupBy: 'route', period: 'month', orgId: ORG });
    const written = writeFilters(new URLSearchParams('pid=7&orgId=x'), { ...f, orgId: undefined, groupBy: 'period', period: 'day' });
    expect(written.toString()).toBe('pid=7&from=2027-01-01&to=2027-06-30');
  });

  it('sends the range as instants, the last day included, and the period only when grouping by it', () => {
    const f = { from: '2028-03-01', to: '2028-03-31', groupBy: 'period' as const, period: 'week' as const };
    expect(productionRequest(f)).toEqual({ from: dayjs('2028-03-01T00:00:00').toISOString(), to: dayjs('2028-04-01T00:00:00').toISOString(), groupBy: 'period', period: 'week' });
    expect(productionRequest({ ...f, groupBy: 'vehicle', orgId: ORG })).toEqual({ from: dayjs('2028-03-01T00:00:00').toISOString(), to: dayjs('2028-04-01T00:00:00').toISOString(), groupBy: 'vehicle', orgId: ORG });
  });

  it('labels groups and rates', () => {
    expect(keyLabel('', 'customer', 'day', '(none)')).toBe('(none)');
    expect(keyLabel('2028-03-01', 'period', 'month', '(none)')).toBe('2028-03');
    expect(keyLabel('2028-03-06', 'period', 'week', '(none)')).toBe('2028-03-06');
    expect(percent(0.875)).toBe('87.5%');
    expect(percent(0)).toBe('0%');
    expect(percent(null)).toBe('-');
  });

  it('charts periods as bars with the on-time rate on a second axis, groups as the top 15 bars', () => {
    const words = { tasks: 'Tasks', onTimeRate: 'On-time rate (%)', label: (k: string) => k || '(none)' };
    const period = periodChartOption([row('2028-03-01', 4, 0.75), row('2028-03-02', 0, null)], words);
    const series = period.series as { type: string; data: unknown[]; yAxisIndex?: number }[];
    expect(series.map((s) => s.type)).toEqual(['bar', 'line']);
    expect(series[0]!.data).toEqual([4, 0]);
    expect(series[1]).toMatchObject({ yAxisIndex: 1, data: [75, null] });

    const many = Array.from({ length: 20 }, (_, i) => row(`C${i}`, i % 7));
    const top = topRows(many);
    expect(top).toHaveLength(15);
    expect(top.slice(0, 3).map((r) => r.key)).toEqual(['C6', 'C13', 'C5']);
    const option = topChartOption([row('', 3), row('A', 5)], words);
    expect((option.yAxis as { type: string; data: string[] }).type).toBe('category');
    expect((option.yAxis as { data: string[] }).data).toEqual(['(none)', 'A']);
  });
});

import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { OPS_REPORT_API, type AlarmReport, type MileageReport, type OnlineReport } from '@iotc/shared/ops-report';
import { alarmChartOption, lowestRates, mileageChartOption, onlineChartOption, STACKED_VEHICLES } from './ops-report-charts.ts';
import { alarmRequest, formatDuration, isoMonday, km, mileageRequest, onlineRequest, parseOpsFilters, percent, periodDate, periodText, reportUrl, switchPeriod, writeOpsFilters } from './ops-report-model.ts';

const A = '00000000-0000-4000-8000-0000000000a1';
const B = '00000000-0000-4000-8000-0000000000b2';
const NOW = dayjs('2026-11-24T09:00:00');

describe('operations report filters', () => {
  it('falls back to yesterday by day, all subjects, by asset', () => {
    expect(parseOpsFilters(new URLSearchParams(''), NOW)).toEqual({ period: 'day', date: '2026-11-23', ids: [], groupBy: 'asset' });
    expect(parseOpsFilters(new URLSearchParams('period=week'), NOW).date).toBe('2026-11-23');
    expect(parseOpsFilters(new URLSearchParams('period=month'), NOW).date).toBe('2026-11-01');
  });

  it('reads a shared address and drops what is malformed', () => {
    const f = parseOpsFilters(new URLSearchParams(`period=week&date=2026-11-05&ids=${A},nope,${B},${A}&groupBy=type&type=temp_high`), NOW);
    // A week is kept as its Monday.
    expect(f).toEqual({ period: 'week', date: '2026-11-02', ids: [A, B], groupBy: 'type', type: 'temp_high' });
    expect(parseOpsFilters(new URLSearchParams('period=year&date=2026-02-30&groupBy=x&type=y'), NOW)).toEqual({ period: 'day', date: '2026-11-23', ids: [], groupBy: 'asset' });
  });

  it('writes the filters, leaving the defaults out and other params alone', () => {
    const next = writeOpsFilters(new URLSearchParams('pid=7&type=light'), { period: 'month', date: '2026-10-01', ids: [A, B], groupBy: 'asset' });
    expect(next.toString()).toBe(`pid=7&period=month&date=2026-10-01&ids=${encodeURIComponent(`${A},${B}`)}`);
  });

  it('finds the ISO week whatever the calendar starts its weeks on', () => {
    expect(isoMonday(dayjs('2026-11-08')).format('YYYY-MM-DD')).toBe('2026-11-02'); // a Sunday
    expect(isoMonday(dayjs('2026-11-02')).format('YYYY-MM-DD')).toBe('2026-11-02');
    expect(periodDate('month', dayjs('2026-11-19'))).toBe('2026-11-01');
    expect(switchPeriod({ period: 'day', date: '2026-11-19', ids: [], groupBy: 'asset' }, 'week').date).toBe('2026-11-16');
    expect(periodText('week', '2026-11-16')).toBe('2026-11-16 ~ 2026-11-22');
    expect(periodText('month', '2026-11-01')).toBe('2026-11');
  });

  it('builds each report call from the filters', () => {
    const f = { period: 'week' as const, date: '2026-11-16', ids: [A, B], groupBy: 'level' as const, type: 'offline' as const };
    expect(alarmRequest(f)).toEqual({ period: 'week', date: '2026-11-16', groupBy: 'level', type: 'offline', assetIds: `${A},${B}` });
    expect(onlineRequest(f)).toEqual({ period: 'week', date: '2026-11-16', deviceIds: `${A},${B}` });
    expect(mileageRequest({ ...f, ids: [] })).toEqual({ period: 'week', date: '2026-11-16' });
    expect(reportUrl(OPS_REPORT_API.online, onlineRequest(f))).toBe(`/api/iot/v2/reports/online?period=week&date=2026-11-16&deviceIds=${A}%2C${B}`);
  });
});

describe('figures', () => {
  it('writes durations as hours and minutes in both languages', () => {
    expect(formatDuration(null, 'en')).toBe('—');
    expect(formatDuration(20, 'en')).toBe('< 1 min');
    expect(formatDuration(20, 'zh')).toBe('不足1分钟');
    expect(formatDuration(45 * 60, 'en')).toBe('45 min');
    expect(formatDuration(2 * 3600 + 5 * 60 + 20, 'en')).toBe('2 h 05 min');
    expect(formatDuration(2 * 3600 + 5 * 60, 'zh')).toBe('2小时5分钟');
    expect(formatDuration(26 * 3600, 'en')).toBe('26 h 00 min');
  });

  it('writes rates and kilometres', () => {
    expect(percent(0.8756)).toBe('87.6%');
    expect(percent(null)).toBe('—');
    expect(km(12.345)).toBe('12.3');
    expect(km(null)).toBe('—');
  });
});

const LEVELS = [
  { code: 'urgent', name: 'Urgent', color: '#f5222d' },
  { code: 'minor', name: 'Minor', color: '#fadb14' },
];
const totals = { total: 3, byLevel: { urgent: 2, minor: 1 }, acknowledged: 1, open: 1, meanAckS: 60, meanDurationS: 600, activeS: 1200 };

describe('chart options', () => {
  it('stacks the alarms of each day by level in the level colour', () => {
    const report: AlarmReport = {
      period: 'week',
      start: '2026-11-16',
      end: '2026-11-22',
      timezone: 'UTC',
      groupBy: 'asset',
      levels: LEVELS,
      rows: [],
      perDay: [
        { date: '2026-11-16', byLevel: { urgent: 2 }, total: 2 },
        { date: '2026-11-17', byLevel: { minor: 1 }, total: 1 },
      ],
      totals,
      generatedAt: '2026-11-23T00:00:00.000Z',
    };
    const o = alarmChartOption(report, { alarms: 'Alarms', levelName: (c) => c.toUpperCase() });
    expect((o.xAxis as { data: string[] }).data).toEqual(['11-16', '11-17']);
    const series = o.series as { name: string; stack: string; data: number[]; itemStyle: { color: string } }[];
    expect(series.map((s) => [s.name, s.stack, s.itemStyle.color, s.data])).toEqual([
      ['URGENT', 'alarms', '#f5222d', [2, 0]],
      ['MINOR', 'alarms', '#fadb14', [0, 1]],
    ]);
  });

  const onlineRow = (name: string, rate: number | null, days: (number | null)[] = [rate]) => ({ deviceId: name, name, asset: null, days, onlineS: 0, expectedS: 0, rate, outages: 0, longestOutageS: 0, reports: 0, lastSeenAt: null });
  const online = (period: OnlineReport['period'], rows: OnlineReport['rows']): OnlineReport => ({
    period,
    start: '2026-11-16',
    end: period === 'day' ? '2026-11-16' : '2026-11-17',
    timezone: 'UTC',
    offlineAfterS: 600,
    dates: period === 'day' ? ['2026-11-16'] : ['2026-11-16', '2026-11-17'],
    rows,
    overall: { days: period === 'day' ? [0.5] : [0.925, null], rate: 0.5 },
    generatedAt: '',
  });

  it('draws the overall online rate per day as a line in percent, a day without data as a gap', () => {
    const o = onlineChartOption(online('week', [onlineRow('a', 0.5, [0.5, null])]), { rate: 'Rate' });
    const s = (o.series as { type: string; data: (number | null)[] }[])[0]!;
    expect(s.type).toBe('line');
    expect(s.data).toEqual([92.5, null]);
  });

  it('shows the lowest-rate devices of one day as bars, lowest on top', () => {
    const report = online('day', [onlineRow('a', 0.9), onlineRow('b', 0.2), onlineRow('c', null), onlineRow('d', 0.5)]);
    expect(lowestRates(report).map((r) => r.name)).toEqual(['b', 'd', 'a']);
    const o = onlineChartOption(report, { rate: 'Rate' });
    expect((o.yAxis as { data: string[] }).data).toEqual(['a', 'd', 'b']);
    expect((o.series as { data: number[] }[])[0]!.data).toEqual([90, 50, 20]);
  });

  it('stacks kilometres per day by vehicle, the rest as "others"', () => {
    const vehicle = (i: number, days: number[]) => ({ assetId: `v${i}`, name: `V${i}`, kind: 'vehicle', plate: null, days, totalKm: days.reduce((a, b) => a + b, 0), source: 'gps' as const, drivingS: 0, trips: 0, maxSpeedKmh: null });
    const rows = Array.from({ length: STACKED_VEHICLES + 2 }, (_, i) => vehicle(i, [i, 1]));
    const report: MileageReport = { period: 'week', start: '2026-11-16', end: '2026-11-17', timezone: 'UTC', dates: ['2026-11-16', '2026-11-17'], rows, totalKm: 0, generatedAt: '' };
    const series = mileageChartOption(report, { km: 'km', others: 'Others' }).series as { name: string; data: number[] }[];
    expect(series).toHaveLength(STACKED_VEHICLES + 1);
    // Furthest first: V9 (10 km) leads; V0 and V1 add up to the others.
    expect(series[0]!.name).toBe('V9');
    expect(series.at(-1)).toMatchObject({ name: 'Others', data: [1, 2] });
    const day = mileageChartOption({ ...report, period: 'day' }, { km: 'km', others: 'Others' });
    expect((day.yAxis as { data: string[] }).data.at(-1)).toBe('V9');
  });
});

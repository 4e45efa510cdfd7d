// The chart options of the operations reports: alarms started per day as bars stacked by level
// in the level's colour; the online rate of all devices per day as a line (for one day, the
// devices with the lowest rate as horizontal bars); distance per day stacked by vehicle (for one
// day, the vehicles that went furthest as horizontal bars).
import type { AlarmReport, MileageReport, OnlineReport } from '@iotc/shared/ops-report';
import type { EChartOption } from '../../../components/chart/echart.tsx';
import { dayLabel } from './ops-report-model.ts';

/** Devices or vehicles a one-day chart shows. */
export const TOP_SUBJECTS = 15;
/** Vehicles a per-day mileage chart stacks by name; the rest add up to one "others" part. */
export const STACKED_VEHICLES = 8;

const RATE_COLOR = '#1677ff';
const OTHERS_COLOR = '#bfbfbf';
const PALETTE = ['#1677ff', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#faad14', '#a0d911'];

const percentValue = (r: number | null) => (r === null ? null : Math.round(r * 1000) / 10);
const oneDecimal = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);

export interface AlarmChartWords {
  levelName: (code: string) => string;
  alarms: string;
}

export function alarmChartOption(report: AlarmReport, w: AlarmChartWords): EChartOption {
  return {
    grid: { left: 48, right: 24, top: 40, bottom: 32 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, data: report.levels.map((l) => w.levelName(l.code)) },
    xAxis: { type: 'category', data: report.perDay.map((d) => dayLabel(d.date)) },
    yAxis: { type: 'value', name: w.alarms, minInterval: 1 },
    series: report.levels.map((l) => ({
      name: w.levelName(l.code),
      type: 'bar' as const,
      stack: 'alarms',
      barMaxWidth: 40,
      itemStyle: { color: l.color },
      data: report.perDay.map((d) => d.byLevel[l.code] ?? 0),
    })),
  };
}

export interface OnlineChartWords {
  rate: string;
}

/** The devices with the lowest rate (those without one left out), lowest first. */
export function lowestRates(report: OnlineReport): OnlineReport['rows'] {
  return report.rows
    .filter((r) => r.rate !== null)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.rate! - b.r.rate! || a.i - b.i)
    .slice(0, TOP_SUBJECTS)
    .map(({ r }) => r);
}

export function onlineChartOption(report: OnlineReport, w: OnlineChartWords): EChartOption {
  if (report.period === 'day') {
    // Drawn from the bottom up: reversed so the lowest rate is at the top.
    const rows = lowestRates(report).reverse();
    return {
      grid: { left: 8, right: 56, top: 16, bottom: 24, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v) => `${String(v)}%` },
      xAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
      yAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { width: 180, overflow: 'truncate' } },
      series: [{ name: w.rate, type: 'bar', data: rows.map((r) => percentValue(r.rate)), itemStyle: { color: RATE_COLOR }, barMaxWidth: 18, label: { show: true, position: 'right', formatter: '{c}%' } }],
    };
  }
  return {
    grid: { left: 48, right: 24, top: 32, bottom: 32 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => (v === null || v === undefined ? '—' : `${String(v)}%`) },
    xAxis: { type: 'category', data: report.dates.map(dayLabel) },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [
      {
        name: w.rate,
        type: 'line',
        data: report.overall.days.map(percentValue),
        itemStyle: { color: RATE_COLOR },
        areaStyle: { opacity: 0.15 },
        connectNulls: false,
        symbolSize: 6,
      },
    ],
  };
}

export interface MileageChartWords {
  km: string;
  others: string;
}

/** Vehicles by distance, furthest first (the earlier of equals first). */
function furthest(report: MileageReport): MileageReport['rows'] {
  return report.rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.totalKm - a.r.totalKm || a.i - b.i)
    .map(({ r }) => r);
}

export function mileageChartOption(report: MileageReport, w: MileageChartWords): EChartOption {
  const ranked = furthest(report);
  if (report.period === 'day') {
    const rows = ranked.slice(0, TOP_SUBJECTS).reverse();
    return {
      grid: { left: 8, right: 56, top: 16, bottom: 24, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'value', name: w.km },
      yAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { width: 180, overflow: 'truncate' } },
      series: [{ name: w.km, type: 'bar', data: rows.map((r) => oneDecimal(r.totalKm)), itemStyle: { color: PALETTE[0] }, barMaxWidth: 18, label: { show: true, position: 'right' } }],
    };
  }
  const named = ranked.slice(0, STACKED_VEHICLES);
  const rest = ranked.slice(STACKED_VEHICLES);
  const series: EChartOption['series'] = named.map((r, i) => ({
    name: r.name,
    type: 'bar' as const,
    stack: 'km',
    barMaxWidth: 40,
    itemStyle: { color: PALETTE[i % PALETTE.length] },
    data: report.dates.map((_, d) => oneDecimal(r.days[d] ?? null)),
  }));
  if (rest.length)
    series.push({
      name: w.others,
      type: 'bar',
      stack: 'km',
      barMaxWidth: 40,
      itemStyle: { color: OTHERS_COLOR },
      data: report.dates.map((_, d) => oneDecimal(rest.reduce((sum, r) => sum + (r.days[d] ?? 0), 0))),
    });
  return {
    grid: { left: 48, right: 24, top: 40, bottom: 32 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, type: 'scroll' },
    xAxis: { type: 'category', data: report.dates.map(dayLabel) },
    yAxis: { type: 'value', name: w.km },
    series,
  };
}

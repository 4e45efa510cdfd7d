// The production report's chart options: per period, bars of tasks with the on-time rate as a
// line on a second axis; per customer, route or vehicle, horizontal bars of the groups with the
// most tasks.
import type { ProductionRow } from '@iotc/shared/report';
import type { EChartOption } from '../../../components/chart/echart.tsx';
import '../../../components/chart/zoom.ts';

/** Groups the chart of a customer, route or vehicle report shows. */
export const TOP_GROUPS = 15;

const TASKS_COLOR = '#1677ff';
const RATE_COLOR = '#52c41a';

export interface ChartWords {
  tasks: string;
  onTimeRate: string;
  label: (key: string) => string;
}

/** On-time rate in percent with one decimal; null (a gap in the line) when it cannot be told. */
const ratePercent = (r: number | null) => (r === null ? null : Math.round(r * 1000) / 10);

export function periodChartOption(rows: readonly ProductionRow[], w: ChartWords): EChartOption {
  return {
    grid: { left: 48, right: 56, top: 40, bottom: 56 },
    tooltip: { trigger: 'axis' },
    legend: { top: 0, data: [w.tasks, w.onTimeRate] },
    dataZoom: rows.length > 31 ? [{ type: 'slider', height: 18, bottom: 8 }] : [],
    xAxis: { type: 'category', data: rows.map((r) => w.label(r.key)) },
    yAxis: [
      { type: 'value', name: w.tasks, minInterval: 1 },
      { type: 'value', name: '%', min: 0, max: 100, splitLine: { show: false } },
    ],
    series: [
      { name: w.tasks, type: 'bar', data: rows.map((r) => r.tasks), itemStyle: { color: TASKS_COLOR }, barMaxWidth: 32 },
      { name: w.onTimeRate, type: 'line', yAxisIndex: 1, data: rows.map((r) => ratePercent(r.onTimeRate)), itemStyle: { color: RATE_COLOR }, connectNulls: false },
    ],
  };
}

/** The TOP_GROUPS groups with the most tasks (the earlier of equals first), most at the top. */
export function topRows(rows: readonly ProductionRow[]): ProductionRow[] {
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.tasks - a.r.tasks || a.i - b.i)
    .slice(0, TOP_GROUPS)
    .map(({ r }) => r);
}

export function topChartOption(rows: readonly ProductionRow[], w: ChartWords): EChartOption {
  // ECharts draws a category axis from the bottom: reversed so the largest bar is on top.
  const top = topRows(rows).reverse();
  return {
    grid: { left: 8, right: 40, top: 16, bottom: 24, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: top.map((r) => w.label(r.key)), axisLabel: { width: 180, overflow: 'truncate' } },
    series: [{ name: w.tasks, type: 'bar', data: top.map((r) => r.tasks), itemStyle: { color: TASKS_COLOR }, barMaxWidth: 20, label: { show: true, position: 'right' } }],
  };
}

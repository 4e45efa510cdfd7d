// The details panel's curve: which sensors a 24-hour series can draw, and the ECharts option of
// one of them (limits of the bound asset as dashed lines with the allowed band shaded, the door
// as a 0/1 step line). Pure, so the panel and its tests share it.
import dayjs from 'dayjs';
import type { Series } from '@iotc/shared/live';
import type { EChartOption } from '../../../components/chart/echart.tsx';
import '../../../components/chart/marks.ts';
import { escapeHtml } from '../../../lib/html.ts';
import type { Limits } from './monitor-model.ts';

export { presentCurves, type CurveField, type CurveKey } from '../../../components/chart/curve-fields.ts';
import type { CurveField, CurveKey } from '../../../components/chart/curve-fields.ts';

/** The curve shown first: the one asked for when present, else temperature, else the first present. */
export function pickCurve(present: readonly CurveField[], wanted: CurveKey | undefined): CurveField | undefined {
  return present.find((f) => f.key === wanted) ?? present.find((f) => f.key === 'temperature') ?? present[0];
}

export interface CurveTexts {
  name: string;
  upper: string;
  lower: string;
  doorOpen: string;
  doorClosed: string;
}

function doorText(v: unknown, texts: CurveTexts): string {
  return v === 1 ? texts.doorOpen : v === 0 ? texts.doorClosed : '-';
}

/**
 * An axis from `lo` to `hi` on round ticks (1, 2 or 5 times a power of ten, about four of them)
 * with a tick of room at each end, so the bounds never show odd numbers.
 */
export function niceAxis(lo: number, hi: number): { min: number; max: number; interval: number } {
  const raw = Math.max(hi - lo, 1e-6) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const interval = [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw)!;
  // Rounded again: 0.1 * 3 must read 0.3, not 0.30000000000000004.
  const round = (v: number) => Number(v.toFixed(10));
  return { min: round((Math.floor(lo / interval) - 1) * interval), max: round((Math.ceil(hi / interval) + 1) * interval), interval: round(interval) };
}

export function detailCurveOption(input: {
  field: CurveField;
  series: Series;
  limits: Limits | null;
  /** The window, epoch ms. */
  from: number;
  to: number;
  texts: CurveTexts;
}): EChartOption {
  const { field, series, limits, from, to, texts } = input;
  const door = field.key === 'door';
  const values = series.values[field.key] ?? [];
  const data = series.times.map((t, i) => [Date.parse(t), values[i] ?? null] as [number, number | null]);
  const unit = field.unit ? ` ${field.unit}` : '';
  const marks: { yAxis: number; label: { formatter: string } }[] = [];
  if (limits?.max !== null && limits?.max !== undefined) marks.push({ yAxis: limits.max, label: { formatter: `${texts.upper} ${limits.max}${unit}` } });
  if (limits?.min !== null && limits?.min !== undefined) marks.push({ yAxis: limits.min, label: { formatter: `${texts.lower} ${limits.min}${unit}` } });
  const numbers = values.filter((v): v is number => typeof v === 'number');
  // The axis always takes in the limits, also when every reading stays far inside them.
  const bounds = [...numbers, ...marks.map((m) => m.yAxis)];
  const axis = bounds.length ? niceAxis(Math.min(...bounds), Math.max(...bounds)) : undefined;

  return {
    animation: false,
    grid: { left: 44, right: 16, top: 24, bottom: 28 },
    tooltip: {
      trigger: 'axis',
      formatter: (params: unknown) => {
        const first = (Array.isArray(params) ? params[0] : params) as { value?: unknown; marker?: string } | undefined;
        const point = Array.isArray(first?.value) ? (first.value as unknown[]) : [];
        const time = typeof point[0] === 'number' ? dayjs(point[0]).format('MM-DD HH:mm:ss') : '';
        const v = point[1];
        const shown = door ? doorText(v, texts) : typeof v === 'number' ? `${v.toFixed(field.precision)}${unit}` : '-';
        return `${escapeHtml(time)}<br/>${first?.marker ?? ''}${escapeHtml(texts.name)}: <b>${escapeHtml(shown)}</b>`;
      },
    },
    xAxis: {
      type: 'time',
      min: from,
      max: to,
      axisLabel: { hideOverlap: true, color: 'rgba(0,0,0,0.55)', formatter: (v: number) => dayjs(v).format('HH:mm') },
      axisLine: { lineStyle: { color: '#d9d9d9' } },
      splitLine: { show: false },
    },
    yAxis: door
      ? { type: 'value', min: 0, max: 1, interval: 1, axisLabel: { formatter: (v: number) => doorText(v, texts), color: 'rgba(0,0,0,0.55)' } }
      : {
          type: 'value',
          min: axis?.min,
          max: axis?.max,
          interval: axis?.interval,
          axisLabel: { color: 'rgba(0,0,0,0.55)' },
          splitLine: { lineStyle: { type: 'dashed', color: '#f0f0f0' } },
        },
    series: [
      {
        type: 'line',
        name: texts.name,
        data,
        showSymbol: false,
        connectNulls: false,
        step: door ? 'end' : undefined,
        sampling: door ? undefined : 'lttb',
        color: field.color,
        lineStyle: { width: 1.5 },
        // Only the door is filled: under a reading the fill would read as a band of its own.
        areaStyle: door ? { opacity: 0.15, origin: 'start' } : undefined,
        markLine: marks.length
          ? { silent: true, symbol: 'none', lineStyle: { type: 'dashed', color: '#ff4d4f', width: 1 }, label: { position: 'insideEndTop', color: '#cf1322', fontSize: 11 }, data: marks }
          : undefined,
        markArea:
          limits && limits.min !== null && limits.max !== null
            ? { silent: true, itemStyle: { color: 'rgba(82,196,26,0.07)' }, data: [[{ yAxis: limits.min }, { yAxis: limits.max }]] }
            : undefined,
      },
    ],
  };
}

// What the sensor curves draw: which sensors of a series have values (in the console's order),
// the unit and colour of each, simple statistics, and the ECharts option of one small-multiple
// chart (time axis over the whole window, limits of the bound asset as mark lines, door as a
// 0/1 step line). Pure functions, so the screen and its tests share them.
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { BoundAsset } from '@iotc/shared/live';
import type { EChartOption } from '../../../components/chart/echart.tsx';
import '../../../components/chart/zoom.ts';
import '../../../components/chart/marks.ts';
import { escapeHtml } from '../../../lib/html.ts';

export { CURVE_FIELDS, presentCurves, type CurveField, type CurveKey } from '../../../components/chart/curve-fields.ts';
import type { CurveField, CurveKey } from '../../../components/chart/curve-fields.ts';

export interface CurveStats {
  min: number;
  max: number;
  avg: number;
  last: number;
  count: number;
}

export function curveStats(values: readonly (number | null | undefined)[]): CurveStats | null {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  let last: number | null = null;
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
    count += 1;
    last = v;
  }
  return count === 0 || last === null ? null : { min, max, avg: sum / count, last, count };
}

export function formatValue(value: number, precision: number): string {
  return value.toFixed(precision);
}

/** The range limits a curve is held to: the bound asset's temperature or humidity range. */
export interface CurveLimits {
  min: number | null;
  max: number | null;
}

export function curveLimits(key: CurveKey, asset: BoundAsset | null | undefined): CurveLimits | null {
  if (!asset) return null;
  const limits =
    key === 'temperature' ? { min: asset.tempMin, max: asset.tempMax } : key === 'humidity' ? { min: asset.humidityMin, max: asset.humidityMax } : null;
  return limits && (limits.min !== null || limits.max !== null) ? limits : null;
}

export interface CurveTexts {
  /** The curve's name in the user's language. */
  name: string;
  upper: string;
  lower: string;
  doorOpen: string;
  doorClosed: string;
}

export interface CurveOptionInput {
  field: CurveField;
  /** Epoch milliseconds of each point. */
  times: readonly number[];
  values: readonly (number | null)[];
  /** The queried window (epoch ms): every chart spans it, so the charts line up. */
  from: number;
  to: number;
  limits: CurveLimits | null;
  texts: CurveTexts;
  /** The last chart of the stack carries the visible zoom slider. */
  withSlider: boolean;
}

/** Ids shared by every chart of the stack, so a connected zoom finds its twin in each. */
const ZOOM_INSIDE = 'zoom-inside';
const ZOOM_SLIDER = 'zoom-slider';

function doorText(v: unknown, texts: CurveTexts): string {
  return v === 1 ? texts.doorOpen : v === 0 ? texts.doorClosed : '-';
}

function limitLabel(prefix: string, value: number, field: CurveField): string {
  return `${prefix} ${value}${field.unit ? ` ${field.unit}` : ''}`;
}

/**
 * An axis from `lo` to `hi` on round ticks (1, 2 or 5 times a power of ten, about five of them)
 * with a tick of room on each side, so fixed bounds never leave odd labels at the ends.
 */
export function niceAxis(lo: number, hi: number): { min: number; max: number; interval: number } {
  const range = Math.max(hi - lo, 1e-9);
  const raw = range / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const interval = [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw)!;
  // Rounded again: 0.1 * 3 must read 0.3, not 0.30000000000000004.
  const round = (v: number) => Number(v.toFixed(10));
  return { min: round((Math.floor(lo / interval) - 1) * interval), max: round((Math.ceil(hi / interval) + 1) * interval), interval };
}

export function curveOption({ field, times, values, from, to, limits, texts, withSlider }: CurveOptionInput): EChartOption {
  const door = field.key === 'door';
  const data = times.map((t, i) => [t, values[i] ?? null] as [number, number | null]);
  const stats = curveStats(values);
  const marks: { yAxis: number; name: string; label: { formatter: string } }[] = [];
  if (limits?.max !== null && limits?.max !== undefined) marks.push({ yAxis: limits.max, name: 'max', label: { formatter: limitLabel(texts.upper, limits.max, field) } });
  if (limits?.min !== null && limits?.min !== undefined) marks.push({ yAxis: limits.min, name: 'min', label: { formatter: limitLabel(texts.lower, limits.min, field) } });

  // The axis must show the limits even when every reading stays far inside them.
  const span = !door && stats && marks.length > 0 ? niceAxis(Math.min(stats.min, ...marks.map((m) => m.yAxis)), Math.max(stats.max, ...marks.map((m) => m.yAxis))) : undefined;

  return {
    animation: false,
    grid: { left: 56, right: 96, top: 16, bottom: withSlider ? 64 : 28 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'line', snap: true },
      formatter: (params: unknown) => {
        const list = (Array.isArray(params) ? params : [params]) as { value?: unknown; marker?: string }[];
        const first = list[0];
        const point = Array.isArray(first?.value) ? (first.value as unknown[]) : [];
        const time = typeof point[0] === 'number' ? dayjs(point[0]).format(DATETIME_FORMAT) : '';
        const v = point[1];
        const shown = door ? doorText(v, texts) : typeof v === 'number' ? `${formatValue(v, field.precision)}${field.unit ? ` ${field.unit}` : ''}` : '-';
        return `${escapeHtml(time)}<br/>${first?.marker ?? ''}${escapeHtml(texts.name)}: <b>${escapeHtml(shown)}</b>`;
      },
    },
    xAxis: {
      type: 'time',
      min: from,
      max: to,
      axisLabel: { hideOverlap: true, color: 'rgba(0,0,0,0.55)' },
      axisLine: { lineStyle: { color: '#d9d9d9' } },
      splitLine: { show: false },
    },
    yAxis: door
      ? {
          type: 'value',
          min: 0,
          max: 1,
          interval: 1,
          axisLabel: { formatter: (v: number) => doorText(v, texts), color: 'rgba(0,0,0,0.55)' },
          splitLine: { lineStyle: { type: 'dashed', color: '#f0f0f0' } },
        }
      : {
          type: 'value',
          scale: true,
          min: span?.min,
          max: span?.max,
          interval: span?.interval,
          axisLabel: { color: 'rgba(0,0,0,0.55)' },
          splitLine: { lineStyle: { type: 'dashed', color: '#f0f0f0' } },
        },
    dataZoom: [
      // The wheel scrolls the page past the stack; Ctrl + wheel (or a drag, or the slider) zooms.
      { type: 'inside', id: ZOOM_INSIDE, xAxisIndex: 0, filterMode: 'none', zoomOnMouseWheel: 'ctrl', moveOnMouseWheel: false, preventDefaultMouseMove: false },
      { type: 'slider', id: ZOOM_SLIDER, xAxisIndex: 0, filterMode: 'none', show: withSlider, height: 20, bottom: 10, labelFormatter: (v: number) => dayjs(v).format('MM-DD HH:mm') },
    ],
    series: [
      {
        type: 'line',
        name: texts.name,
        data,
        showSymbol: false,
        symbolSize: 4,
        connectNulls: false,
        step: door ? 'end' : undefined,
        sampling: door ? undefined : 'lttb',
        color: field.color,
        lineStyle: { width: 1.5 },
        // Filled down to the axis floor, also for readings below zero (a freezer).
        areaStyle: { opacity: door ? 0.15 : 0.06, origin: 'start' },
        markLine:
          marks.length > 0
            ? {
                silent: true,
                symbol: 'none',
                lineStyle: { type: 'dashed', color: '#ff4d4f', width: 1 },
                label: { position: 'end', color: '#cf1322', fontSize: 11 },
                data: marks,
              }
            : undefined,
        // The allowed band, when both bounds are known: readings outside it stand out.
        markArea:
          limits && limits.min !== null && limits.max !== null
            ? { silent: true, itemStyle: { color: 'rgba(82,196,26,0.07)' }, data: [[{ yAxis: limits.min }, { yAxis: limits.max }]] }
            : undefined,
      },
    ],
  };
}

// The curves under the track map as one ECharts option: temperature, humidity and speed in three
// stacked grids over one time axis each (zoomed together), the task's limits as dashed lines, no
// line across a silence of more than ten minutes, and a tooltip with the three values at a time.
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { TrackAnswer, TrackPoints } from '@iotc/shared/track';
import type { EChartOption } from '../../../components/chart/echart.tsx';
import '../../../components/chart/zoom.ts';
import '../../../components/chart/marks.ts';
import { escapeHtml } from '../../../lib/html.ts';
import { MAX_GAP_MS } from './track-model.ts';

export const CURVES_HEIGHT = 430;
/** Top and height of each grid, px; the slider sits under the last. */
export const GRID_TOPS = [28, 158, 288] as const;
export const GRID_HEIGHT = 88;
const GRID_LEFT = 56;
const GRID_RIGHT = 24;

export const CURVE_COLORS = { temp: '#f5222d', humidity: '#13c2c2', speed: '#1677ff' } as const;
type CurveKey = keyof typeof CURVE_COLORS;
const UNITS: Record<CurveKey, string> = { temp: '°C', humidity: '%', speed: 'km/h' };
const PRECISION: Record<CurveKey, number> = { temp: 1, humidity: 1, speed: 1 };

export interface CurveTexts {
  temp: string;
  humidity: string;
  speed: string;
  upper: string;
  lower: string;
}

/** [t, value] pairs with a break (a null) wherever the reports fell silent for over MAX_GAP_MS. */
export function curveData(p: TrackPoints, key: CurveKey): [number, number | null][] {
  const values = p[key];
  const out: [number, number | null][] = [];
  for (let i = 0; i < p.t.length; i += 1) {
    if (i > 0 && p.t[i]! - p.t[i - 1]! > MAX_GAP_MS) out.push([p.t[i - 1]! + 1, null]);
    out.push([p.t[i]!, values[i] ?? null]);
  }
  return out;
}

function limitLines(min: number | null | undefined, max: number | null | undefined, texts: CurveTexts) {
  const data: { yAxis: number; name: string; label: { formatter: string } }[] = [];
  if (min !== null && min !== undefined) data.push({ yAxis: min, name: texts.lower, label: { formatter: `${texts.lower} ${min}` } });
  if (max !== null && max !== undefined) data.push({ yAxis: max, name: texts.upper, label: { formatter: `${texts.upper} ${max}` } });
  if (data.length === 0) return undefined;
  return {
    silent: true,
    symbol: 'none',
    lineStyle: { color: '#fa541c', type: 'dashed' as const, width: 1 },
    label: { position: 'insideEndTop' as const, color: '#fa541c', fontSize: 11 },
    data,
  };
}

/** An axis that always shows the limits, however far the values stay from them. */
function axisBound(kind: 'min' | 'max', limits: (number | null | undefined)[]) {
  const known = limits.filter((v): v is number => typeof v === 'number');
  if (known.length === 0) return undefined;
  return (extent: { min: number; max: number }) => {
    const v = kind === 'min' ? Math.min(extent.min, ...known) : Math.max(extent.max, ...known);
    const pad = Math.max(1, Math.abs(extent.max - extent.min) * 0.05);
    return kind === 'min' ? Math.floor(v - pad) : Math.ceil(v + pad);
  };
}

export interface CurvesInput {
  points: TrackPoints;
  limits: TrackAnswer['limits'];
  /** The playback's span: the time axes cover it whole. */
  domain: [number, number];
  /** The zoomed window, kept when the option is rebuilt (new detail, another language). */
  zoom: [number, number] | null;
  texts: CurveTexts;
}

export function curvesOption({ points, limits, domain, zoom, texts }: CurvesInput): EChartOption {
  const keys: CurveKey[] = ['temp', 'humidity', 'speed'];
  const names: Record<CurveKey, string> = { temp: texts.temp, humidity: texts.humidity, speed: texts.speed };
  const axisIndexes = [0, 1, 2];
  return {
    animation: false,
    grid: GRID_TOPS.map((top) => ({ left: GRID_LEFT, right: GRID_RIGHT, top, height: GRID_HEIGHT })),
    xAxis: GRID_TOPS.map((_, i) => ({
      type: 'time' as const,
      gridIndex: i,
      min: domain[0],
      max: domain[1],
      axisLabel: { show: i === GRID_TOPS.length - 1, hideOverlap: true },
      splitLine: { show: false },
    })),
    yAxis: keys.map((key, i) => ({
      type: 'value' as const,
      gridIndex: i,
      name: `${names[key]} (${UNITS[key]})`,
      nameTextStyle: { align: 'left' as const, padding: [0, 0, 0, -GRID_LEFT + 8] },
      scale: true,
      splitNumber: 3,
      min: key === 'temp' ? axisBound('min', [limits?.tempMin]) : key === 'humidity' ? axisBound('min', [limits?.humidityMin]) : 0,
      max: key === 'temp' ? axisBound('max', [limits?.tempMax]) : key === 'humidity' ? axisBound('max', [limits?.humidityMax]) : undefined,
    })),
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'line' },
      formatter: (raw: unknown) => {
        const params = (Array.isArray(raw) ? raw : [raw]) as { seriesId?: string; value: [number, number | null]; marker?: string }[];
        if (params.length === 0) return '';
        const head = dayjs(params[0]!.value[0]).format(DATETIME_FORMAT);
        const rows = params
          .filter((p) => p.seriesId && p.value[1] !== null && p.value[1] !== undefined)
          .map((p) => {
            const key = p.seriesId as CurveKey;
            return `${p.marker ?? ''}${escapeHtml(names[key])}: <b>${escapeHtml(`${Number(p.value[1]).toFixed(PRECISION[key])} ${UNITS[key]}`)}</b>`;
          });
        return [escapeHtml(head), ...rows].join('<br/>');
      },
    },
    dataZoom: [
      { type: 'inside', xAxisIndex: axisIndexes, filterMode: 'none', ...(zoom ? { startValue: zoom[0], endValue: zoom[1] } : {}) },
      { type: 'slider', xAxisIndex: axisIndexes, filterMode: 'none', bottom: 8, height: 18, labelFormatter: (v: number) => dayjs(v).format('MM-DD HH:mm'), ...(zoom ? { startValue: zoom[0], endValue: zoom[1] } : {}) },
    ],
    series: keys.map((key, i) => ({
      id: key,
      name: names[key],
      type: 'line' as const,
      xAxisIndex: i,
      yAxisIndex: i,
      showSymbol: false,
      sampling: 'lttb' as const,
      connectNulls: false,
      lineStyle: { width: 1.5, color: CURVE_COLORS[key] },
      itemStyle: { color: CURVE_COLORS[key] },
      data: curveData(points, key),
      markLine: key === 'temp' ? limitLines(limits?.tempMin, limits?.tempMax, texts) : key === 'humidity' ? limitLines(limits?.humidityMin, limits?.humidityMax, texts) : undefined,
    })),
  } as EChartOption;
}

// ECharts options of the cockpit: the province map with vehicle dots, the compliance gauge and
// the trend charts. Font sizes are given in px computed from the root font (`rem`), so the
// canvases scale with the page like the rem-sized parts around them. A tooltip formatter's
// string is HTML to ECharts: every text in it is escaped (vehicle codes and names are people's).
import type { CockpitSummary, CockpitVehicle } from '@iotc/shared/cockpit';
import { STATUS_COLORS } from '@iotc/shared/live';
import { PROVINCES } from '@iotc/shared/region';
import { escapeHtml } from '../../../lib/html.ts';
import type { ThemeName } from '../../../lib/theme.ts';
import { CHINA_MAP } from './china-map.ts';
import type { ProvinceRow } from './cockpit-model.ts';

export interface Palette {
  text: string;
  muted: string;
  accent: string;
  accent2: string;
  area: string;
  areaBorder: string;
  areaHigh: string;
  split: string;
}

export const PALETTES: Record<ThemeName, Palette> = {
  'default-theme': { text: '#e6f1ff', muted: '#8fa8c8', accent: '#3fa9ff', accent2: '#36cfc9', area: '#0c2750', areaBorder: '#3b7bd6', areaHigh: '#2f8cff', split: 'rgba(143,168,200,0.15)' },
  'red-theme': { text: '#fff1f0', muted: '#d8a9a9', accent: '#ff4d4f', accent2: '#ffa940', area: '#3a1015', areaBorder: '#c23a3f', areaHigh: '#ff6b6b', split: 'rgba(216,169,169,0.15)' },
  // Neutral greys with the default's blue accents (see .cockpit--dark).
  'dark-theme': { text: 'rgba(255,255,255,0.88)', muted: 'rgba(255,255,255,0.62)', accent: '#3fa9ff', accent2: '#36cfc9', area: '#1f1f1f', areaBorder: '#595959', areaHigh: '#2f8cff', split: 'rgba(255,255,255,0.12)' },
};

// The options are written against ECharts' own option shapes loosely: the console's EChart
// component types only the pieces it registers itself.
type Option = Record<string, unknown>;

export interface MapTexts {
  warehouses: string;
  vehicles: string;
  coldRooms: string;
}

/**
 * The map with warehouses per province and the vehicles. The map data names its regions in
 * Chinese ("广东"); the rows are keyed by the province dictionary's code, and `nameMap` gives
 * each region the name to show in the reader's language (hover label and tooltip).
 */
export function mapOption(rows: readonly ProvinceRow[], vehicles: readonly CockpitVehicle[], p: Palette, rem: number, texts: MapTexts, nameMap: Record<string, string> = {}): Option {
  const max = Math.max(1, ...rows.map((r) => r.warehouses));
  const byRegion = new Map<string, ProvinceRow>();
  for (const r of rows) {
    const region = PROVINCES.find((pr) => pr.code === r.key)?.zh;
    if (region) byRegion.set(region, r);
  }
  const shown = (region: string) => nameMap[region] ?? region;
  return {
    animation: false,
    tooltip: {
      trigger: 'item',
      textStyle: { fontSize: 0.13 * rem },
      formatter: (params: { seriesType: string; name: string; data?: { code?: string; name?: string } }) => {
        if (params.seriesType === 'map') {
          const r = byRegion.get(params.name);
          return [shown(params.name), `${texts.warehouses}: ${r?.warehouses ?? 0}`, `${texts.coldRooms}: ${r?.coldRooms ?? 0}`, `${texts.vehicles}: ${r?.vehicles ?? 0}`].map(escapeHtml).join('<br/>');
        }
        return escapeHtml(`${params.data?.code ?? ''} ${params.data?.name ?? ''}`);
      },
    },
    geo: {
      map: CHINA_MAP,
      roam: false,
      // All four sides: the map keeps its aspect and fits inside the box.
      top: '8%',
      bottom: '3%',
      left: '3%',
      right: '3%',
      label: { show: false },
      itemStyle: { areaColor: p.area, borderColor: p.areaBorder, borderWidth: 1, shadowColor: p.accent, shadowBlur: 0.06 * rem },
      emphasis: { label: { show: true, color: p.text, fontSize: 0.13 * rem, formatter: (params: { name: string }) => shown(params.name) }, itemStyle: { areaColor: p.areaHigh } },
      select: { disabled: true },
    },
    visualMap: {
      type: 'continuous',
      seriesIndex: 0,
      min: 0,
      max,
      show: false,
      inRange: { color: [p.area, p.areaHigh] },
    },
    series: [
      {
        type: 'map',
        geoIndex: 0,
        name: texts.warehouses,
        data: [...byRegion].map(([region, r]) => ({ name: region, value: r.warehouses })),
      },
      {
        type: 'scatter',
        name: texts.vehicles,
        coordinateSystem: 'geo',
        symbolSize: 0.1 * rem,
        zlevel: 1,
        data: vehicles.map((v) => ({ name: v.name, code: v.code, value: [v.lon, v.lat], itemStyle: { color: STATUS_COLORS[v.status], shadowBlur: 0.1 * rem, shadowColor: STATUS_COLORS[v.status] } })),
      },
    ],
  };
}

export function gaugeOption(rate: number | null, p: Palette, rem: number): Option {
  const value = rate === null ? 0 : Math.round(rate * 1000) / 10;
  return {
    animation: false,
    series: [
      {
        type: 'gauge',
        startAngle: 210,
        endAngle: -30,
        min: 0,
        max: 100,
        radius: '110%',
        center: ['50%', '66%'],
        progress: { show: true, width: 0.12 * rem, itemStyle: { color: value >= 95 ? '#52c41a' : value >= 80 ? '#faad14' : '#ff4d4f' } },
        axisLine: { lineStyle: { width: 0.12 * rem, color: [[1, p.split]] } },
        axisTick: { show: false },
        splitLine: { length: 0.06 * rem, distance: 0.02 * rem, lineStyle: { color: p.muted, width: 1 } },
        axisLabel: { distance: 0.16 * rem, color: p.muted, fontSize: 0.1 * rem },
        pointer: { show: false },
        anchor: { show: false },
        title: { show: false },
        detail: {
          valueAnimation: false,
          offsetCenter: [0, '0%'],
          fontSize: 0.3 * rem,
          fontWeight: 700,
          color: p.text,
          formatter: () => (rate === null ? '—' : `${value}%`),
        },
        data: [{ value }],
      },
    ],
  };
}

function axes(p: Palette, rem: number, labels: string[]) {
  return {
    grid: { left: 0.36 * rem, right: 0.08 * rem, top: 0.3 * rem, bottom: 0.24 * rem },
    xAxis: { type: 'category', data: labels, axisLabel: { color: p.muted, fontSize: 0.11 * rem }, axisLine: { lineStyle: { color: p.split } }, axisTick: { show: false } },
    yAxis: { type: 'value', minInterval: 1, axisLabel: { color: p.muted, fontSize: 0.11 * rem }, splitLine: { lineStyle: { color: p.split } } },
    legend: { top: 0, right: 0, itemWidth: 0.12 * rem, itemHeight: 0.08 * rem, textStyle: { color: p.muted, fontSize: 0.11 * rem } },
    tooltip: { trigger: 'axis', textStyle: { fontSize: 0.12 * rem } },
  };
}

/** "HH:00" of an hour start in the browser's time zone. */
const hourLabel = (iso: string) => `${String(new Date(iso).getHours()).padStart(2, '0')}:00`;

export function alarmTrendOption(trends: CockpitSummary['trends'], p: Palette, rem: number): Option {
  return {
    animation: false,
    ...axes(p, rem, trends.hours.map(hourLabel)),
    series: trends.alarmsByLevel.map((l) => ({ type: 'bar', name: l.name, stack: 'alarms', data: l.counts, itemStyle: { color: l.color }, barMaxWidth: 0.1 * rem })),
  };
}

export function readingTrendOption(trends: CockpitSummary['trends'], p: Palette, rem: number, name: string): Option {
  return {
    animation: false,
    ...axes(p, rem, trends.hours.map(hourLabel)),
    series: [
      {
        type: 'line',
        name,
        data: trends.readings,
        smooth: true,
        showSymbol: false,
        lineStyle: { color: p.accent2, width: 0.02 * rem },
        itemStyle: { color: p.accent2 },
        areaStyle: { color: { type: 'linear', x: 0, y: 0, x2: 0, y2: 1, colorStops: [{ offset: 0, color: `${p.accent2}88` }, { offset: 1, color: `${p.accent2}00` }] } },
      },
    ],
  };
}

export function taskTrendOption(trends: CockpitSummary['trends'], p: Palette, rem: number, names: { started: string; arrived: string }): Option {
  return {
    animation: false,
    ...axes(p, rem, trends.days.map((d) => d.slice(5))),
    series: [
      { type: 'bar', name: names.started, data: trends.tasksStarted, itemStyle: { color: p.accent }, barMaxWidth: 0.12 * rem },
      { type: 'bar', name: names.arrived, data: trends.tasksArrived, itemStyle: { color: p.accent2 }, barMaxWidth: 0.12 * rem },
    ],
  };
}

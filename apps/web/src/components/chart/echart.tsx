// One ECharts instance as a React component, for every screen that draws curves: ECharts is
// imported piece by piece. Here the pieces every chart draws (line, bar and pie charts, grid,
// legend, canvas renderer: what the server draws too, chart-image.tsx); data zoom and marks are
// registered by the modules whose options use them (zoom.ts, marks.ts), so a screen fetches only
// what it draws. The tooltip and axis pointer (tooltip.ts) come when the pointer first enters a
// chart: then every chart on screen takes its option's tooltip and the one pointed at shows its
// tip at once; the instance is made on mount, follows `option`, resizes with its box and is
// disposed on unmount. Charts given the same `group` share tooltip, axis pointer and zoom (echarts.connect).
// In the dark theme the chart takes ECharts' dark theme (light axes, labels and legend) on a
// transparent background, so it sits on the panel's own colour.
import { useEffect, useRef, type CSSProperties } from 'react';
import { isDarkTheme, useThemeName } from '../../lib/theme.ts';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart, type BarSeriesOption, type LineSeriesOption, type PieSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  type DataZoomComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type MarkAreaComponentOption,
  type MarkLineComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([LineChart, BarChart, PieChart, GridComponent, LegendComponent, CanvasRenderer]);

/** Set once the tooltip is registered. */
let tooltipsIn = false;
let tooltips: Promise<void> | undefined;
/** The charts on screen, each giving its option's tooltip and axis pointer to take once they are in. */
const awaitingTooltips = new Set<() => void>();

/** Registers the tooltip (once); a chart on screen takes it as soon as it is in. */
export function loadTooltips(): Promise<void> {
  tooltips ??= import('./tooltip.ts').then(() => {
    tooltipsIn = true;
    for (const adopt of awaitingTooltips) adopt();
    awaitingTooltips.clear();
  });
  return tooltips;
}

/** The options the registered pieces understand. */
export type EChartOption = echarts.ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | PieSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
  | MarkLineComponentOption
  | MarkAreaComponentOption
>;

export type EChartInstance = echarts.ECharts;

export interface EChartProps {
  option: EChartOption;
  /** Charts of one group move together: tooltip, axis pointer, data zoom. */
  group?: string;
  height?: number | string;
  className?: string;
  style?: CSSProperties;
  'data-testid'?: string;
  /** Called once with the instance after it is made (events, actions). */
  onReady?: (chart: EChartInstance) => void;
}

/** Links the charts of `group`; safe to call for every chart of it. */
function connectGroup(chart: EChartInstance, group: string | undefined): void {
  chart.group = group ?? '';
  if (group) echarts.connect(group);
}

export function EChart({ option, group, height = 240, className, style, onReady, ...rest }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartInstance | null>(null);
  const ready = useRef(onReady);
  const dark = isDarkTheme(useThemeName());
  const drawnDark = useRef(dark);
  /** The option drawn last (the tooltip's, when it comes, is read from it). */
  const drawn = useRef(option);
  useEffect(() => {
    ready.current = onReady;
  }, [onReady]);

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const instance = echarts.init(el, drawnDark.current ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    ready.current?.(instance);
    // The box changes size with the window, the side menu and the grid around it.
    const observer = new ResizeObserver(() => {
      if (!instance.isDisposed()) instance.resize();
    });
    observer.observe(el);
    // Until the tooltip is registered: merged in (not the whole option again, which would undo a
    // zoom); then the pointer's last move over this chart is played again, so ECharts shows the
    // tip for the place under it as it does for every move from then on.
    let pointer: { clientX: number; clientY: number } | null = null;
    const track = (e: PointerEvent) => {
      pointer = { clientX: e.clientX, clientY: e.clientY };
    };
    const enter = (e: PointerEvent) => {
      track(e);
      void loadTooltips();
    };
    const leave = () => {
      pointer = null;
    };
    // Once the tooltip is in, ECharts follows the pointer itself: the listeners go.
    const detach = () => {
      awaitingTooltips.delete(adopt);
      el.removeEventListener('pointerenter', enter);
      el.removeEventListener('pointermove', track);
      el.removeEventListener('pointerleave', leave);
    };
    const adopt = () => {
      detach();
      if (instance.isDisposed()) return;
      const { tooltip, axisPointer } = drawn.current;
      instance.setOption({ tooltip, axisPointer });
      if (pointer) (el.querySelector('canvas') ?? el).dispatchEvent(new MouseEvent('mousemove', { ...pointer, bubbles: true }));
    };
    if (!tooltipsIn) {
      awaitingTooltips.add(adopt);
      el.addEventListener('pointerenter', enter);
      el.addEventListener('pointermove', track);
      el.addEventListener('pointerleave', leave);
    }
    return () => {
      detach();
      observer.disconnect();
      chart.current = null;
      instance.dispose();
    };
  }, []);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || instance.isDisposed()) return;
    connectGroup(instance, group);
  }, [group]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || instance.isDisposed() || drawnDark.current === dark) return;
    // The theme changed while the chart is on screen: ECharts repaints it in the other theme.
    drawnDark.current = dark;
    instance.setTheme(dark ? 'dark' : 'default');
  }, [dark]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || instance.isDisposed()) return;
    // A new option replaces the old one whole: series that went away must not linger.
    drawn.current = option;
    instance.setOption(dark ? { backgroundColor: 'transparent', ...option } : option, { notMerge: true, lazyUpdate: true });
  }, [option, dark]);

  return <div ref={box} className={className} style={{ width: '100%', height, ...style }} data-testid={rest['data-testid']} />;
}

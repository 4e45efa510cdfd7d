// Charts drawn by the server (ECharts' server-side rendering to SVG): a screen's first view shows
// its charts as images of a few KB instead of fetching ECharts (about 180 KB gzip) before it can
// draw; ECharts comes when the user points at a chart, for its tooltips.
import { z } from 'zod';

export const CHART_API = { svg: '/api/iot/v2/charts/svg' } as const;

/** The box a chart is drawn in, CSS pixels. */
export const CHART_WIDTH = { min: 120, max: 2400 } as const;
export const CHART_HEIGHT = { min: 80, max: 1200 } as const;
/** The most a chart's option may weigh as JSON: what a console chart needs, not a data dump. */
export const CHART_OPTION_MAX_BYTES = 64 * 1024;
/** The series the server draws: the console's bar, line and pie charts. */
export const CHART_SERIES_TYPES = ['bar', 'line', 'pie'] as const;

const seriesSchema = z.looseObject({ type: z.enum(CHART_SERIES_TYPES, { message: 'CHART_OPTION_INVALID' }) });

export const chartSvgBodySchema = z.object({
  width: z.number().int().min(CHART_WIDTH.min, { message: 'CHART_SIZE' }).max(CHART_WIDTH.max, { message: 'CHART_SIZE' }),
  height: z.number().int().min(CHART_HEIGHT.min, { message: 'CHART_SIZE' }).max(CHART_HEIGHT.max, { message: 'CHART_SIZE' }),
  /** ECharts' dark theme on a transparent background, as the dark console theme draws its charts. */
  dark: z.boolean().default(false),
  /** An ECharts option with data only (no functions): its series are bar, line or pie charts. */
  option: z.looseObject({ series: z.array(seriesSchema, { message: 'CHART_OPTION_INVALID' }).min(1, { message: 'CHART_OPTION_INVALID' }).max(50, { message: 'CHART_OPTION_INVALID' }) }),
});
export type ChartSvgBody = z.input<typeof chartSvgBodySchema>;

export const chartSvgSchema = z.object({ svg: z.string() });
export type ChartSvg = z.infer<typeof chartSvgSchema>;

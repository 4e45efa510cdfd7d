// A chart's option drawn to SVG by ECharts' server-side renderer (no DOM, no canvas): the same
// pieces and themes as the browser's ECharts, without animation. Text widths are ECharts' own
// estimate here (no canvas to measure with), which lays labels out as the browser would within a
// few pixels.
import * as echarts from 'echarts';
import type { z } from 'zod';
import type { chartSvgBodySchema } from '@iotc/shared/chart';

export function renderChartSvg({ option, width, height, dark }: z.output<typeof chartSvgBodySchema>): string {
  const chart = echarts.init(null, dark ? 'dark' : null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ ...option, ...(dark ? { backgroundColor: 'transparent' } : {}), animation: false } as echarts.EChartsOption);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

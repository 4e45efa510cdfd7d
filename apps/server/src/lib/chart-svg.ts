// A chart's option drawn to SVG by ECharts' server-side renderer (no DOM, no canvas), without
// animation: the reports' PDF charts and the console's chart images (modules/chart). In the dark
// theme ECharts' dark theme on a transparent background, as the console's dark theme draws its
// charts. Text widths are ECharts' own estimate here (no canvas to measure with), which lays
// labels out as the browser would within a few pixels.
import * as echarts from 'echarts';

export function chartSvg(option: echarts.EChartsOption, { width, height, dark = false }: { width: number; height: number; dark?: boolean }): string {
  const chart = echarts.init(null, dark ? 'dark' : null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ ...option, ...(dark ? { backgroundColor: 'transparent' } : {}), animation: false });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

// ECharts' tooltip and axis pointer, fetched when the pointer first comes over a chart
// (echart.tsx): a chart is read before it is pointed at, and the two are a sixth of the ECharts
// every chart needs, so no screen's first load carries them.
import * as echarts from 'echarts/core';
import { TooltipComponent } from 'echarts/components';

echarts.use([TooltipComponent]);

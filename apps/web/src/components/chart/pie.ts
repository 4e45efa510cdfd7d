// ECharts' pie chart, registered by the modules that draw one (the alarm statistics by level);
// other charts do not fetch it (see echart.tsx).
import * as echarts from 'echarts/core';
import { PieChart } from 'echarts/charts';

echarts.use([PieChart]);

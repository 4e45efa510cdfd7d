// ECharts' mark lines and areas (limits and out-of-range spans over a curve), registered by the
// modules whose charts draw them; charts without them do not fetch them (see echart.tsx).
import * as echarts from 'echarts/core';
import { MarkAreaComponent, MarkLineComponent } from 'echarts/components';

echarts.use([MarkLineComponent, MarkAreaComponent]);

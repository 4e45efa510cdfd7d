// ECharts' data zoom (the slider and wheel zoom under long curves), registered by the modules
// whose charts use it: the curves of history, sensors and production. Charts without it (the
// alarm statistics, the cockpit) do not fetch it (components/chart/echart.tsx has the common pieces).
import * as echarts from 'echarts/core';
import { DataZoomComponent } from 'echarts/components';

echarts.use([DataZoomComponent]);

// The ECharts pieces the cockpit draws, registered before the China map is: ECharts' own
// `registerMap` does nothing until the map or geo component is installed (china-map.ts imports
// this module first, then registers the map). The tooltip comes with the pointer, as on every
// chart (components/chart/echart.tsx).
import * as echarts from 'echarts/core';
import { BarChart, EffectScatterChart, GaugeChart, LineChart, MapChart, ScatterChart } from 'echarts/charts';
import { GeoComponent, GridComponent, LegendComponent, VisualMapComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([MapChart, ScatterChart, EffectScatterChart, GaugeChart, BarChart, LineChart, GeoComponent, VisualMapComponent, GridComponent, LegendComponent, CanvasRenderer]);

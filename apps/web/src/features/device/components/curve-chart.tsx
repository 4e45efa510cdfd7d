// The details panel's chart, in a chunk of its own: ECharts loads when a device is first
// opened, not with the landing screen.
import { EChart, type EChartOption } from '../../../components/chart/echart.tsx';

export default function CurveChart({ option, height }: { option: EChartOption; height: number }) {
  return <EChart option={option} height={height} data-testid="monitor-curve-chart" />;
}

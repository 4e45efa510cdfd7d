// The sensor curves of one device over a window: one chart per sensor that reported anything,
// stacked, with tooltip, axis pointer and zoom linked across the stack (one ECharts group).
import { useMemo } from 'react';
import { Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BoundAsset, Series } from '@iotc/shared/live';
import { EChart } from '../../../components/chart/echart.tsx';
import { curveLimits, curveOption, curveStats, formatValue, presentCurves, type CurveField } from './sensor-curves.ts';

/** The ECharts group of the stack. */
export const SENSOR_CHART_GROUP = 'sensor-curves';
const CHART_HEIGHT = 190;
const SLIDER_EXTRA = 36;

interface SensorChartsProps {
  series: Series;
  asset: BoundAsset | null | undefined;
  /** The queried window, ISO 8601. */
  from: string;
  to: string;
}

function Stats({ field, values }: { field: CurveField; values: readonly (number | null)[] }) {
  const { t } = useTranslation();
  const stats = curveStats(values);
  if (!stats) return null;
  if (field.key === 'door') {
    const opened = values.filter((v) => v === 1).length;
    return (
      <span className="sensor-chart-stats">
        {t('sensors.stats.last')} <b>{stats.last === 1 ? t('sensor.door.open') : t('sensor.door.closed')}</b>
        <span className="sensor-chart-stat-sep" />
        {t('sensors.stats.openShare', { percent: Math.round((opened / stats.count) * 100) })}
      </span>
    );
  }
  const f = (v: number) => `${formatValue(v, field.precision)}${field.unit ? ` ${field.unit}` : ''}`;
  return (
    <span className="sensor-chart-stats">
      {t('sensors.stats.last')} <b>{f(stats.last)}</b>
      <span className="sensor-chart-stat-sep" />
      {t('sensors.stats.min')} {f(stats.min)}
      <span className="sensor-chart-stat-sep" />
      {t('sensors.stats.max')} {f(stats.max)}
      <span className="sensor-chart-stat-sep" />
      {t('sensors.stats.avg')} {f(stats.avg)}
    </span>
  );
}

export function SensorCharts({ series, asset, from, to }: SensorChartsProps) {
  const { t } = useTranslation();
  const curves = useMemo(() => presentCurves(series), [series]);
  const times = useMemo(() => series.times.map((x) => Date.parse(x)), [series]);
  const window = useMemo(() => ({ from: Date.parse(from), to: Date.parse(to) }), [from, to]);
  const upper = t('sensors.upperLimit');
  const lower = t('sensors.lowerLimit');
  const doorOpen = t('sensor.door.open');
  const doorClosed = t('sensor.door.closed');

  const options = useMemo(
    () =>
      curves.map((field, i) =>
        curveOption({
          field,
          times,
          values: series.values[field.key] ?? [],
          from: window.from,
          to: window.to,
          limits: curveLimits(field.key, asset),
          texts: { name: t(field.label), upper, lower, doorOpen, doorClosed },
          withSlider: i === curves.length - 1,
        }),
      ),
    [curves, times, series, window, asset, t, upper, lower, doorOpen, doorClosed],
  );

  if (curves.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sensors.noReadings')} data-testid="sensor-charts-empty" />;
  }

  return (
    <div className="sensor-charts" data-testid="sensor-charts">
      {curves.map((field, i) => {
        const last = i === curves.length - 1;
        const limits = curveLimits(field.key, asset);
        return (
          <section key={field.key} className="sensor-chart" data-testid={`sensor-chart-${field.key}`}>
            <header className="sensor-chart-head">
              <span className="sensor-chart-swatch" style={{ background: field.color }} />
              <Typography.Text strong className="sensor-chart-name">
                {t(field.label)}
                {field.unit ? <span className="sensor-chart-unit">({field.unit})</span> : null}
              </Typography.Text>
              {limits && (
                <span className="sensor-chart-limits" data-testid={`sensor-chart-${field.key}-limits`}>
                  {t('sensors.limits', {
                    min: limits.min ?? '-',
                    max: limits.max ?? '-',
                    unit: field.unit,
                  })}
                </span>
              )}
              <Stats field={field} values={series.values[field.key] ?? []} />
            </header>
            <EChart option={options[i]!} group={SENSOR_CHART_GROUP} height={CHART_HEIGHT + (last ? SLIDER_EXTRA : 0)} data-testid={`sensor-chart-${field.key}-canvas`} />
          </section>
        );
      })}
    </div>
  );
}

// The statistics above the alarm query: alarms by type, by level and over time (per hour for a
// window of up to two days, else per day), read again with the list's filters. The charts
// themselves (ECharts) are a module of their own, fetched once there are alarms to draw.
import { lazy, Suspense } from 'react';
import { Button, Card, Col, Empty, Row, Skeleton } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { useTranslation } from 'react-i18next';
import type { FilterValues } from '../../../lib/list-query.ts';
import { statsBucket, useAlarmStats } from '../api/alarm-stats.ts';
import type { LevelInfo } from './alarm-model.ts';
import type { AlarmStatsChartProps } from './alarm-stats-chart.tsx';

const AlarmStatsChart = lazy(() => import('./alarm-stats-chart.tsx'));

const CHART_HEIGHT = 260;

export function AlarmStatsSection({ filters, levels }: { filters: FilterValues; levels: readonly LevelInfo[] }) {
  const { t } = useTranslation();
  const bucket = statsBucket(filters.from, filters.to);
  const stats = useAlarmStats(filters, bucket);
  const data = stats.data;
  const span = { from: filters.from, to: filters.to, bucket: bucket === 'hour' ? 'hour' : 'day' } as const;

  const total = data ? data.byLevel.reduce((sum, l) => sum + l.count, 0) : 0;

  const chart = (id: string, kind: AlarmStatsChartProps['kind']) => {
    if (stats.isPending) return <Skeleton active paragraph={{ rows: 5 }} />;
    if (stats.isError && !data)
      return (
        <Outcome
          status="warning"
          title={t('alarm.stats.failed')}
          extra={
            <Button onClick={() => void stats.refetch()} data-testid="alarm-stats-retry">
              {t('common.retry')}
            </Button>
          }
        />
      );
    if (!data || total === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarm.stats.none')} style={{ height: CHART_HEIGHT - 40 }} />;
    return (
      // The chart's box is held at its height while its module comes, so nothing below moves.
      <Suspense fallback={<div style={{ height: CHART_HEIGHT }} aria-busy="true" data-testid={`${id}-loading`} />}>
        <AlarmStatsChart kind={kind} stats={data} levels={levels} span={span} height={CHART_HEIGHT} data-testid={id} />
      </Suspense>
    );
  };

  return (
    <Row gutter={[12, 12]} className="alarm-stats" data-testid="alarm-stats" data-bucket={bucket}>
      <Col xs={24} xl={8}>
        <Card size="small" title={t('alarm.stats.byType')}>
          {chart('alarm-chart-type', 'type')}
        </Card>
      </Col>
      <Col xs={24} xl={6}>
        <Card size="small" title={t('alarm.stats.byLevel')}>
          {chart('alarm-chart-level', 'level')}
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card size="small" title={bucket === 'hour' ? t('alarm.stats.perHour') : t('alarm.stats.perDay')}>
          {chart('alarm-chart-time', 'time')}
        </Card>
      </Col>
    </Row>
  );
}

// The statistics above the alarm query: alarms by type, by level and over time (per hour for a
// window of up to two days, else per day), read again with the list's filters.
import { useMemo } from 'react';
import { Button, Card, Col, Empty, Row, Skeleton } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../../components/chart/echart.tsx';
import type { FilterValues } from '../../../lib/list-query.ts';
import { useAlarmStats } from '../api/alarm-stats.ts';
import { byLevelOption, byTypeOption, overTimeOption, statsBucket } from './alarm-charts.ts';
import type { LevelInfo } from './alarm-model.ts';
import { useAlarmTexts } from './use-alarm-texts.ts';

const CHART_HEIGHT = 260;

export function AlarmStatsSection({ filters, levels }: { filters: FilterValues; levels: readonly LevelInfo[] }) {
  const { t } = useTranslation();
  const texts = useAlarmTexts();
  const bucket = statsBucket(filters.from, filters.to);
  const stats = useAlarmStats(filters, bucket);
  const data = stats.data;
  const { lang, typeName } = texts;

  const options = useMemo(() => {
    if (!data) return null;
    const hourOrDay = bucket === 'hour' ? 'hour' : 'day';
    return {
      type: byTypeOption(data, typeName, t('alarm.stats.count')),
      level: byLevelOption(data, lang),
      time: overTimeOption(data, levels, { from: filters.from, to: filters.to, bucket: hourOrDay }, lang),
    };
  }, [data, bucket, typeName, t, lang, levels, filters.from, filters.to]);

  const total = data ? data.byLevel.reduce((sum, l) => sum + l.count, 0) : 0;

  const chart = (id: string, option: Parameters<typeof EChart>[0]['option'] | undefined) => {
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
    if (!option || total === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarm.stats.none')} style={{ height: CHART_HEIGHT - 40 }} />;
    return <EChart option={option} height={CHART_HEIGHT} data-testid={id} />;
  };

  return (
    <Row gutter={[12, 12]} className="alarm-stats" data-testid="alarm-stats" data-bucket={bucket}>
      <Col xs={24} xl={8}>
        <Card size="small" title={t('alarm.stats.byType')}>
          {chart('alarm-chart-type', options?.type)}
        </Card>
      </Col>
      <Col xs={24} xl={6}>
        <Card size="small" title={t('alarm.stats.byLevel')}>
          {chart('alarm-chart-level', options?.level)}
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card size="small" title={bucket === 'hour' ? t('alarm.stats.perHour') : t('alarm.stats.perDay')}>
          {chart('alarm-chart-time', options?.time)}
        </Card>
      </Col>
    </Row>
  );
}

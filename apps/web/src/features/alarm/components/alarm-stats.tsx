// The statistics above the alarm query: alarms by type, by level and over time (per hour for a
// window of up to two days, else per day), read again with the list's filters. The charts are
// drawn by the server and shown as images with what they show in words, until the pointer comes
// onto one (components/chart/chart-image.tsx): the first view needs no ECharts.
import { useMemo } from 'react';
import { Button, Card, Col, Empty, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outcome } from '../../../components/outcome.tsx';
import { ChartImage } from '../../../components/chart/chart-image.tsx';
import type { EChartOption } from '../../../components/chart/echart.tsx';
import type { FilterValues } from '../../../lib/list-query.ts';
import { statsBucket, useAlarmStats } from '../api/alarm-stats.ts';
import { bucketLabel, byLevelOption, byTypeOption, overTimeOption } from './alarm-charts.ts';
import { levelName, type LevelInfo } from './alarm-model.ts';
import { useAlarmTexts } from './use-alarm-texts.ts';

const CHART_HEIGHT = 260;

export function AlarmStatsSection({ filters, levels }: { filters: FilterValues; levels: readonly LevelInfo[] }) {
  const { t } = useTranslation();
  const texts = useAlarmTexts();
  const bucket = statsBucket(filters.from, filters.to);
  const stats = useAlarmStats(filters, bucket);
  const data = stats.data;
  const { lang, typeName } = texts;
  const hourOrDay = bucket === 'hour' ? 'hour' : 'day';
  const titles = { type: t('alarm.stats.byType'), level: t('alarm.stats.byLevel'), time: hourOrDay === 'hour' ? t('alarm.stats.perHour') : t('alarm.stats.perDay') };

  const charts = useMemo(() => {
    if (!data) return null;
    // The image's words: each bar or slice with its count (the buckets with alarms only).
    const words = (title: string, items: { name: string; count: number }[]) =>
      t('alarm.stats.alt', { title, values: items.map((i) => t('alarm.stats.altItem', { name: i.name, count: i.count })).join(t('alarm.stats.altSeparator')) });
    const perBucket = new Map<string, number>();
    for (const p of data.overTime) perBucket.set(p.bucket, (perBucket.get(p.bucket) ?? 0) + p.count);
    return {
      type: { option: byTypeOption(data, typeName, t('alarm.stats.count')), alt: words(titles.type, [...data.byType].sort((a, b) => b.count - a.count).map((r) => ({ name: typeName(r.type), count: r.count }))) },
      level: { option: byLevelOption(data, lang), alt: words(titles.level, data.byLevel.map((l) => ({ name: levelName(l, lang), count: l.count }))) },
      time: {
        option: overTimeOption(data, levels, { from: filters.from, to: filters.to, bucket: hourOrDay }, lang),
        alt: words(titles.time, [...perBucket].sort(([a], [b]) => a.localeCompare(b)).map(([k, count]) => ({ name: bucketLabel(k, hourOrDay), count }))),
      },
    };
  }, [data, hourOrDay, typeName, t, lang, levels, filters.from, filters.to, titles.type, titles.level, titles.time]);

  const total = data ? data.byLevel.reduce((sum, l) => sum + l.count, 0) : 0;

  const chart = (id: string, drawn: { option: EChartOption; alt: string } | undefined) => {
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
    if (!drawn || total === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarm.stats.none')} style={{ height: CHART_HEIGHT - 40 }} />;
    return <ChartImage option={drawn.option} alt={drawn.alt} height={CHART_HEIGHT} data-testid={id} />;
  };

  return (
    <Row gutter={[12, 12]} className="alarm-stats" data-testid="alarm-stats" data-bucket={bucket}>
      <Col xs={24} xl={8}>
        <Card size="small" title={titles.type}>
          {chart('alarm-chart-type', charts?.type)}
        </Card>
      </Col>
      <Col xs={24} xl={6}>
        <Card size="small" title={titles.level}>
          {chart('alarm-chart-level', charts?.level)}
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card size="small" title={titles.time}>
          {chart('alarm-chart-time', charts?.time)}
        </Card>
      </Col>
    </Row>
  );
}

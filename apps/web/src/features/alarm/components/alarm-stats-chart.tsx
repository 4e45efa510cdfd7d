// One chart of the alarm statistics, with ECharts and the option builders: the statistics section
// loads this module only when it has alarms to draw, so a period without alarms (and the list
// beside it) never waits for ECharts, and with alarms the filters and the table show while it comes.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmStats } from '@iotc/shared/alarm';
import { EChart } from '../../../components/chart/echart.tsx';
import { byLevelOption, byTypeOption, overTimeOption } from './alarm-charts.ts';
import type { LevelInfo } from './alarm-model.ts';
import { useAlarmTexts } from './use-alarm-texts.ts';

export interface AlarmStatsChartProps {
  kind: 'type' | 'level' | 'time';
  stats: AlarmStats;
  levels: readonly LevelInfo[];
  /** The window and its buckets, for the time axis. */
  span: { from?: string; to?: string; bucket: 'hour' | 'day' };
  height: number;
  'data-testid': string;
}

export default function AlarmStatsChart({ kind, stats, levels, span, height, ...rest }: AlarmStatsChartProps) {
  const { t } = useTranslation();
  const { lang, typeName } = useAlarmTexts();
  const countName = t('alarm.stats.count');
  const { from, to, bucket } = span;
  const option = useMemo(() => {
    if (kind === 'type') return byTypeOption(stats, typeName, countName);
    if (kind === 'level') return byLevelOption(stats, lang);
    return overTimeOption(stats, levels, { from, to, bucket }, lang);
  }, [kind, stats, typeName, countName, lang, levels, from, to, bucket]);
  return <EChart option={option} height={height} data-testid={rest['data-testid']} />;
}

// The statistics of the alarm query as ECharts options: alarms by type (bars), by level (a pie in
// the level colours) and started per hour or day, stacked by level. The time axis lists every
// bucket of the window, so quiet hours show as gaps instead of being left out.
import dayjs from 'dayjs';
import type { AlarmStats, AlarmType } from '@iotc/shared/alarm';
import type { Lang } from '@iotc/shared/i18n';
import type { EChartOption } from '../../../components/chart/echart.tsx';
import type { StatsBucket } from '../api/alarm-stats.ts';
import { levelName, type LevelInfo } from './alarm-model.ts';

/** Most buckets listed on the time axis; past it only the buckets with alarms are shown. */
const MAX_AXIS_BUCKETS = 1000;
/** How the server writes a bucket's local start. */
const BUCKET_FORMAT = 'YYYY-MM-DDTHH:mm:ss';

/**
 * Every bucket start (local, as the server writes them) from the one holding `from` up to `to`,
 * together with the buckets that have alarms; only the latter when the window is too long.
 */
export function bucketAxis(from: string | undefined, to: string | undefined, bucket: 'hour' | 'day', present: readonly string[]): string[] {
  const keys = new Set(present);
  if (from && to) {
    const end = dayjs(to);
    let at = dayjs(from).startOf(bucket);
    const all: string[] = [];
    while (at.isBefore(end) && all.length <= MAX_AXIS_BUCKETS) {
      all.push(at.format(BUCKET_FORMAT));
      at = at.add(1, bucket);
    }
    if (all.length <= MAX_AXIS_BUCKETS) for (const k of all) keys.add(k);
  }
  return [...keys].sort();
}

export function bucketLabel(key: string, bucket: StatsBucket): string {
  const d = dayjs(key);
  if (!d.isValid()) return key;
  return bucket === 'hour' ? d.format('MM-DD HH:mm') : d.format('YYYY-MM-DD');
}

const GRID = { left: 8, right: 16, top: 32, bottom: 8, containLabel: true };

/**
 * The type card's plot is about this wide (a third of a console screen); the labels of all types
 * side by side must fit in it.
 */
const TYPE_AXIS_PX = 280;
/** A label's width at the axis's 12 px: about 12 px a CJK character, 7 px any other. */
const labelPx = (text: string) => [...text].reduce((w, c) => w + (c.codePointAt(0)! >= 0x2e80 ? 12 : 7), 0);

export function byTypeOption(stats: AlarmStats, typeName: (t: AlarmType) => string, countName: string): EChartOption {
  const rows = [...stats.byType].sort((a, b) => b.count - a.count);
  const names = rows.map((r) => typeName(r.type));
  // Every label is shown. More than four are slanted; up to four whose names are too long to
  // stand side by side ("Abnormal door opening" beside two others in English) break onto lines
  // of their share of the axis, instead of running into each other.
  const share = Math.floor(TYPE_AXIS_PX / Math.max(1, rows.length));
  const tooLong = Math.max(0, ...names.map(labelPx)) > share;
  const axisLabel = rows.length > 4 ? { interval: 0, rotate: 30 } : tooLong ? { interval: 0, width: share, overflow: 'break' as const } : { interval: 0 };
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: GRID,
    xAxis: { type: 'category', data: names, axisLabel },
    yAxis: { type: 'value', minInterval: 1 },
    series: [{ type: 'bar', name: countName, data: rows.map((r) => r.count), itemStyle: { color: '#1677ff' }, barMaxWidth: 36 }],
  };
}

export function byLevelOption(stats: AlarmStats, lang: Lang): EChartOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    // The card is narrow: the level names are in the legend (on as many lines as they need, no
    // paging), the ring is labelled with the counts alone, which fit beside it.
    legend: { bottom: 0, itemWidth: 14, itemGap: 8 },
    series: [
      {
        type: 'pie',
        radius: ['34%', '56%'],
        center: ['50%', '40%'],
        label: { formatter: '{c}' },
        labelLine: { length: 6, length2: 6 },
        data: stats.byLevel.map((l) => ({ name: levelName(l, lang), value: l.count, itemStyle: { color: l.color } })),
      },
    ],
  };
}

/** Alarms started per bucket, a stacked bar per level (most important at the bottom). */
export function overTimeOption(
  stats: AlarmStats,
  levels: readonly LevelInfo[],
  window: { from?: string; to?: string; bucket: 'hour' | 'day' },
  lang: Lang,
): EChartOption {
  const axis = bucketAxis(
    window.from,
    window.to,
    window.bucket,
    stats.overTime.map((p) => p.bucket),
  );
  const position = new Map(axis.map((k, i) => [k, i]));
  const known = new Map(levels.map((l) => [l.id, l]));
  for (const l of stats.byLevel) if (!known.has(l.levelId)) known.set(l.levelId, { id: l.levelId, code: l.code, nameZh: l.nameZh, nameEn: l.nameEn, color: l.color, priority: 99 });
  const ids = [...new Set(stats.overTime.map((p) => p.levelId))].sort((a, b) => (known.get(a)?.priority ?? 99) - (known.get(b)?.priority ?? 99));
  const series = ids.map((id) => {
    const data = axis.map(() => 0);
    for (const p of stats.overTime) {
      const i = position.get(p.bucket);
      if (p.levelId === id && i !== undefined) data[i]! += p.count;
    }
    const level = known.get(id);
    return {
      type: 'bar' as const,
      stack: 'alarms',
      name: level ? levelName(level, lang) : id,
      data,
      itemStyle: { color: level?.color ?? '#8c8c8c' },
      barMaxWidth: 28,
    };
  });
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, type: 'scroll' },
    grid: { ...GRID, top: 36 },
    xAxis: { type: 'category', data: axis.map((k) => bucketLabel(k, window.bucket)) },
    yAxis: { type: 'value', minInterval: 1 },
    series,
  };
}

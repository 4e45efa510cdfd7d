// What the alarm screens show of an alarm, as plain functions: level names and colours, status
// colours, times, durations and values with their units, the table's view of a row, the map
// points and their palette, and how the real-time list takes the alarms pushed over the live
// channel (merged per alarm, buffered and applied on a timer).
import dayjs from 'dayjs';
import type { AlarmRow, AlarmStatus, AlarmType } from '@iotc/shared/alarm';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { precisionOf, roundedText, unitValueText } from '@iotc/shared/format';
import type { Page } from '@iotc/shared/envelope';
import type { Lang } from '@iotc/shared/i18n';
import type { LivePoint } from '../../../components/map/cluster.ts';
import type { MapPalette } from '../../../components/map/cluster-layer.ts';
import { LiveBuffer } from '../../../lib/live-buffer.ts';

/** What a level is known by: each alarm row carries its level, the levels list has them all. */
export interface LevelInfo {
  id: string;
  code: string;
  nameZh: string;
  nameEn: string;
  color: string;
  priority: number;
}

export function levelName(level: Pick<LevelInfo, 'nameZh' | 'nameEn'>, lang: Lang): string {
  return lang === 'zh' ? level.nameZh : level.nameEn;
}

/** Status tags: active red, cleared green, closed grey. */
export const ALARM_STATUS_COLORS: Record<AlarmStatus, string> = {
  active: '#f5222d',
  cleared: '#52c41a',
  closed: '#8c8c8c',
};


/** An instant in the user's time zone as the spec writes it; '' for none. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(DATETIME_FORMAT) : '';
}

/** The words of a duration: the two largest units that are not zero ('2d 3h', '5m 10s'). */
export interface DurationWords {
  days: (n: number) => string;
  hours: (n: number) => string;
  minutes: (n: number) => string;
  seconds: (n: number) => string;
}

export function formatDuration(ms: number, words: DurationWords): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const parts: [number, (n: number) => string][] = [
    [Math.floor(total / 86_400), words.days],
    [Math.floor((total % 86_400) / 3600), words.hours],
    [Math.floor((total % 3600) / 60), words.minutes],
    [total % 60, words.seconds],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  if (first < 0) return words.seconds(0);
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, word]) => word(n))
    .join(' ');
}

/** A reading with its unit at the unit's precision ('9.3 °C', '111.8 km/h', '3 min 12 s'); '-' for none. */
export function valueText(value: number | null | undefined, unit: string, lang: Lang = 'en'): string {
  return unitValueText(value, unit, lang);
}

/** Value when it opened and the worst seen since, one unit for both ('9.3 / 12.2 °C'); durations each in full. */
export function valuePeakText(row: Pick<AlarmRow, 'value' | 'peak' | 'unit'>, lang: Lang = 'en'): string {
  if (row.value === null && row.peak === null) return '-';
  if (row.unit === 's') return `${unitValueText(row.value, 's', lang)} / ${unitValueText(row.peak, 's', lang)}`;
  // Both numbers at the unit's precision, the unit said once after them.
  const num = (v: number | null) => (v === null || !Number.isFinite(v) ? '-' : roundedText(v, precisionOf(row.unit)));
  const both = `${num(row.value)} / ${num(row.peak)}`;
  return row.unit ? `${both} ${row.unit}` : both;
}

/** A row as the alarm tables show it (texts ready); `row` is the alarm itself, for the actions. */
export interface AlarmView {
  id: string;
  /**
   * The level's id, shown as its coloured tag. The column sorts by the level's priority, and a
   * column's field is its sort name, hence the name.
   */
  priority: string;
  type: AlarmType;
  deviceId: string;
  deviceName: string;
  asset: string;
  startedAt: string;
  endedAt: string;
  duration: string;
  /** Value / peak with the unit; named after the sort field (the peak). */
  peak: string;
  count: number;
  status: AlarmStatus;
  acknowledged: string;
  assignee: string;
  /** The work order's code, if it is in one. */
  workOrder: string;
  policyName: string;
  /** The transport task's code, if a task's policy raised it. */
  task: string;
  orgName: string;
  row: AlarmRow;
}

export function toAlarmView(row: AlarmRow, texts: { duration: DurationWords; lang: Lang }, now: number = Date.now()): AlarmView {
  const started = Date.parse(row.startedAt);
  const ended = row.endedAt ? Date.parse(row.endedAt) : now;
  return {
    id: row.id,
    priority: row.level.id,
    type: row.type,
    deviceId: row.device.deviceId,
    deviceName: row.device.name,
    asset: row.asset ? `${row.asset.name} (${row.asset.code})` : '',
    startedAt: formatTime(row.startedAt),
    endedAt: formatTime(row.endedAt),
    duration: Number.isFinite(started) && Number.isFinite(ended) ? formatDuration(ended - started, texts.duration) : '',
    peak: valuePeakText(row, texts.lang),
    count: row.count,
    status: row.status,
    acknowledged: row.acknowledgedAt ? [row.acknowledgedBy, formatTime(row.acknowledgedAt)].filter(Boolean).join(' · ') : '',
    assignee: row.assignee ? row.assignee.name : '',
    workOrder: row.workOrder?.code ?? '',
    policyName: row.policyName,
    task: row.task?.code ?? '',
    orgName: row.orgName,
    row,
  };
}

/** The levels of the list and of the rows (a row may name one the list lacks), by priority. */
export function knownLevels(levels: readonly LevelInfo[] | undefined, rows: readonly AlarmRow[] = []): LevelInfo[] {
  const byId = new Map<string, LevelInfo>();
  for (const l of levels ?? []) byId.set(l.id, l);
  for (const r of rows) if (!byId.has(r.level.id)) byId.set(r.level.id, r.level);
  return [...byId.values()].sort((a, b) => a.priority - b.priority || a.nameEn.localeCompare(b.nameEn));
}

// ---- map

/** An alarm on the map: a point per alarm with a position, its category the level's code. */
export function alarmPoints(rows: readonly AlarmRow[], typeName: (t: AlarmType) => string): LivePoint<string>[] {
  const points: LivePoint<string>[] = [];
  for (const r of rows) {
    if (r.lat === null || r.lon === null) continue;
    points.push({ id: r.id, name: `${r.device.name} · ${typeName(r.type)}`, status: r.level.code, lat: r.lat, lon: r.lon });
  }
  return points;
}

/**
 * One entry per level code, most important first, its `id` the code: a user who sees several
 * organisations sees each one's levels (four each by default), and counters and the map's
 * legend show a level once.
 */
export function levelsByCode(levels: readonly LevelInfo[]): LevelInfo[] {
  const byCode = new Map<string, LevelInfo>();
  for (const l of levels) if (!byCode.has(l.code)) byCode.set(l.code, { ...l, id: l.code });
  return [...byCode.values()];
}

/** The map's palette: the levels by code (see levelsByCode), most important first, in their colours. */
export function levelPalette(levels: readonly LevelInfo[]): MapPalette<string> {
  const colors = new Map(levels.map((l) => [l.id, l.color]));
  return { severity: levels.map((l) => l.id), color: (id) => colors.get(id) ?? '#8c8c8c' };
}

// ---- real-time list

/** Alarms pushed since the last flush, the newest row of each. */
export class AlarmBuffer extends LiveBuffer<AlarmRow> {}

/** Newest first, as the real-time list is sorted (startedAt desc, then id desc). */
function newerFirst(a: AlarmRow, b: AlarmRow): number {
  return b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id);
}

/**
 * One page of the active alarms (newest first) after a batch of pushed alarms: a cleared or
 * closed alarm leaves it, a changed one (acknowledged, repeated) is replaced, a new one joins the
 * first page in its place (the page keeps its size; the last row moves on to the next page).
 * Answers `page` itself when nothing on it changed.
 */
export function mergeActive(page: Page<AlarmRow>, batch: ReadonlyMap<string, AlarmRow>): Page<AlarmRow> {
  let rows = page.rows;
  let total = page.total;
  let changed = false;
  const at = new Map(rows.map((r, i) => [r.id, i]));
  for (const pushed of batch.values()) {
    const i = at.get(pushed.id);
    if (pushed.status !== 'active') {
      if (i === undefined) continue;
      rows = rows.filter((r) => r.id !== pushed.id);
      total = Math.max(0, total - 1);
    } else if (i !== undefined) {
      rows = rows.map((r) => (r.id === pushed.id ? pushed : r));
    } else if (page.page === 1) {
      const last = rows[rows.length - 1];
      // Older than every row of a full first page: it belongs further on.
      if (rows.length >= page.size && last && newerFirst(pushed, last) > 0) {
        if (pushed.count === 1) total += 1;
        continue;
      }
      rows = [...rows, pushed].sort(newerFirst).slice(0, page.size);
      total += 1;
    } else {
      // On a later page a new alarm shifts the rows; the page is read again when it is next shown.
      if (pushed.count === 1) total += 1;
      continue;
    }
    changed = true;
    at.clear();
    rows.forEach((r, k) => at.set(r.id, k));
  }
  if (!changed && total === page.total) return page;
  return { ...page, rows, total };
}

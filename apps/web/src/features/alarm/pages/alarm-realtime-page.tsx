// alarm/realtime: the active alarms, newest first, paged (50 a page), with a counter per level
// above them and a map beside them (a marker per alarm, coloured by level). `RealtimeAlarms` with
// `tasks` is the same screen for the transport tasks' alarms only (task-alarms-page.tsx).
// Alarms pushed over the live channel are collected and applied every LIVE_FLUSH_MS: merged per
// alarm, so a cleared or closed one leaves the list, an acknowledged or repeated one is updated
// and a new one joins the first page. A row focuses its marker (and a marker its row); users who
// may handle alarms acknowledge or close them from the row.
// Address: `page`, `size`.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Card } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import { PAGE_SIZE_DEFAULT } from '@iotc/shared/constants';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { useAlarmLevels } from '../../../api/alarm-levels.ts';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { useLiveAlarms } from '../../../lib/live.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { getUserinfo } from '../../../lib/session.ts';
import { alarmEventsQueryOptions, alarmQueryOptions } from '../api/alarm-detail.ts';
import { alarmStatsQueryOptions, useAlarmStats } from '../api/alarm-stats.ts';
import { alarmFilters, alarmsQueryOptions, TIME_FILTER, useAlarms } from '../api/alarms.ts';
import { alarmRealtimeDescriptor } from '../components/alarm-columns.tsx';
import { AlarmDetailDrawer } from '../components/alarm-detail-drawer.tsx';
import { AlarmLiveIndicator } from '../components/alarm-live-indicator.tsx';
import { AlarmMap } from '../components/alarm-map.tsx';
import { AlarmBuffer, knownLevels, mergeActive, toAlarmView, type AlarmView, type LevelInfo } from '../components/alarm-model.ts';
import { LevelCounters } from '../components/level-counters.tsx';
import { useAlarmActions } from '../components/use-alarm-actions.tsx';
import { useAlarmTexts } from '../components/use-alarm-texts.ts';
import '../components/alarm.css';

/** Live batches are applied at most this often. */
export const LIVE_FLUSH_MS = 500;
export const REALTIME_PAGE_SIZE = PAGE_SIZE_DEFAULT;
export const REALTIME_SORT = 'startedAt,desc';
/** The counters are read again this long after alarms opened or ended (once for a burst). */
export const COUNTS_REFRESH_MS = 1000;
/** Data read this recently needs no second read when the live channel first opens. */
const FRESH_MS = 2000;

const ACTIVE: FilterValues = { status: 'active' };
const TASK_ACTIVE: FilterValues = { status: 'active', inTask: 'true' };
const NO_ALARMS: AlarmRow[] = [];
/** Active alarms are recent: the window picks days of the last week only (the spec's 'lastweekdate'). */
const FILTER_ITEMS: FilterItem[] = [{ label: 'alarm.filter.time', key: TIME_FILTER, type: 'lastweekdate' }];

/** Whether a live alarm falls in the chosen window (the list call's `from` / `to` on its start). */
export function inWindow(row: Pick<AlarmRow, 'startedAt'>, window: FilterValues): boolean {
  const at = Date.parse(row.startedAt);
  if (window.from && at < Date.parse(window.from)) return false;
  if (window.to && at > Date.parse(window.to)) return false;
  return true;
}

/** The same levels keep the same array, so the map does not redraw its markers for every batch. */
function useStableLevels(levels: LevelInfo[]): LevelInfo[] {
  const key = levels.map((l) => `${l.id}:${l.color}:${l.priority}:${l.nameZh}:${l.nameEn}`).join('|');
  const [kept, setKept] = useState({ key, levels });
  if (kept.key !== key) setKept({ key, levels });
  return kept.key === key ? kept.levels : levels;
}

export default function AlarmRealtimePage(_props: ScreenProps) {
  const { t } = useTranslation();
  return <RealtimeAlarms title={t('alarm.realtime.title')} />;
}

export interface RealtimeAlarmsProps {
  title: string;
  /** Only the alarms of transport tasks, with their task column shown. */
  tasks?: boolean;
}

export function RealtimeAlarms({ title, tasks = false }: RealtimeAlarmsProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const texts = useAlarmTexts();
  const list = useListParams(tasks ? 'alarm-task-realtime' : 'alarm-realtime', { size: REALTIME_PAGE_SIZE });
  const filters = useMemo<FilterValues>(() => ({ ...alarmFilters(list.filters), ...(tasks ? TASK_ACTIVE : ACTIVE) }), [list.filters, tasks]);
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: REALTIME_SORT, filters }), [list.page, list.size, filters]);
  const query = useAlarms(state);
  const counts = useAlarmStats(filters, 'day');
  const levelList = useAlarmLevels();
  const alarms = query.data?.rows ?? NO_ALARMS;
  const levels = useStableLevels(knownLevels(levelList.data, alarms));
  const rows = useMemo(() => alarms.map((r) => toAlarmView(r, texts)), [alarms, texts]);
  const [selected, setSelected] = useState<string | null>(null);
  const [detailId, setDetailId] = useState<string | null>(null);

  // ---- live ----
  const [buffer] = useState(() => new AlarmBuffer());
  const [everOpen, setEverOpen] = useState(false);
  const hellos = useRef(0);
  const countsTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const current = useRef(state);
  useEffect(() => {
    current.current = state;
  }, [state]);

  const refreshCounts = useCallback(() => {
    if (countsTimer.current !== undefined) return;
    countsTimer.current = setTimeout(() => {
      countsTimer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: alarmStatsQueryOptions(filters, 'day').queryKey });
    }, COUNTS_REFRESH_MS);
  }, [queryClient, filters]);
  useEffect(() => () => clearTimeout(countsTimer.current), []);

  // The live channel carries every alarm of the user's organisations.
  const onAlarms = useCallback(
    (batch: AlarmRow[]) => buffer.push(batch.filter((r) => (!tasks || r.taskId !== null) && inWindow(r, filters))),
    [buffer, tasks, filters],
  );
  const onHello = useCallback(() => {
    hellos.current += 1;
    setEverOpen(true);
    // The first greeting follows the screen's first reads, which then need no second one; after a
    // reconnect anything shown may have missed changes, so all of it is read again.
    const stale = hellos.current === 1 ? (q: { state: { fetchStatus: string; dataUpdatedAt: number } }) => q.state.fetchStatus !== 'fetching' && Date.now() - q.state.dataUpdatedAt > FRESH_MS : undefined;
    void queryClient.invalidateQueries({ queryKey: alarmsQueryOptions(current.current).queryKey, predicate: stale });
    void queryClient.invalidateQueries({ queryKey: alarmStatsQueryOptions(filters, 'day').queryKey, predicate: stale });
  }, [queryClient, filters]);
  const channel = useLiveAlarms(onAlarms, onHello);

  useEffect(() => {
    const timer = setInterval(() => buffer.flush(), LIVE_FLUSH_MS);
    return () => clearInterval(timer);
  }, [buffer]);

  /** Takes changed alarms into the page shown and into an open details drawer. */
  const apply = useCallback(
    (batch: ReadonlyMap<string, AlarmRow>) => {
      const key = alarmsQueryOptions(current.current).queryKey;
      const page = queryClient.getQueryData<Page<AlarmRow>>(key);
      if (page) {
        const merged = mergeActive(page, batch);
        if (merged !== page) queryClient.setQueryData<Page<AlarmRow>>(key, merged);
      }
      for (const row of batch.values()) {
        const one = alarmQueryOptions(row.id).queryKey;
        if (!queryClient.getQueryData(one)) continue;
        queryClient.setQueryData(one, row);
        // Its timeline has a new entry too.
        void queryClient.invalidateQueries({ queryKey: alarmEventsQueryOptions(row.id).queryKey });
      }
    },
    [queryClient],
  );

  useEffect(
    () =>
      buffer.subscribe((batch) => {
        apply(batch);
        for (const row of batch.values()) {
          // A new alarm or one that ended changes the counters.
          if (row.status !== 'active' || row.count === 1) {
            refreshCounts();
            break;
          }
        }
      }),
    [buffer, apply, refreshCounts],
  );

  const actions = useAlarmActions(
    useCallback(
      (row: AlarmRow) => {
        apply(new Map([[row.id, row]]));
        if (row.status !== 'active') refreshCounts();
      },
      [apply, refreshCounts],
    ),
  );

  const select = useCallback((id: string) => setSelected(id), []);
  const selectRow = useCallback((row: AlarmView) => setSelected(row.id), []);
  const openDetails = useCallback((row: AlarmView) => setDetailId(row.id), []);
  const [userId] = useState(() => getUserinfo()?.id);
  const descriptor = alarmRealtimeDescriptor({ levels, lang: texts.lang, actions, onDetails: openDetails, userId, tasks });

  return (
    <Card
      className="alarm-page"
      data-testid="alarm-realtime"
      title={<span data-testid="screen-title">{title}</span>}
      extra={<AlarmLiveIndicator channel={channel} everOpen={everOpen} />}
    >
      <FilterBar items={FILTER_ITEMS} value={list.filters} onSearch={list.setFilters} />
      <LevelCounters levels={levels} counts={counts.data?.byLevel} />
      <div className="alarm-realtime-body">
        <DataTable<AlarmView>
          descriptor={descriptor}
          rows={rows}
          total={query.data?.total ?? 0}
          page={list.page}
          size={list.size}
          onChange={(page, size) => list.setTable(page, size, undefined)}
          loading={query.isPending || query.isPlaceholderData}
          error={query.isError && !query.data ? query.error : undefined}
          onRetry={() => void query.refetch()}
          onRowClick={selectRow}
          activeRowKey={selected}
          emptyText={t('alarm.realtime.none')}
        />
        <div className="alarm-realtime-map">
          <AlarmMap rows={alarms} levels={levels} selectedId={selected} onSelect={select} />
        </div>
      </div>
      <AlarmDetailDrawer id={detailId} onClose={() => setDetailId(null)} actions={actions} />
      {actions.dialog}
    </Card>
  );
}

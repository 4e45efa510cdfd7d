// alarm/flow: alarms by where their handling stands — waiting to be acknowledged, handled by the
// user, in a work order, closed, or all — in a time window (the last 7 days unless chosen), with
// level and keyword filters. Every row acknowledges, assigns, opens a work order or closes; a row
// opens its details with the whole timeline (created, notified, acknowledged, assigned, commented,
// work order opened, cleared, closed) and the comment box.
// Address: `stage`, `page`, `size`, `sort`, `f.timeFrom`, `f.timeTo`, `f.levelId`, `f.keyword`,
// and `alarm` (the alarm whose details are open).
import { useCallback, useMemo, useState } from 'react';
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { Lang } from '@iotc/shared/i18n';
import { PATTERNS } from '@iotc/shared/validation';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { useAlarmLevels } from '../../../api/alarm-levels.ts';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { getUserinfo } from '../../../lib/session.ts';
import { alarmFilters, TIME_FILTER, useAlarms } from '../api/alarms.ts';
import { alarmFlowDescriptor } from '../components/alarm-columns.tsx';
import { AlarmDetailDrawer } from '../components/alarm-detail-drawer.tsx';
import { knownLevels, levelName, toAlarmView, type AlarmView, type LevelInfo } from '../components/alarm-model.ts';
import { useAlarmActions } from '../components/use-alarm-actions.tsx';
import { useAlarmTexts } from '../components/use-alarm-texts.ts';
import { DEFAULT_SORT, lastWeek, withDefaultWindow } from '../components/alarm-window.ts';
import '../components/alarm.css';

export const FLOW_STAGES = ['pending', 'mine', 'workOrders', 'closed', 'all'] as const;
export type FlowStage = (typeof FLOW_STAGES)[number];

/** The API filters of each stage, added to the filter bar's. */
export const STAGE_FILTERS: Record<FlowStage, FilterValues> = {
  pending: { status: 'active', acknowledged: 'false' },
  mine: { mine: 'true', status: 'active,cleared' },
  workOrders: { inWorkOrder: 'true' },
  closed: { status: 'closed' },
  all: {},
};

function stageOf(value: string | null): FlowStage {
  return (FLOW_STAGES as readonly string[]).includes(value ?? '') ? (value as FlowStage) : 'pending';
}

function filterItems(levels: readonly LevelInfo[], lang: Lang): FilterItem[] {
  return [
    { label: 'alarm.filter.time', key: TIME_FILTER, type: 'datetimerange-noclear' },
    { label: 'alarm.filter.level', key: 'levelId', type: 'multiselect', width: 220, options: levels.map((l) => ({ value: l.id, label: levelName(l, lang) })) },
    { label: 'alarm.filter.keyword', key: 'keyword', type: 'input', width: 260, placeholder: 'alarm.filter.keywordPlaceholder' },
  ];
}

export default function AlarmFlowPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const texts = useAlarmTexts();
  const [params, setParams] = useSearchParams();
  const list = useListParams('alarm-flow', { sort: DEFAULT_SORT });
  const [fallback, setFallback] = useState(() => lastWeek());
  const stage = stageOf(params.get('stage'));

  const shown = useMemo(() => withDefaultWindow(list.filters, fallback), [list.filters, fallback]);
  const filters = useMemo(() => alarmFilters({ ...shown, ...STAGE_FILTERS[stage] }), [shown, stage]);
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters }), [list.page, list.size, list.sort, filters]);
  const query = useAlarms(state);
  const levelList = useAlarmLevels();
  const levels = useMemo(() => knownLevels(levelList.data, query.data?.rows), [levelList.data, query.data]);
  const rows = useMemo(() => (query.data?.rows ?? []).map((r) => toAlarmView(r, texts)), [query.data, texts]);
  const items = useMemo(() => filterItems(levels, texts.lang), [levels, texts.lang]);

  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          change(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const rawAlarm = params.get('alarm')?.trim();
  const detailId = rawAlarm && PATTERNS.uuid.test(rawAlarm) ? rawAlarm : null;
  const setDetail = useCallback((id: string | null) => update((next) => (id ? next.set('alarm', id) : next.delete('alarm'))), [update]);
  const openRow = useCallback((row: AlarmView) => setDetail(row.id), [setDetail]);
  const setStage = (next: string) =>
    update((p) => {
      p.set('stage', next);
      p.delete('page');
    });

  const actions = useAlarmActions();
  const [userId] = useState(() => getUserinfo()?.id);
  const descriptor = alarmFlowDescriptor({ levels, lang: texts.lang, actions, onDetails: openRow, userId });

  return (
    <Card className="alarm-page" title={<span data-testid="screen-title">{t('alarm.flow.title')}</span>} data-testid="alarm-flow">
      <Tabs
        activeKey={stage}
        onChange={setStage}
        data-testid="alarm-flow-stages"
        items={FLOW_STAGES.map((s) => ({ key: s, label: <span data-testid={`alarm-flow-stage-${s}`}>{t(`alarm.flow.stage.${s}`)}</span> }))}
      />
      <FilterBar
        items={items}
        value={shown}
        onSearch={list.setFilters}
        onReset={() => {
          setFallback(lastWeek());
          list.setFilters({});
        }}
      />
      <DataTable<AlarmView>
        descriptor={descriptor}
        rows={rows}
        total={query.data?.total ?? 0}
        page={list.page}
        size={list.size}
        sort={list.sort}
        onChange={list.setTable}
        loading={query.isFetching}
        error={query.isError && !query.data ? query.error : undefined}
        onRetry={() => void query.refetch()}
        onRowClick={openRow}
        activeRowKey={detailId}
        emptyText={t(`alarm.flow.none.${stage}`)}
      />
      <AlarmDetailDrawer id={detailId} onClose={() => setDetail(null)} actions={actions} />
      {actions.dialog}
    </Card>
  );
}

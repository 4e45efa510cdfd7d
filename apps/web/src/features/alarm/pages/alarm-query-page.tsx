// alarm/query: the alarms of a time window (the last 7 days unless chosen), filtered by type,
// level, status, acknowledgement and a keyword (device id or name, asset, policy); statistics by
// type, level and over time for the same filters; the paged list, sortable by start, level and
// peak, exported to Excel or CSV; a row opens its details and timeline, where users who may
// handle alarms acknowledge or close it.
// Address: `page`, `size`, `sort`, `f.timeFrom`, `f.timeTo`, `f.type`, `f.levelId`, `f.status`
// (comma lists), `f.acknowledged`, `f.keyword`, and `alarm` (the alarm whose details are open).
import { useCallback, useMemo, useState } from 'react';
import { Card } from 'antd';
import { FileExcelOutlined, FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ALARM_STATUSES, ALARM_TYPES } from '@iotc/shared/alarm';
import type { Lang } from '@iotc/shared/i18n';
import { PATTERNS } from '@iotc/shared/validation';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { useAlarmLevels } from '../../../api/alarm-levels.ts';
import { useListParams, type ListState } from '../../../lib/list-query.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { getUserinfo } from '../../../lib/session.ts';
import { useExport } from '../../../lib/use-export.ts';
import { alarmFilters, exportAlarms, TIME_FILTER, useAlarms } from '../api/alarms.ts';
import { alarmQueryDescriptor } from '../components/alarm-columns.tsx';
import { lazyPart } from '../../../components/lazy-part.tsx';
import { knownLevels, levelName, toAlarmView, type AlarmView, type LevelInfo } from '../components/alarm-model.ts';
import { AlarmStatsSection } from '../components/alarm-stats.tsx';
import { useAlarmActions } from '../components/use-alarm-actions.tsx';
import { useAlarmTexts } from '../components/use-alarm-texts.ts';
import { DEFAULT_SORT, lastWeek, withDefaultWindow } from '../components/alarm-window.ts';
import '../components/alarm.css';

// The detail drawer starts closed: its code (steps, timeline) comes when an alarm is opened.
const AlarmDetailDrawer = lazyPart(() => import('../components/alarm-detail-drawer.tsx').then((m) => m.AlarmDetailDrawer));

function filterItems(levels: readonly LevelInfo[], lang: Lang): FilterItem[] {
  return [
    { label: 'alarm.filter.time', key: TIME_FILTER, type: 'datetimerange-noclear' },
    { label: 'alarm.filter.type', key: 'type', type: 'multiselect', width: 240, options: ALARM_TYPES.map((type) => ({ value: type, label: `alarm.type.${type}` })) },
    { label: 'alarm.filter.level', key: 'levelId', type: 'multiselect', width: 220, options: levels.map((l) => ({ value: l.id, label: levelName(l, lang) })) },
    { label: 'alarm.filter.status', key: 'status', type: 'multiselect', width: 220, options: ALARM_STATUSES.map((s) => ({ value: s, label: `alarm.status.${s}` })) },
    {
      label: 'alarm.filter.acknowledged',
      key: 'acknowledged',
      type: 'select',
      width: 130,
      options: [
        { value: 'true', label: 'alarm.ack.yes' },
        { value: 'false', label: 'alarm.ack.no' },
      ],
    },
    { label: 'alarm.filter.keyword', key: 'keyword', type: 'input', width: 260, placeholder: 'alarm.filter.keywordPlaceholder' },
  ];
}

export default function AlarmQueryPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const texts = useAlarmTexts();
  const [params, setParams] = useSearchParams();
  const list = useListParams('alarm-query', { sort: DEFAULT_SORT });
  const [fallback, setFallback] = useState(() => lastWeek());

  const shown = useMemo(() => withDefaultWindow(list.filters, fallback), [list.filters, fallback]);
  const filters = useMemo(() => alarmFilters(shown), [shown]);
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters }), [list.page, list.size, list.sort, filters]);
  const query = useAlarms(state);
  const levelList = useAlarmLevels();
  const levels = useMemo(() => knownLevels(levelList.data, query.data?.rows), [levelList.data, query.data]);
  const rows = useMemo(() => (query.data?.rows ?? []).map((r) => toAlarmView(r, texts)), [query.data, texts]);
  const items = useMemo(() => filterItems(levels, texts.lang), [levels, texts.lang]);

  const rawAlarm = params.get('alarm')?.trim();
  const detailId = rawAlarm && PATTERNS.uuid.test(rawAlarm) ? rawAlarm : null;
  const setDetail = useCallback(
    (id: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id) next.set('alarm', id);
          else next.delete('alarm');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const openRow = useCallback((row: AlarmView) => setDetail(row.id), [setDetail]);

  const actions = useAlarmActions();
  const { exporting, download } = useExport(
    (format) => exportAlarms(format, { filters, sort: list.sort }),
    (name) => t('alarm.query.exported', { name }),
  );
  const [userId] = useState(() => getUserinfo()?.id);

  const descriptor = alarmQueryDescriptor({
    levels,
    lang: texts.lang,
    actions,
    onDetails: openRow,
    userId,
    topButtons: [
      { name: 'alarm.query.exportXlsx', icon: <FileExcelOutlined />, onClick: () => void download('xlsx'), disabled: exporting !== null, testId: 'alarm-export-xlsx' },
      { name: 'alarm.query.exportCsv', icon: <FileTextOutlined />, onClick: () => void download('csv'), disabled: exporting !== null, testId: 'alarm-export-csv' },
    ],
  });

  return (
    <Card className="alarm-page" title={<span data-testid="screen-title">{t('alarm.query.title')}</span>} data-testid="alarm-query">
      <FilterBar
        items={items}
        value={shown}
        onSearch={list.setFilters}
        onReset={() => {
          setFallback(lastWeek());
          list.setFilters({});
        }}
      />
      <AlarmStatsSection filters={filters} levels={levels} />
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
        emptyText={t('alarm.query.none')}
      />
      <AlarmDetailDrawer when={detailId !== null} id={detailId} onClose={() => setDetail(null)} actions={actions} />
      {actions.dialog}
    </Card>
  );
}

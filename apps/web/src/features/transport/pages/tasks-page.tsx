// transport/tasks: the transport tasks of the caller's organisations. Tabs by status (and
// Abnormal: on the road with an open alarm, or late) with their counts; filters (code, goods,
// customer, driver or place; high value; planned start; organisation); the paged table with the
// moves each status allows, exported to Excel or CSV; writers create tasks, from scratch, from a
// template or from a sheet. Address: `page`, `size`, `sort`, `f.status` (the tab), `f.keyword`,
// `f.highValue`, `f.plannedFrom`, `f.plannedTo`, `f.orgId`; `id`: the task whose details are
// open; `taskId`: the same (the alarm screens link here), turned into `id`; `templateId`: open the
// new-task form filled from that template (the templates screen links here), taken out of the
// address once the form is open. A task created, edited or moved anywhere (the recogniser too)
// reaches the screen through the live channel, which reads the page and the counts again.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { App, Card } from 'antd';
import { FileExcelOutlined, FileTextOutlined, ImportOutlined, PlusOutlined, SnippetsOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { TASK_VIEW_STATUSES, type TaskViewStatus } from '@iotc/shared/transport';
import { useOrgFilter } from '../../../components/org-filter.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TopButton } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { TabBar, TabCount } from '../../../components/tab-bar.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useLiveRefresh } from '../../../lib/live.ts';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { getUserinfo } from '../../../lib/session.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useExport } from '../../../lib/use-export.ts';
import { useTemplate } from '../api/template-detail.ts';
import { exportTasks, PLANNED_FILTER, TASK_LISTS_KEY, taskFilters, useTaskCounts, useTasks } from '../api/tasks.ts';
import { taskDescriptor } from '../components/task-columns.tsx';
import type { TaskFormTarget } from '../components/task-form-drawer.tsx';
import { ALL_COLOR, STATUS_COLORS, taskValuesFromTemplate, toTaskView, uuidOrNull, type RowWords, type TaskView } from '../components/task-model.ts';
import { useTaskActions } from '../components/use-task-actions.tsx';
import '../components/transport.css';
import { lazyPart } from '../../../components/lazy-part.tsx';

// The drawers and dialogs start closed: their code (forms, upload, steps) comes when one opens.
const TaskDetailDrawer = lazyPart(() => import('../components/task-detail-drawer.tsx').then((m) => m.TaskDetailDrawer));
const TaskFormDrawer = lazyPart(() => import('../components/task-form-drawer.tsx').then((m) => m.TaskFormDrawer));
const TemplatePickModal = lazyPart(() => import('../components/template-pick-modal.tsx').then((m) => m.TemplatePickModal));
const TaskImportModal = lazyPart(() => import('../components/import-modal.tsx').then((m) => m.TaskImportModal));

export const DEFAULT_SORT = 'createdAt,desc';
type Tab = 'all' | TaskViewStatus;
const TABS: readonly Tab[] = ['all', ...TASK_VIEW_STATUSES];

/** The tab of the address's status filter: one known status, else All. */
export function tabOf(status: string | undefined): Tab {
  return (TASK_VIEW_STATUSES as readonly string[]).includes(status ?? '') ? (status as TaskViewStatus) : 'all';
}

function filterItems(org: FilterItem | null): FilterItem[] {
  return [
    { label: 'transport.filter.keyword', key: 'keyword', type: 'input', width: 240, placeholder: 'transport.filter.keywordPlaceholder' },
    {
      label: 'transport.filter.highValue',
      key: 'highValue',
      type: 'select',
      width: 140,
      options: [
        { value: 'true', label: 'transport.filter.highValueOnly' },
        { value: 'false', label: 'transport.filter.highValueNot' },
      ],
    },
    { label: 'transport.filter.plannedStart', key: PLANNED_FILTER, type: 'datetimerange' },
    ...(org ? [org] : []),
  ];
}

export default function TasksPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const can = usePermission();
  const canWrite = can('transport:write');
  const [params, setParams] = useSearchParams();
  const list = useListParams('transport-tasks', { sort: DEFAULT_SORT });
  const tab = tabOf(list.filters.status);

  const shown = useMemo((): FilterValues => {
    const { status: _status, ...rest } = list.filters;
    return tab === 'all' ? rest : { ...rest, status: tab };
  }, [list.filters, tab]);
  const filters = useMemo(() => taskFilters(shown), [shown]);
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters }), [list.page, list.size, list.sort, filters]);
  const query = useTasks(state);
  const counts = useTaskCounts(filters);
  const queryClient = useQueryClient();
  useLiveRefresh(() => void queryClient.invalidateQueries({ queryKey: TASK_LISTS_KEY }), { tasks: true });
  const orgFilter = useOrgFilter('transport.filter.org');
  const items = useMemo(() => filterItems(orgFilter), [orgFilter]);

  const words = useMemo(
    (): RowWords => ({
      status: (s) => t(`transport.status.${s}`),
      highValue: t('transport.task.highValue'),
      reason: (r) => t(`transport.abnormal.${r}`),
      alarms: (n) => t('transport.abnormal.alarms', { count: n }),
      auto: t('transport.mode.auto'),
      manual: t('transport.mode.manual'),
      yes: t('transport.yes'),
      no: t('transport.no'),
      lang,
    }),
    [t, lang],
  );
  const rows = useMemo(() => (query.data?.rows ?? []).map((r) => toTaskView(r, words)), [query.data, words]);

  const keepTab = useCallback((values: FilterValues) => list.setFilters(tab === 'all' ? values : { ...values, status: tab }), [list, tab]);
  const changeTab = (key: string) => {
    const { status: _status, ...rest } = list.filters;
    list.setFilters(key === 'all' ? rest : { ...rest, status: key });
  };

  const setParam = useCallback(
    (name: string, value: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  // `?taskId=`: that task's details, kept in the address as `id` like any opened from the list.
  const rawTaskId = params.get('taskId');
  const linkedId = uuidOrNull(rawTaskId);
  useEffect(() => {
    if (rawTaskId === null) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('taskId');
        if (linkedId) next.set('id', linkedId);
        return next;
      },
      { replace: true },
    );
  }, [rawTaskId, linkedId, setParams]);
  const detailId = linkedId ?? uuidOrNull(params.get('id'));
  const setDetail = useCallback((id: string | null) => setParam('id', id), [setParam]);

  const creator = useDialog<TaskFormTarget>();
  const picking = useDialog<true>();
  const importing = useDialog<true>();
  const actions = useTaskActions((made) => setDetail(made.id));

  // `?templateId=`: the new-task form filled from the template, once it is read.
  const templateId = canWrite ? uuidOrNull(params.get('templateId')) : null;
  const template = useTemplate(templateId);
  const showCreator = creator.show;
  useEffect(() => {
    if (!templateId) return;
    if (template.data && template.data.id === templateId) {
      showCreator({ mode: 'create', values: taskValuesFromTemplate(template.data), templateName: template.data.name });
      setParam('templateId', null);
    } else if (template.isError) {
      void message.error(apiErrorText(template.error, lang));
      setParam('templateId', null);
    }
  }, [templateId, template.data, template.isError, template.error, showCreator, setParam, message, lang]);

  const { exporting, download } = useExport(
    (format) => exportTasks(format, { filters, sort: list.sort }),
    (name) => t('transport.exported', { name }),
  );
  const [userId] = useState(() => getUserinfo()?.id);

  const topButtons: TopButton[] = [
    ...(canWrite
      ? [
          { name: 'transport.task.new', icon: <PlusOutlined />, primary: true, testId: 'tt-new', onClick: () => creator.show({ mode: 'create' }) },
          { name: 'transport.task.newFromTemplate', icon: <SnippetsOutlined />, testId: 'tt-new-from-template', onClick: () => picking.show(true) },
          { name: 'transport.task.import', icon: <ImportOutlined />, testId: 'tt-import', onClick: () => importing.show(true) },
        ]
      : []),
    { name: 'transport.exportXlsx', icon: <FileExcelOutlined />, onClick: () => void download('xlsx'), disabled: exporting !== null, testId: 'tt-export-xlsx' },
    { name: 'transport.exportCsv', icon: <FileTextOutlined />, onClick: () => void download('csv'), disabled: exporting !== null, testId: 'tt-export-csv' },
  ];
  const openRow = useCallback((row: TaskView) => setDetail(row.id), [setDetail]);
  const descriptor = taskDescriptor({
    onDetails: openRow,
    onEdit: (row) => creator.show({ mode: 'edit', row: row.row }),
    onCopy: (row) => actions.copy(row.row),
    onMove: (row, action) => actions.run(row.row, action),
    onHandover: (row) => actions.handover(row.row),
    canWrite,
    topButtons,
    userId,
  });

  if (!can('transport:read')) return <Forbidden />;

  return (
    <Card className="tt-page" title={<span data-testid="screen-title">{t('transport.task.title')}</span>} data-testid="transport-tasks-page">
      <TabBar
        activeKey={tab}
        onChange={changeTab}
        items={TABS.map((key) => {
          const color = key === 'all' ? ALL_COLOR : STATUS_COLORS[key];
          const count = counts.data?.[key];
          return {
            key,
            name: key === 'all' ? 'transport.tab.all' : `transport.status.${key}`,
            testId: `tt-tab-${key}`,
            extra: <TabCount count={count} color={color} testId={`tt-tab-${key}-count`} />,
          };
        })}
      />
      <FilterBar items={items} value={shown} onSearch={keepTab} onReset={() => keepTab({})} />
      <DataTable<TaskView>
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
        emptyText={t('transport.task.none')}
      />
      <TaskDetailDrawer when={detailId !== null} id={detailId} onClose={() => setDetail(null)} canWrite={canWrite} onOpen={setDetail} />
      <TaskFormDrawer when={creator.open} formName="ttNew" target={creator.target} open={creator.open} onClose={creator.hide} afterClose={creator.afterClose} onSaved={(task) => setDetail(task.id)} />
      <TemplatePickModal
        when={picking.open}
        open={picking.open}
        onClose={picking.hide}
        onPick={(id) => {
          picking.hide();
          setParam('templateId', id);
        }}
      />
      <TaskImportModal when={importing.open} open={importing.open} onClose={importing.hide} />
      {actions.dialog}
    </Card>
  );
}

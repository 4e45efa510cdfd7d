// alarm/workOrders: the work orders of the caller's organisations. Tabs by status with their
// totals; filters (code or title, priority, assignee, only mine, overdue, created time); the
// paged table, sortable by priority, due time and creation, exported to Excel or CSV; handlers
// open new orders. A row opens its details, where handlers edit it, move its status, link alarms
// and comment. Address: `page`, `size`, `sort`, `f.status` (the tab), `f.keyword`, `f.priority`,
// `f.assigneeId`, `f.mine`, `f.overdue`, `f.createdFrom`, `f.createdTo`, and `id`: the order whose
// details are open (the alarm screens link to `/view/alarm/workOrders?id=<uuid>`).
import { useCallback, useMemo, useState } from 'react';
import { Card } from 'antd';
import { FileExcelOutlined, FileTextOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { WORK_ORDER_PRIORITIES, WORK_ORDER_STATUSES, type WorkOrderStatus } from '@iotc/shared/work-order';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TopButton } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem, type FilterOption } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { TabBar, TabCount } from '../../../components/tab-bar.tsx';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { getUserinfo } from '../../../lib/session.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useExport } from '../../../lib/use-export.ts';
import { useAssigneeOptions } from '../api/assignee-options.ts';
import { CREATED_FILTER, exportWorkOrders, useStatusTotals, useWorkOrders, workOrderFilters } from '../api/work-orders.ts';
import { workOrderDescriptor } from '../components/work-order-columns.tsx';
import { WorkOrderDetailDrawer } from '../components/work-order-detail-drawer.tsx';
import { WorkOrderFormModal, type WorkOrderFormTarget } from '../components/work-order-form-modal.tsx';
import { STATUS_COLORS, toWorkOrderView, uuidOrNull, type WorkOrderView } from '../components/work-order-model.ts';
import '../components/work-order.css';

export const DEFAULT_SORT = 'createdAt,desc';
type Tab = 'all' | WorkOrderStatus;
const TABS: readonly Tab[] = ['all', ...WORK_ORDER_STATUSES];
const ALL_COLOR = '#1677ff';

/** The tab of the address's status filter: one known status, else All. */
export function tabOf(status: string | undefined): Tab {
  return (WORK_ORDER_STATUSES as readonly string[]).includes(status ?? '') ? (status as WorkOrderStatus) : 'all';
}

function filterItems(assignees: FilterOption[] | null): FilterItem[] {
  return [
    { label: 'workOrder.filter.keyword', key: 'keyword', type: 'input', width: 220, placeholder: 'workOrder.filter.keywordPlaceholder' },
    { label: 'workOrder.filter.priority', key: 'priority', type: 'multiselect', width: 200, options: WORK_ORDER_PRIORITIES.map((p) => ({ value: p, label: `workOrder.priority.${p}` })) },
    ...(assignees ? [{ label: 'workOrder.filter.assignee', key: 'assigneeId', type: 'select' as const, width: 200, options: assignees }] : []),
    { label: 'workOrder.filter.mine', key: 'mine', type: 'select', width: 150, options: [{ value: 'true', label: 'workOrder.filter.mineOnly' }] },
    {
      label: 'workOrder.filter.overdue',
      key: 'overdue',
      type: 'select',
      width: 140,
      options: [
        { value: 'true', label: 'workOrder.filter.overdueYes' },
        { value: 'false', label: 'workOrder.filter.overdueNo' },
      ],
    },
    { label: 'workOrder.filter.created', key: CREATED_FILTER, type: 'datetimerange' },
  ];
}

export default function WorkOrdersPage(props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const canHandle = can('alarm:handle');
  const [params, setParams] = useSearchParams();
  const list = useListParams('work-orders', { sort: DEFAULT_SORT });
  const tab = tabOf(list.filters.status);

  // The tab's status, never a list of them from a hand-written address.
  const shown = useMemo((): FilterValues => {
    const { status: _status, ...rest } = list.filters;
    return tab === 'all' ? rest : { ...rest, status: tab };
  }, [list.filters, tab]);
  const filters = useMemo(() => workOrderFilters(shown), [shown]);
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters }), [list.page, list.size, list.sort, filters]);
  const query = useWorkOrders(state);
  const totals = useStatusTotals(filters);
  const assignees = useAssigneeOptions(canHandle);
  const items = useMemo(() => filterItems(canHandle ? (assignees.data ?? []) : null), [canHandle, assignees.data]);
  const rows = useMemo(() => (query.data?.rows ?? []).map(toWorkOrderView), [query.data]);

  const keepTab = useCallback((values: FilterValues) => list.setFilters(tab === 'all' ? values : { ...values, status: tab }), [list, tab]);
  const changeTab = (key: string) => {
    const { status: _status, ...rest } = list.filters;
    list.setFilters(key === 'all' ? rest : { ...rest, status: key });
  };

  // `?id=` opens an order's details; so does a third address segment (`/view/alarm/workOrders/<id>`) until closed.
  const [segmentClosed, setSegmentClosed] = useState(false);
  const detailId = uuidOrNull(params.get('id')) ?? (segmentClosed ? null : uuidOrNull(props.id));
  const setDetail = useCallback(
    (id: string | null) => {
      if (!id) setSegmentClosed(true);
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id) next.set('id', id);
          else next.delete('id');
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  const openRow = useCallback((row: WorkOrderView) => setDetail(row.id), [setDetail]);

  const creator = useDialog<WorkOrderFormTarget>();
  const { exporting, download } = useExport(
    (format) => exportWorkOrders(format, { filters, sort: list.sort }),
    (name) => t('workOrder.exported', { name }),
  );
  const [userId] = useState(() => getUserinfo()?.id);

  const topButtons: TopButton[] = [
    ...(canHandle ? [{ name: 'workOrder.new', icon: <PlusOutlined />, primary: true, testId: 'wo-new', onClick: () => creator.show({ mode: 'create' }) }] : []),
    { name: 'workOrder.exportXlsx', icon: <FileExcelOutlined />, onClick: () => void download('xlsx'), disabled: exporting !== null, testId: 'wo-export-xlsx' },
    { name: 'workOrder.exportCsv', icon: <FileTextOutlined />, onClick: () => void download('csv'), disabled: exporting !== null, testId: 'wo-export-csv' },
  ];
  const descriptor = workOrderDescriptor({ rows, overdueWord: t('workOrder.overdue'), onDetails: openRow, topButtons, userId });

  if (!can('alarm:read')) return <Forbidden />;

  const total = totals ? Object.values(totals).reduce((sum, n) => sum + (n ?? 0), 0) : undefined;
  return (
    <Card className="wo-page" title={<span data-testid="screen-title">{t('workOrder.title')}</span>} data-testid="work-orders-page">
      <TabBar
        activeKey={tab}
        onChange={changeTab}
        items={TABS.map((key) => {
          const color = key === 'all' ? ALL_COLOR : STATUS_COLORS[key];
          const count = key === 'all' ? total : totals?.[key];
          return {
            key,
            name: key === 'all' ? 'workOrder.tab.all' : `workOrder.status.${key}`,
            testId: `wo-tab-${key}`,
            extra: <TabCount count={count} color={color} testId={`wo-tab-${key}-count`} />,
          };
        })}
      />
      <FilterBar items={items} value={shown} onSearch={keepTab} onReset={() => keepTab({})} />
      <DataTable<WorkOrderView>
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
        emptyText={t('workOrder.none')}
      />
      <WorkOrderDetailDrawer id={detailId} onClose={() => setDetail(null)} canHandle={canHandle} />
      <WorkOrderFormModal formName="woNew" target={creator.target} open={creator.open} onClose={creator.hide} afterClose={creator.afterClose} onSaved={(row) => setDetail(row.id)} />
    </Card>
  );
}

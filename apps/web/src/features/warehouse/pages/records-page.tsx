// warehouse/manage (alias Warehouse/manage): inbound and outbound records of the caller's
// warehouses, cold rooms and refrigerators. Audit tabs (All, Pending, Approved, Rejected) with
// their counts; filters (warehouse, room, direction, goods or batch, time range); the paged table
// exported to Excel or CSV; writers enter inbound and outbound records (or import a sheet) and
// change or delete them while pending; reviewers approve or reject others' pending records.
// Address: `page`, `size`, `sort`, `f.auditStatus` (the tab), `f.warehouseId`, `f.roomId`,
// `f.direction`, `f.keyword`, `f.timeFrom`, `f.timeTo`.
import { useCallback, useMemo, useState } from 'react';
import { App, Card } from 'antd';
import { FileExcelOutlined, FileTextOutlined, ImportOutlined, LoginOutlined, LogoutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useInfo } from '../../../api/info.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TopButton } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem, type FilterOption } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { TabBar, TabCount } from '../../../components/tab-bar.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useExport } from '../../../lib/use-export.ts';
import { usePlaces, type PlaceNode } from '../api/places.ts';
import { useDeleteRecord } from '../api/record-delete.ts';
import { exportRecords, recordFilters, TIME_FILTER, useRecords } from '../api/records.ts';
import { RecordImportModal } from '../components/import-modal.tsx';
import { recordDescriptor } from '../components/record-columns.tsx';
import { RecordDrawer } from '../components/record-drawer.tsx';
import { RecordFormModal, type RecordFormTarget } from '../components/record-form-modal.tsx';
import { AUDIT_COLORS, AUDIT_TABS, tabOf, toRecordView, type RecordView } from '../components/record-model.ts';
import { ReviewModal, type ReviewTarget } from '../components/review-modal.tsx';
import '../components/warehouse.css';

export const DEFAULT_SORT = 'time,desc';

/** The rooms of the places (cold rooms and refrigerators), each named with its warehouse. */
export function roomOptions(places: PlaceNode[], warehouseId?: string): FilterOption[] {
  const out: FilterOption[] = [];
  const walk = (nodes: PlaceNode[] | undefined, prefix: string) => {
    for (const n of nodes ?? []) {
      out.push({ value: n.value, label: `${prefix} / ${n.label}` });
      walk(n.children, `${prefix} / ${n.label}`);
    }
  };
  for (const w of places) if (!warehouseId || w.value === warehouseId) walk(w.children, w.label);
  return out;
}

function filterItems(places: PlaceNode[], warehouseId: string | undefined): FilterItem[] {
  return [
    { label: 'warehouse.filter.warehouse', key: 'warehouseId', type: 'select', width: 200, options: places.map((p) => ({ value: p.value, label: p.label })) },
    { label: 'warehouse.filter.room', key: 'roomId', type: 'select', width: 240, options: roomOptions(places, warehouseId) },
    {
      label: 'warehouse.filter.direction',
      key: 'direction',
      type: 'select',
      width: 120,
      options: [
        { value: 'in', label: 'warehouse.direction.in' },
        { value: 'out', label: 'warehouse.direction.out' },
      ],
    },
    { label: 'warehouse.filter.keyword', key: 'keyword', type: 'input', width: 200, placeholder: 'warehouse.filter.keywordPlaceholder' },
    { label: 'warehouse.filter.time', key: TIME_FILTER, type: 'datetimerange' },
  ];
}

export default function RecordsPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const can = usePermission();
  const canRead = can('warehouse:read');
  const canWrite = can('warehouse:write');
  const canAudit = can('warehouse:audit');
  const list = useListParams('warehouse-records', { sort: DEFAULT_SORT });
  const tab = tabOf(list.filters.auditStatus);

  const shown = useMemo((): FilterValues => {
    const { auditStatus: _s, ...rest } = list.filters;
    return rest;
  }, [list.filters]);
  const filters = useMemo(() => recordFilters(tab === 'all' ? shown : { ...shown, auditStatus: tab }), [shown, tab]);
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters }), [list.page, list.size, list.sort, filters]);
  const query = useRecords(state);
  const places = usePlaces(canRead && can('device:read'));
  const placeTree = useMemo(() => places.data ?? [], [places.data]);
  const items = useMemo(() => filterItems(placeTree, shown.warehouseId), [placeTree, shown.warehouseId]);
  const rows = useMemo(() => (query.data?.rows ?? []).map(toRecordView), [query.data]);
  const counts = query.data?.counts;

  const keepTab = useCallback((values: FilterValues) => list.setFilters(tab === 'all' ? values : { ...values, auditStatus: tab }), [list, tab]);
  const changeTab = (key: string) => list.setFilters(key === 'all' ? shown : { ...shown, auditStatus: key });

  const [detail, setDetail] = useState<RecordView | null>(null);
  const form = useDialog<RecordFormTarget>();
  const reviewing = useDialog<ReviewTarget>();
  const importing = useDialog<true>();
  const remove = useDeleteRecord();
  const userId = useInfo().data?.id;

  const { exporting, download } = useExport(
    (format) => exportRecords(format, { filters, sort: list.sort }),
    (name) => t('warehouse.exported', { name }),
  );

  const topButtons: TopButton[] = [
    ...(canWrite
      ? [
          { name: 'warehouse.action.newIn', icon: <LoginOutlined />, primary: true, testId: 'wh-new-in', onClick: () => form.show({ mode: 'create', direction: 'in' }) },
          { name: 'warehouse.action.newOut', icon: <LogoutOutlined />, testId: 'wh-new-out', onClick: () => form.show({ mode: 'create', direction: 'out' }) },
          { name: 'warehouse.action.import', icon: <ImportOutlined />, testId: 'wh-import', onClick: () => importing.show(true) },
        ]
      : []),
    { name: 'warehouse.exportXlsx', icon: <FileExcelOutlined />, onClick: () => void download('xlsx'), disabled: exporting !== null, testId: 'wh-export-xlsx' },
    { name: 'warehouse.exportCsv', icon: <FileTextOutlined />, onClick: () => void download('csv'), disabled: exporting !== null, testId: 'wh-export-csv' },
  ];

  const descriptor = recordDescriptor({
    onDetails: setDetail,
    onEdit: (r) => form.show({ mode: 'edit', row: r.row }),
    onDelete: (r) =>
      void remove.mutateAsync(r.id).then(
        () => void message.success(t('warehouse.deleted')),
        (error: unknown) => void message.error(apiErrorText(error, lang)),
      ),
    onReview: (r, decision) => reviewing.show({ row: r.row, decision }),
    canWrite,
    canAudit,
    topButtons,
    userId,
  });

  if (!canRead) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('warehouse.title')}</span>} data-testid="warehouse-records-page">
      <TabBar
        activeKey={tab}
        onChange={changeTab}
        items={AUDIT_TABS.map((key) => {
          const color = AUDIT_COLORS[key];
          return {
            key,
            name: key === 'all' ? 'warehouse.tab.all' : `warehouse.audit.${key}`,
            testId: `wh-tab-${key}`,
            extra: <TabCount count={counts?.[key]} color={color} testId={`wh-tab-${key}-count`} />,
          };
        })}
      />
      <FilterBar items={items} value={shown} onSearch={keepTab} onReset={() => keepTab({})} />
      <DataTable<RecordView>
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
        onRowClick={setDetail}
        activeRowKey={detail?.id ?? null}
        emptyText={t('warehouse.none')}
      />
      <RecordDrawer row={detail ? (rows.find((r) => r.id === detail.id) ?? detail).row : null} onClose={() => setDetail(null)} />
      <RecordFormModal target={form.target} open={form.open} places={placeTree} onClose={form.hide} afterClose={form.afterClose} />
      <ReviewModal target={reviewing.target} open={reviewing.open} onClose={reviewing.hide} afterClose={reviewing.afterClose} />
      <RecordImportModal open={importing.open} onClose={importing.hide} />
    </Card>
  );
}

// warehouse/batches: the batches of the caller's organisations with their excursion budgets (issue
// 27 item 3): minutes above and below the profile's range used over the batch's life and left,
// across every transport task and storage stay; the detail shows the gauges and the periods.
// Writers make, change and delete batches, and add a batch to a transport task.
import { useMemo } from 'react';
import { Card } from 'antd';
import dayjs from 'dayjs';
import { CarOutlined, DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { BatchRow } from '@iotc/shared/product';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { RowButton, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useBatches, useDeleteBatch } from '../api/batches.ts';
import { BatchDrawer } from '../components/batch-drawer.tsx';
import { BatchFormModal, type BatchFormTarget } from '../components/batch-form-modal.tsx';
import { minutesText } from '../components/budget-model.ts';

const keywordOnly = (keyword: string | undefined): FilterValues => (keyword ? { keyword } : {});

const FILTERS: FilterItem[] = [{ label: 'product.batch.keyword', key: 'keyword', type: 'input', width: 240, placeholder: 'product.batch.keywordPlaceholder' }];

interface BatchView {
  id: string;
  batchNo: string;
  goodsName: string;
  profile: string;
  above: string;
  below: string;
  absolute: string;
  tasks: number;
  orgName: string;
  createdAt: string;
  row: BatchRow;
}

export default function BatchesPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const canWrite = can('product:write');
  const list = useListParams('product-batches', { sort: 'createdAt,desc' });
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters: keywordOnly(list.filters.keyword) }), [list.page, list.size, list.sort, list.filters.keyword]);
  const query = useBatches(state);
  const editor = useDialog<BatchFormTarget>();
  const detail = useDialog<string>();
  const remove = useDeleteBatch();
  const confirm = useConfirmAction();

  const rows = useMemo(
    () =>
      (query.data?.rows ?? []).map((r): BatchView => {
        const kind = (k: 'above' | 'below') => {
          const u = r.budget?.[k];
          if (!u) return '-';
          const text = t('product.batch.usedLeft', { used: minutesText(u.usedMin), left: minutesText(u.leftMin) });
          return u.state === 'ok' ? text : `${text} · ${t(`product.state.${u.state}`)}`;
        };
        return {
          id: r.id,
          batchNo: r.batchNo,
          goodsName: r.goodsName,
          profile: r.profile ? (r.profileFrom === 'task' ? `${r.profile.name} (${t('product.batch.fromTask')})` : r.profile.name) : '-',
          above: kind('above'),
          below: kind('below'),
          absolute: r.budget ? t(r.budget.absoluteMax.crossed || r.budget.absoluteMin.crossed ? 'product.batch.crossed' : 'product.batch.notCrossed') : '-',
          tasks: r.tasks,
          orgName: r.orgName,
          createdAt: dayjs(r.createdAt).format(DATETIME_FORMAT),
          row: r,
        };
      }),
    [query.data, t],
  );

  const rowButtons: RowButton<BatchView>[] = [
    { name: 'product.batch.detail', icon: <EyeOutlined />, showtype: 'i', testId: 'batch-view', onClick: (r) => detail.show(r.id) },
    ...(canWrite
      ? ([
          { name: 'product.batch.addToTask', icon: <CarOutlined />, showtype: 'i', testId: 'batch-to-task', onClick: (r) => editor.show({ mode: 'task', row: r.row }) },
          { name: 'product.edit', icon: <EditOutlined />, showtype: 'i', testId: 'batch-edit', onClick: (r) => editor.show({ mode: 'edit', row: r.row }) },
          {
            name: 'product.delete',
            icon: <DeleteOutlined />,
            showtype: 'i',
            danger: true,
            testId: 'batch-delete',
            onClick: (r) =>
              confirm({
                title: t('product.batch.deleteTitle', { batchNo: r.batchNo }),
                content: t('product.batch.deleteHint'),
                okText: t('product.delete'),
                danger: true,
                action: () => remove.mutateAsync(r.id),
                success: t('product.batch.deleted', { batchNo: r.batchNo }),
              }),
          },
        ] satisfies RowButton<BatchView>[])
      : []),
  ];
  const topButtons: TopButton[] = canWrite
    ? [
        { name: 'product.batch.new', icon: <PlusOutlined />, primary: true, testId: 'batch-new', onClick: () => editor.show({ mode: 'create' }) },
        { name: 'product.batch.addToTask', icon: <CarOutlined />, testId: 'batch-add-to-task', onClick: () => editor.show({ mode: 'task' }) },
      ]
    : [];
  const descriptor: TableDescriptor<BatchView> = {
    id: 'product-batches',
    rowKey: 'id',
    columns: [
      { key: 'product.batch.batchNo', value: 'batchNo', width: 140, sortable: true, testId: 'batch-cell-no' },
      { key: 'product.batch.goods', value: 'goodsName', width: 140, sortable: true },
      { key: 'product.batch.profile', value: 'profile', width: 140 },
      { key: 'product.batch.above', value: 'above', width: 200, testId: 'batch-cell-above' },
      { key: 'product.batch.below', value: 'below', width: 200, testId: 'batch-cell-below' },
      { key: 'product.batch.absolute', value: 'absolute', width: 110 },
      { key: 'product.batch.tasks', value: 'tasks', width: 80 },
      { key: 'product.org', value: 'orgName', width: 140 },
      { key: 'product.createdAt', value: 'createdAt', type: 'datetime', sortable: true },
    ],
    rowButtons,
    topButtons,
    pageSizes: 'main',
    actionWidth: 140,
  };

  if (!can('product:read')) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('product.batch.title')}</span>} data-testid="batches-page">
      <FilterBar items={FILTERS} value={list.filters} onSearch={(v) => list.setFilters(v)} onReset={() => list.setFilters({})} />
      <DataTable<BatchView>
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
        emptyText={t('product.batch.none')}
      />
      <BatchFormModal target={editor.target} open={editor.open} onClose={editor.hide} afterClose={editor.afterClose} />
      <BatchDrawer id={detail.open ? detail.target : null} batchNo={(query.data?.rows ?? []).find((r) => r.id === detail.target)?.batchNo ?? null} onClose={detail.hide} />
    </Card>
  );
}

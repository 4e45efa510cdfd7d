// warehouse/profiles: the product profiles of the caller's organisations (issue 27 item 3): what a
// product tolerates over its life (range, minutes above and below, absolute limits, alert share).
// A keyword filter and the paged table; writers make, edit and delete them (refused while a batch
// carries one).
import { useMemo } from 'react';
import { Card } from 'antd';
import dayjs from 'dayjs';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { ProfileRow } from '@iotc/shared/product';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { RowButton, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useDeleteProfile, useProfiles } from '../api/profiles.ts';
import { ProfileFormDrawer, type ProfileFormTarget } from '../components/profile-form-drawer.tsx';

const keywordOnly = (keyword: string | undefined): FilterValues => (keyword ? { keyword } : {});

const FILTERS: FilterItem[] = [{ label: 'product.profile.name', key: 'keyword', type: 'input', width: 240, placeholder: 'product.profile.keywordPlaceholder' }];

interface ProfileView {
  id: string;
  name: string;
  orgName: string;
  range: string;
  above: string;
  below: string;
  absolute: string;
  alert: string;
  batches: number;
  updatedAt: string;
  row: ProfileRow;
}

export default function ProfilesPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const canWrite = can('product:write');
  const list = useListParams('product-profiles', { sort: 'updatedAt,desc' });
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters: keywordOnly(list.filters.keyword) }), [list.page, list.size, list.sort, list.filters.keyword]);
  const query = useProfiles(state);
  const editor = useDialog<ProfileFormTarget>();
  const remove = useDeleteProfile();
  const confirm = useConfirmAction();
  const min = t('product.minutes');

  const rows = useMemo(
    () =>
      (query.data?.rows ?? []).map(
        (r): ProfileView => ({
          id: r.id,
          name: r.name,
          orgName: r.orgName,
          range: `${r.lowC} ~ ${r.highC} °C`,
          above: `${r.aboveBudgetMin} ${min}`,
          below: `${r.belowBudgetMin} ${min}`,
          absolute: r.absoluteMinC === null ? `≤ ${r.absoluteMaxC} °C` : `${r.absoluteMinC} ~ ${r.absoluteMaxC} °C`,
          alert: `${r.alertPercent}%`,
          batches: r.batches,
          updatedAt: dayjs(r.updatedAt).format(DATETIME_FORMAT),
          row: r,
        }),
      ),
    [query.data, min],
  );

  const writes: RowButton<ProfileView>[] = canWrite
    ? [
        { name: 'product.edit', icon: <EditOutlined />, showtype: 'i', testId: 'profile-edit', onClick: (r) => editor.show({ mode: 'edit', row: r.row }) },
        {
          name: 'product.delete',
          icon: <DeleteOutlined />,
          showtype: 'i',
          danger: true,
          testId: 'profile-delete',
          onClick: (r) =>
            confirm({
              title: t('product.profile.deleteTitle', { name: r.name }),
              content: t('product.profile.deleteHint'),
              okText: t('product.delete'),
              danger: true,
              action: () => remove.mutateAsync(r.id),
              success: t('product.profile.deleted', { name: r.name }),
            }),
        },
      ]
    : [];
  const topButtons: TopButton[] = canWrite ? [{ name: 'product.profile.new', icon: <PlusOutlined />, primary: true, testId: 'profile-new', onClick: () => editor.show({ mode: 'create' }) }] : [];
  const descriptor: TableDescriptor<ProfileView> = {
    id: 'product-profiles',
    rowKey: 'id',
    columns: [
      { key: 'product.profile.name', value: 'name', width: 180, sortable: true, testId: 'profile-cell-name' },
      { key: 'product.org', value: 'orgName', width: 140 },
      { key: 'product.profile.range', value: 'range', width: 120 },
      { key: 'product.profile.aboveBudget', value: 'above', width: 130 },
      { key: 'product.profile.belowBudget', value: 'below', width: 130 },
      { key: 'product.profile.absolute', value: 'absolute', width: 130 },
      { key: 'product.profile.alertPercent', value: 'alert', width: 100 },
      { key: 'product.profile.batches', value: 'batches', width: 90 },
      { key: 'product.updatedAt', value: 'updatedAt', type: 'datetime', sortable: true },
    ],
    rowButtons: writes,
    topButtons,
    pageSizes: 'main',
    actionWidth: 100,
  };

  if (!can('product:read')) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('product.profile.title')}</span>} data-testid="profiles-page">
      <FilterBar items={FILTERS} value={list.filters} onSearch={(v) => list.setFilters(v)} onReset={() => list.setFilters({})} />
      <DataTable<ProfileView>
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
        emptyText={t('product.profile.none')}
      />
      <ProfileFormDrawer target={editor.target} open={editor.open} onClose={editor.hide} afterClose={editor.afterClose} />
    </Card>
  );
}

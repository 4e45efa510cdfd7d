// The organisation tree's consignee tracking links (issue 26 item 6), beside the ledger's share
// links: each link's task, who made it and when, when it ends and its status (active, expired,
// revoked), newest first, paged and filtered by status in the address; an active one can be
// revoked after a confirmation by someone who may change tasks. Shared (components/) because the
// links belong to the transport tasks and the list sits on the ledger's screen.
import { useMemo } from 'react';
import { Typography } from 'antd';
import { StopOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { TRACKING_API, TRACKING_LINK_STATUSES, type TrackingLinkRow } from '@iotc/shared/transport-tracking';
import { request } from '../../api/client.ts';
import { listQueryOptions, useListParams } from '../../lib/list-query.ts';
import { usePermission } from '../../lib/permissions.ts';
import { useConfirmAction } from '../../lib/use-confirm-action.ts';
import { DataTable } from '../data-table/data-table.tsx';
import type { ButtonLookupItem, TableDescriptor } from '../data-table/types.ts';
import { FilterBar, type FilterItem } from '../filter-bar.tsx';

interface LinkView extends TrackingLinkRow {
  revokedText: string;
}

const FILTERS: FilterItem[] = [
  { label: 'tracking.list.status', key: 'status', type: 'select', width: 160, options: TRACKING_LINK_STATUSES.map((s) => ({ value: s, label: `tracking.status.${s}` })) },
];

const STATUS_TAGS: ButtonLookupItem[] = [
  { key: 'active', text: 'tracking.status.active', butType: 'tag', background: '#f6ffed', color: '#237804' },
  { key: 'expired', text: 'tracking.status.expired', butType: 'tag', background: '#fafafa', color: 'rgba(0, 0, 0, 0.6)' },
  { key: 'revoked', text: 'tracking.status.revoked', butType: 'tag', background: '#fff1f0', color: '#cf1322' },
];

const time = (iso: string | null) => (iso ? dayjs(iso).format(DATETIME_FORMAT) : '');
const TABLE_ID = 'tracking-links';

export function TrackingLinkList() {
  const { t } = useTranslation();
  const can = usePermission();
  const client = useQueryClient();
  const list = useListParams(TABLE_ID, { scoped: true });
  const state = useMemo(() => ({ page: list.page, size: list.size, sort: list.sort, filters: list.filters }), [list.page, list.size, list.sort, list.filters]);
  const query = useQuery(listQueryOptions<TrackingLinkRow>(TRACKING_API.links, state));
  const revoke = useMutation({
    // Silent: the confirmation that asked for it reports a refusal itself.
    mutationFn: (id: string) => request<TrackingLinkRow>(TRACKING_API.revoke(encodeURIComponent(id)), { method: 'POST', silent: true }),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: ['list', TRACKING_API.links] }), client.invalidateQueries({ queryKey: ['tracking-links'] })]),
  });
  const confirm = useConfirmAction();
  const mayRevoke = can('transport:write');

  const rows = useMemo(
    () =>
      (query.data?.rows ?? []).map(
        (r): LinkView => ({
          ...r,
          createdAt: time(r.createdAt),
          expiresAt: time(r.expiresAt),
          revokedText: r.revokedAt ? `${time(r.revokedAt)} · ${r.revokedBy ?? ''}` : '',
        }),
      ),
    [query.data],
  );

  const descriptor: TableDescriptor<LinkView> = {
    id: TABLE_ID,
    rowKey: 'id',
    serial: false,
    columns: [
      { key: 'tracking.list.task', value: 'taskCode', testId: 'tracking-links-task' },
      { key: 'tracking.list.createdBy', value: 'createdBy', width: 130, testId: 'tracking-links-created-by' },
      { key: 'tracking.list.createdAt', value: 'createdAt', width: 170, sortable: true, testId: 'tracking-links-created-at' },
      { key: 'tracking.list.expiresAt', value: 'expiresAt', width: 170, sortable: true, testId: 'tracking-links-expires' },
      { key: 'tracking.list.status', value: 'status', width: 100, type: 'button', buttons: STATUS_TAGS, testId: 'tracking-links-status' },
      { key: 'tracking.list.revoked', value: 'revokedText', width: 200, hidden: true },
    ],
    rowButtons: mayRevoke
      ? [
          {
            name: 'tracking.revoke.ok',
            icon: <StopOutlined />,
            showtype: 'ti',
            danger: true,
            testId: 'tracking-links-revoke',
            hidden: (r) => r.status !== 'active',
            onClick: (r) =>
              confirm({
                title: t('tracking.revoke.title'),
                content: (
                  <Typography.Paragraph data-testid="tracking-links-revoke-content">{t('tracking.list.revokeContent', { code: r.taskCode, time: r.createdAt })}</Typography.Paragraph>
                ),
                okText: t('tracking.revoke.ok'),
                danger: true,
                action: () => revoke.mutateAsync(r.id),
                success: t('tracking.revoke.done'),
              }),
          },
        ]
      : [],
    actionWidth: 110,
  };

  return (
    <div data-testid="tracking-links-org">
      <Typography.Paragraph type="secondary">{t('tracking.list.intro')}</Typography.Paragraph>
      <FilterBar items={FILTERS} value={list.filters} onSearch={(v) => list.setFilters(v)} onReset={() => list.setFilters({})} />
      <DataTable<LinkView>
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
        emptyText={<span data-testid="tracking-links-org-empty">{t('tracking.list.noneOrg')}</span>}
      />
    </div>
  );
}

// The "Share links" tab of the verify screen: the organisation tree's public verification links
// (of the kinds the user may read), newest first, paged and filtered in the address, with what
// each covers, who made it and when, when it ends and its status; an active one can be revoked
// after a confirmation, and its page then says so. The link itself is shown only when it is made.
import { useMemo } from 'react';
import { Typography } from 'antd';
import { StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { SHARE_KINDS, SHARE_STATUSES, type ShareRow } from '@iotc/shared/ledger/api';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { ButtonLookupItem, TableDescriptor } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { useListParams } from '../../../lib/list-query.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useShares } from '../api/share-list.ts';
import { useRevokeShare } from '../api/share-revoke.ts';

/** A row as the table shows it: times in the user's time zone (the sort keys stay the API's), codes as texts. */
export interface ShareView extends ShareRow {
  kindText: string;
  /** What it covers, with a device range's bounds. */
  subjectText: string;
  revokedText: string;
}

const FILTERS: FilterItem[] = [
  { label: 'ledger.shares.col.status', key: 'status', type: 'select', width: 160, options: SHARE_STATUSES.map((s) => ({ value: s, label: `ledger.shares.status.${s}` })) },
  { label: 'ledger.shares.col.kind', key: 'kind', type: 'select', width: 180, options: SHARE_KINDS.map((k) => ({ value: k, label: `ledger.shares.kind.${k}` })) },
];

const STATUS_TAGS: ButtonLookupItem[] = [
  { key: 'active', text: 'ledger.shares.status.active', butType: 'tag', background: '#f6ffed', color: '#237804' },
  { key: 'expired', text: 'ledger.shares.status.expired', butType: 'tag', background: '#fafafa', color: 'rgba(0, 0, 0, 0.6)' },
  { key: 'revoked', text: 'ledger.shares.status.revoked', butType: 'tag', background: '#fff1f0', color: '#cf1322' },
];

const time = (iso: string | null) => (iso ? dayjs(iso).format(DATETIME_FORMAT) : '');

export function ShareList() {
  const { t } = useTranslation();
  const list = useListParams('ledger-shares', { scoped: true });
  const state = useMemo(() => ({ page: list.page, size: list.size, sort: list.sort, filters: list.filters }), [list.page, list.size, list.sort, list.filters]);
  const query = useShares(state);
  const revoke = useRevokeShare();
  const confirm = useConfirmAction();

  const rows = useMemo(
    () =>
      (query.data?.rows ?? []).map(
        (r): ShareView => ({
          ...r,
          kindText: t(`ledger.shares.kind.${r.kind}`),
          subjectText: [r.subject || t('ledger.shares.gone'), r.from && r.to ? `${time(r.from)} ~ ${time(r.to)}` : ''].filter(Boolean).join(' · '),
          createdAt: time(r.createdAt),
          expiresAt: time(r.expiresAt),
          revokedText: r.revokedAt ? `${time(r.revokedAt)} · ${r.revokedBy ?? ''}` : '',
        }),
      ),
    [query.data, t],
  );

  const descriptor: TableDescriptor<ShareView> = {
    id: 'ledger-shares',
    rowKey: 'id',
    serial: false,
    columns: [
      { key: 'ledger.shares.col.kind', value: 'kindText', width: 130, testId: 'ledger-shares-kind' },
      { key: 'ledger.shares.col.subject', value: 'subjectText', testId: 'ledger-shares-subject' },
      { key: 'ledger.shares.col.org', value: 'orgName', width: 160, hidden: true },
      { key: 'ledger.shares.col.createdBy', value: 'createdBy', width: 110, testId: 'ledger-shares-created-by' },
      { key: 'ledger.shares.col.createdAt', value: 'createdAt', width: 160, sortable: true, testId: 'ledger-shares-created-at' },
      { key: 'ledger.shares.col.expires', value: 'expiresAt', width: 160, sortable: true, testId: 'ledger-shares-expires' },
      { key: 'ledger.shares.col.status', value: 'status', width: 100, type: 'button', buttons: STATUS_TAGS, testId: 'ledger-shares-status' },
      { key: 'ledger.shares.col.revoked', value: 'revokedText', width: 200, hidden: true, testId: 'ledger-shares-revoked' },
    ],
    rowButtons: [
      {
        name: 'ledger.shares.revoke',
        icon: <StopOutlined />,
        showtype: 'ti',
        danger: true,
        testId: 'ledger-shares-revoke',
        hidden: (r) => r.status !== 'active',
        onClick: (r) =>
          confirm({
            title: t('ledger.shares.revokeTitle'),
            content: (
              <div data-testid="ledger-shares-revoke-content">
                <Typography.Paragraph>{t('ledger.shares.revokeContent', { kind: r.kindText, subject: r.subjectText })}</Typography.Paragraph>
              </div>
            ),
            okText: t('ledger.shares.revoke'),
            danger: true,
            action: () => revoke.mutateAsync(r.id),
            success: t('ledger.shares.revoked'),
          }),
      },
    ],
    actionWidth: 110,
  };

  return (
    <div data-testid="ledger-shares">
      <Typography.Paragraph type="secondary">{t('ledger.shares.intro')}</Typography.Paragraph>
      <FilterBar items={FILTERS} value={list.filters} onSearch={(v) => list.setFilters(v)} onReset={() => list.setFilters({})} />
      <DataTable<ShareView>
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
        emptyText={<span data-testid="ledger-shares-empty">{t('ledger.shares.none')}</span>}
      />
    </div>
  );
}

// fault/list: what is wrong with the devices themselves, as the detector found it. Counters of
// all faults, each kind and each status on top (a click filters the list by it); filters (kind,
// status, keyword, last-seen time); the paged list, newest occurrence first, sortable by first
// and last seen and occurrences, exported to Excel or CSV. A row opens its details with the repair records, where
// users who may handle faults record a repair (one that is not "in progress" resolves the fault).
// Address: `page`, `size`, `sort`, `f.kind`, `f.status` (comma lists), `f.keyword`,
// `f.lastSeenFrom`, `f.lastSeenTo`, and `id`: the fault whose details are open.
import { useCallback, useMemo, useState } from 'react';
import { Card } from 'antd';
import { FileExcelOutlined, FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { FAULT_KINDS, FAULT_STATUSES, type FaultKind, type FaultStatus } from '@iotc/shared/fault';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { getUserinfo } from '../../../lib/session.ts';
import { useExport } from '../../../lib/use-export.ts';
import { useFaultStats } from '../api/fault-stats.ts';
import { exportFaults, faultFilters, LAST_SEEN_FILTER, useFaults } from '../api/faults.ts';
import { faultDescriptor } from '../components/fault-columns.tsx';
import { FaultCounters } from '../components/fault-counters.tsx';
import { FaultDetailDrawer } from '../components/fault-detail-drawer.tsx';
import { toFaultView, uuidOrNull, type FaultView } from '../components/fault-model.ts';
import '../components/fault.css';

export const DEFAULT_SORT = 'lastAt,desc';
const FILTERS: FilterItem[] = [
  { label: 'fault.filter.kind', key: 'kind', type: 'multiselect', width: 240, options: FAULT_KINDS.map((k) => ({ value: k, label: `fault.kind.${k}` })) },
  { label: 'fault.filter.status', key: 'status', type: 'multiselect', width: 220, options: FAULT_STATUSES.map((s) => ({ value: s, label: `fault.status.${s}` })) },
  { label: 'fault.filter.keyword', key: 'keyword', type: 'input', width: 240, placeholder: 'fault.filter.keywordPlaceholder' },
  { label: 'fault.filter.lastSeen', key: LAST_SEEN_FILTER, type: 'datetimerange' },
];

/** The single value of a comma list filter, if it is exactly one of `known`. */
function single<T extends string>(value: string | undefined, known: readonly T[]): T | undefined {
  return (known as readonly string[]).includes(value ?? '') ? (value as T) : undefined;
}

export default function FaultsPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const canRepair = can('fault:handle');
  const [params, setParams] = useSearchParams();
  const list = useListParams('faults', { sort: DEFAULT_SORT });

  const filters = useMemo(() => faultFilters(list.filters), [list.filters]);
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters }), [list.page, list.size, list.sort, filters]);
  const query = useFaults(state);
  // The counters count under the keyword and time filters, whatever kind and status are picked.
  const statsFilters = useMemo(() => {
    const { kind: _kind, status: _status, ...rest } = filters;
    return rest;
  }, [filters]);
  const stats = useFaultStats(statsFilters);
  const rows = useMemo(() => (query.data?.rows ?? []).map((r) => toFaultView(r, t)), [query.data, t]);

  const setOne = (key: 'kind' | 'status', value: string | undefined) => {
    const next: FilterValues = { ...list.filters };
    if (value) next[key] = value;
    else delete next[key];
    list.setFilters(next);
  };

  const detailId = uuidOrNull(params.get('id'));
  const setDetail = useCallback(
    (id: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id) next.set('id', id);
          else next.delete('id');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const openRow = useCallback((row: FaultView) => setDetail(row.id), [setDetail]);

  const { exporting, download } = useExport(
    (format) => exportFaults(format, { filters, sort: list.sort }),
    (name) => t('fault.exported', { name }),
  );
  const [userId] = useState(() => getUserinfo()?.id);
  const descriptor = faultDescriptor({
    onDetails: openRow,
    userId,
    topButtons: [
      { name: 'fault.exportXlsx', icon: <FileExcelOutlined />, onClick: () => void download('xlsx'), disabled: exporting !== null, testId: 'fault-export-xlsx' },
      { name: 'fault.exportCsv', icon: <FileTextOutlined />, onClick: () => void download('csv'), disabled: exporting !== null, testId: 'fault-export-csv' },
    ],
  });

  if (!can('device:read')) return <Forbidden />;

  return (
    <Card className="fault-page" title={<span data-testid="screen-title">{t('fault.title')}</span>} data-testid="faults-page">
      <FaultCounters
        stats={stats.data}
        kind={single<FaultKind>(list.filters.kind, FAULT_KINDS)}
        status={single<FaultStatus>(list.filters.status, FAULT_STATUSES)}
        onKind={(k) => setOne('kind', k)}
        onStatus={(s) => setOne('status', s)}
      />
      <FilterBar items={FILTERS} value={list.filters} onSearch={list.setFilters} />
      <DataTable<FaultView>
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
        emptyText={t('fault.none')}
      />
      <FaultDetailDrawer id={detailId} onClose={() => setDetail(null)} canRepair={canRepair} />
    </Card>
  );
}

// asset/remoteControl (mock alias Asset/control): remote-control review. Tabs by status with their
// counts; filters (device, command, only mine, requested time); the table of commands with the
// command in words, who asked and who reviewed, the status and the device's answer; reviewers
// approve or reject (with a reason) others' pending requests, requesters cancel their own, anyone
// opens the full story. While a command is out at its device the page reads again every 5 s.
// Address: `page`, `size`, `sort`, `f.status` (the tab), `f.keyword`, `f.kind`, `f.mine`,
// `f.requestedFrom`, `f.requestedTo`.
import { useCallback, useMemo, useState } from 'react';
import { App, Card } from 'antd';
import { FileExcelOutlined, FileTextOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { COMMAND_KINDS, COMMAND_STATUSES, type CommandStatus } from '@iotc/shared/command';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TopButton } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { TabBar, TabCount } from '../../../components/tab-bar.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { getUserinfo } from '../../../lib/session.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useExport } from '../../../lib/use-export.ts';
import { useInfo } from '../../../api/info.ts';
import { useCancelCommand } from '../api/command-cancel.ts';
import { commandFilters, exportCommands, REQUESTED_FILTER, useCommands } from '../api/commands.ts';
import { commandDescriptor } from '../components/command-columns.tsx';
import { CommandDetailDrawer } from '../components/command-detail-drawer.tsx';
import { STATUS_COLORS, toCommandView, type CommandView } from '../components/command-model.ts';
import { RequestModal } from '../components/request-modal.tsx';
import { ReviewModal, type ReviewTarget } from '../components/review-modal.tsx';

export const DEFAULT_SORT = 'requestedAt,desc';
type Tab = 'all' | CommandStatus;
const TABS: readonly Tab[] = ['all', ...COMMAND_STATUSES];
const ALL_COLOR = '#1677ff';

export function tabOf(status: string | undefined): Tab {
  return (COMMAND_STATUSES as readonly string[]).includes(status ?? '') ? (status as CommandStatus) : 'all';
}

const FILTER_ITEMS: FilterItem[] = [
  { label: 'remoteControl.filter.device', key: 'keyword', type: 'input', width: 220, placeholder: 'remoteControl.filter.devicePlaceholder' },
  { label: 'remoteControl.filter.kind', key: 'kind', type: 'multiselect', width: 240, options: COMMAND_KINDS.map((k) => ({ value: k, label: `remoteControl.kind.${k}` })) },
  { label: 'remoteControl.filter.mine', key: 'mine', type: 'select', width: 150, options: [{ value: 'true', label: 'remoteControl.filter.mineOnly' }] },
  { label: 'remoteControl.filter.requested', key: REQUESTED_FILTER, type: 'datetimerange' },
];

export default function RemoteControlPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const can = usePermission();
  const requester = can('command:request');
  const reviewer = can('command:review');
  const { data: info } = useInfo();
  const userId = info?.id ?? getUserinfo()?.id;
  const list = useListParams('commands', { sort: DEFAULT_SORT });
  const tab = tabOf(list.filters.status);

  const shown = useMemo((): FilterValues => {
    const { status: _status, ...rest } = list.filters;
    return tab === 'all' ? rest : { ...rest, status: tab };
  }, [list.filters, tab]);
  const filters = useMemo(() => commandFilters(shown), [shown]);
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters }), [list.page, list.size, list.sort, filters]);
  const query = useCommands(state);
  const rows = useMemo(() => (query.data?.rows ?? []).map((r) => toCommandView(t, r)), [query.data, t]);
  const counts = query.data?.counts;

  const keepTab = useCallback((values: FilterValues) => list.setFilters(tab === 'all' ? values : { ...values, status: tab }), [list, tab]);
  const changeTab = (key: string) => {
    const { status: _status, ...rest } = list.filters;
    list.setFilters(key === 'all' ? rest : { ...rest, status: key });
  };

  const [requesting, setRequesting] = useState(false);
  const reviewing = useDialog<ReviewTarget>();
  // The drawer follows the row as the list refreshes.
  const [detailId, setDetailId] = useState<string | null>(null);
  const detail = rows.find((r) => r.id === detailId) ?? null;
  const cancel = useCancelCommand();
  const { exporting, download } = useExport(
    (format) => exportCommands(format, { filters, sort: list.sort }),
    (name) => t('remoteControl.exported', { name }),
  );

  const topButtons: TopButton[] = [
    ...(requester ? [{ name: 'remoteControl.new', icon: <PlusOutlined />, primary: true, testId: 'rc-new', onClick: () => setRequesting(true) }] : []),
    { name: 'remoteControl.exportXlsx', icon: <FileExcelOutlined />, onClick: () => void download('xlsx'), disabled: exporting !== null, testId: 'rc-export-xlsx' },
    { name: 'remoteControl.exportCsv', icon: <FileTextOutlined />, onClick: () => void download('csv'), disabled: exporting !== null, testId: 'rc-export-csv' },
  ];
  const descriptor = commandDescriptor({
    userId,
    reviewer,
    topButtons,
    onApprove: (view: CommandView) => reviewing.show({ view, approve: true }),
    onReject: (view: CommandView) => reviewing.show({ view, approve: false }),
    onCancel: (view: CommandView) =>
      void cancel.mutateAsync(view.id).then(
        () => void message.success(t('remoteControl.action.cancelled')),
        (error: unknown) => void message.error(apiErrorText(error, lang)),
      ),
    onDetails: (view: CommandView) => setDetailId(view.id),
  });

  if (!requester && !reviewer) return <Forbidden />;

  const total = counts ? Object.values(counts).reduce((sum, n) => sum + n, 0) : undefined;
  return (
    <Card title={<span data-testid="screen-title">{t('remoteControl.title')}</span>} data-testid="remote-control-page">
      <TabBar
        activeKey={tab}
        onChange={changeTab}
        items={TABS.map((key) => {
          const color = key === 'all' ? ALL_COLOR : STATUS_COLORS[key];
          const count = key === 'all' ? total : counts?.[key];
          return {
            key,
            name: key === 'all' ? 'remoteControl.tab.all' : `remoteControl.status.${key}`,
            testId: `rc-tab-${key}`,
            extra: <TabCount count={count} color={color} testId={`rc-tab-${key}-count`} />,
          };
        })}
      />
      <FilterBar items={FILTER_ITEMS} value={shown} onSearch={keepTab} onReset={() => keepTab({})} />
      <DataTable<CommandView>
        descriptor={descriptor}
        rows={rows}
        total={query.data?.total ?? 0}
        page={list.page}
        size={list.size}
        sort={list.sort}
        onChange={list.setTable}
        loading={query.isFetching && !query.isRefetching}
        error={query.isError && !query.data ? query.error : undefined}
        onRetry={() => void query.refetch()}
        onRowClick={(view) => setDetailId(view.id)}
        activeRowKey={detailId}
        emptyText={t('remoteControl.none')}
      />
      <CommandDetailDrawer view={detail} onClose={() => setDetailId(null)} />
      <RequestModal open={requesting} onClose={() => setRequesting(false)} />
      <ReviewModal target={reviewing.target} open={reviewing.open} onClose={reviewing.hide} afterClose={reviewing.afterClose} />
    </Card>
  );
}

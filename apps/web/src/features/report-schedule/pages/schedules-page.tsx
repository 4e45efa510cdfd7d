// report/schedules: the scheduled reports that mail an alarm report, online rate, mileage or GSP
// temperature record to recipients every day, week or month. The paged list (filtered by report
// and state) shows when each is sent, to how many, when it runs next and how its last run went.
// Everything needs 'report:schedule', reading too (a schedule lists its recipients' addresses):
// create, edit, switch on and off, delete, "send now" and each schedule's run history.
import { useMemo } from 'react';
import { App, Card } from 'antd';
import { DeleteOutlined, EditOutlined, HistoryOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { SCHEDULE_KINDS, type ScheduleRow, type ScheduleRun } from '@iotc/shared/ops-report';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { ButtonLookupItem, RowButton, TableColumn, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useListParams, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useDeleteSchedule } from '../api/schedule-delete.ts';
import { useRunSchedule } from '../api/schedule-run.ts';
import { useSetScheduleEnabled } from '../api/schedule-enable.ts';
import { useSchedules } from '../api/schedules.ts';
import { RunsDrawer } from '../components/runs-drawer.tsx';
import { hourText } from '../components/schedule-model.ts';
import { ScheduleFormModal, type ScheduleFormTarget } from '../components/schedule-form-modal.tsx';
import '../components/report-schedule.css';

/** A row as the table shows it: times in the user's time zone (the sort keys stay the API's), codes as texts. */
interface ScheduleView extends ScheduleRow {
  kindText: string;
  /** Frequency, local hour and time zone: "Daily · 07:00 (Asia/Shanghai)". */
  sendAt: string;
  /** Language and file format: "English · PDF". */
  langFormat: string;
  recipientCount: number;
  lastStatusKey: string;
}

const FILTERS: FilterItem[] = [
  { label: 'reportSchedule.col.name', key: 'keyword', type: 'input', width: 200 },
  { label: 'reportSchedule.col.kind', key: 'kind', type: 'select', width: 180, options: SCHEDULE_KINDS.map((k) => ({ value: k, label: `reportSchedule.kind.${k}` })) },
  {
    label: 'reportSchedule.col.enabled',
    key: 'enabled',
    type: 'select',
    width: 140,
    options: [
      { value: 'true', label: 'reportSchedule.on' },
      { value: 'false', label: 'reportSchedule.off' },
    ],
  },
];

const STATUS_TAGS: ButtonLookupItem[] = [
  { key: 'sent', text: 'reportSchedule.status.sent', butType: 'tag', background: '#f6ffed', color: '#237804' },
  { key: 'outbox', text: 'reportSchedule.status.outbox', butType: 'tag', background: '#e6f4ff', color: '#0958d9' },
  { key: 'failed', text: 'reportSchedule.status.failed', butType: 'tag', background: '#fff1f0', color: '#cf1322' },
  { key: 'none', text: '—', butType: 'tag', background: 'transparent', color: 'rgba(0, 0, 0, 0.6)' },
];
const ENABLED_TAGS: ButtonLookupItem[] = [
  { key: true, text: 'reportSchedule.on', butType: 'tag', background: '#f6ffed', color: '#237804' },
  { key: false, text: 'reportSchedule.off', butType: 'tag', background: '#fafafa', color: 'rgba(0, 0, 0, 0.6)' },
];

const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

export default function SchedulesPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const writable = usePermission()('report:schedule');
  const list = useListParams('report-schedules');
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters: list.filters }), [list.page, list.size, list.sort, list.filters]);
  const query = useSchedules(state, writable);
  const editor = useDialog<ScheduleFormTarget>();
  const history = useDialog<ScheduleRow>();
  const confirm = useConfirmAction();
  const remove = useDeleteSchedule();
  const run = useRunSchedule();
  const setEnabled = useSetScheduleEnabled();

  const rows = useMemo(
    () =>
      (query.data?.rows ?? []).map(
        (r): ScheduleView => ({
          ...r,
          kindText: t(`reportSchedule.kind.${r.kind}`),
          sendAt: `${t(`reportSchedule.frequency.${r.frequency}`)} · ${hourText(r.hour)} (${r.timezone})`,
          langFormat: `${t(`reportSchedule.lang.${r.lang}`)} · ${t(`reportSchedule.format.${r.format}`)}`,
          recipientCount: r.recipients.length,
          nextRunAt: r.enabled ? time(r.nextRunAt) : '—',
          lastRunAt: time(r.lastRunAt),
          lastStatusKey: r.lastStatus ?? 'none',
        }),
      ),
    [query.data, t],
  );

  const sentSaid = (r: ScheduleRow, done: ScheduleRun | null) => {
    if (done?.status === 'failed') void message.error({ content: t('reportSchedule.sendFailed', { name: r.name, error: done.error ?? '' }), duration: 6 });
    else if (done?.status === 'outbox') void message.success(t('reportSchedule.sentOutbox', { name: r.name }));
    else void message.success(t('reportSchedule.sent', { name: r.name, count: done?.recipients.length ?? r.recipients.length }));
  };

  const toggle = (r: ScheduleView, enabled: boolean) => {
    setEnabled.mutateAsync({ id: r.id, enabled }).then(
      () => void message.success(t(enabled ? 'reportSchedule.enabledDone' : 'reportSchedule.disabledDone', { name: r.name })),
      (error: unknown) => void message.error({ content: apiErrorText(error, lang), className: 'action-error' }),
    );
  };

  const writes: RowButton<ScheduleView>[] = writable
    ? [
        {
          name: 'reportSchedule.sendNow',
          icon: <SendOutlined />,
          showtype: 'i',
          testId: 'rs-action-run',
          onClick: (r) =>
            confirm({
              title: t('reportSchedule.sendNowTitle', { name: r.name }),
              content: <div data-testid="rs-run-content">{t('reportSchedule.sendNowContent', { count: r.recipients.length })}</div>,
              okText: t('reportSchedule.sendNow'),
              action: () => run.mutateAsync(r.id).then((done) => sentSaid(r, done)),
            }),
        },
        { name: 'reportSchedule.edit', icon: <EditOutlined />, showtype: 'i', testId: 'rs-action-edit', onClick: (r) => editor.show({ mode: 'edit', row: r }) },
        {
          name: 'reportSchedule.delete',
          icon: <DeleteOutlined />,
          showtype: 'i',
          danger: true,
          testId: 'rs-action-delete',
          onClick: (r) =>
            confirm({
              title: t('reportSchedule.deleteTitle', { name: r.name }),
              content: <div data-testid="rs-delete-content">{t('reportSchedule.deleteContent')}</div>,
              okText: t('reportSchedule.delete'),
              danger: true,
              action: () => remove.mutateAsync(r.id),
              success: t('reportSchedule.deleted', { name: r.name }),
            }),
        },
      ]
    : [];
  const topButtons: TopButton[] = writable ? [{ name: 'reportSchedule.new', icon: <PlusOutlined />, primary: true, testId: 'rs-new', onClick: () => editor.show({ mode: 'create' }) }] : [];
  const enabledColumn: TableColumn<ScheduleView> = writable
    ? { key: 'reportSchedule.col.enabled', value: 'enabled', width: 70, type: 'switch', testId: 'rs-cell-enabled' }
    : { key: 'reportSchedule.col.enabled', value: 'enabled', width: 70, type: 'button', buttons: ENABLED_TAGS, testId: 'rs-cell-enabled' };
  const descriptor: TableDescriptor<ScheduleView> = {
    id: 'report-schedules',
    rowKey: 'id',
    // The columns the list is read for first; cells wrap so the list fits 1280 px.
    columns: [
      { key: 'reportSchedule.col.name', value: 'name', width: 150, sortable: true, testId: 'rs-cell-name' },
      { key: 'reportSchedule.col.kind', value: 'kindText', width: 150, testId: 'rs-cell-kind' },
      { key: 'reportSchedule.col.sendAt', value: 'sendAt', width: 190, testId: 'rs-cell-send-at' },
      enabledColumn,
      { key: 'reportSchedule.col.lastStatus', value: 'lastStatusKey', width: 90, type: 'button', buttons: STATUS_TAGS, testId: 'rs-cell-status' },
      { key: 'reportSchedule.col.lastRun', value: 'lastRunAt', width: 140, sortable: true, testId: 'rs-cell-last' },
      { key: 'reportSchedule.col.nextRun', value: 'nextRunAt', width: 140, sortable: true, testId: 'rs-cell-next' },
      { key: 'reportSchedule.col.recipients', value: 'recipientCount', width: 80, testId: 'rs-cell-recipients' },
      { key: 'reportSchedule.col.langFormat', value: 'langFormat', width: 120, testId: 'rs-cell-lang-format' },
    ],
    serial: false,
    topButtons,
    rowButtons: [{ name: 'reportSchedule.history', icon: <HistoryOutlined />, showtype: 'i', testId: 'rs-action-history', onClick: (r) => history.show(r) }, ...writes],
    actionWidth: writable ? 130 : 60,
  };

  if (!writable) return <Forbidden />;

  return (
    <Card className="rs-page" title={<span data-testid="screen-title">{t('reportSchedule.title')}</span>} data-testid="report-schedules-page">
      <FilterBar items={FILTERS} value={list.filters} onSearch={(v) => list.setFilters(v)} onReset={() => list.setFilters({})} />
      <DataTable<ScheduleView>
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
        onSwitch={(row, _column, checked) => toggle(row, checked)}
        emptyText={<span data-testid="rs-empty">{t('reportSchedule.none')}</span>}
      />
      <ScheduleFormModal target={editor.target} open={editor.open} onClose={editor.hide} afterClose={editor.afterClose} />
      <RunsDrawer schedule={history.target} open={history.open} onClose={history.hide} afterClose={history.afterClose} />
    </Card>
  );
}

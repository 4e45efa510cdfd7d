// transport/templates: the transport templates of the caller's organisations (the settings used
// again and again: places, route, ranges, alarms, recipients, recognition). A keyword filter, the
// paged table; writers create, edit and delete them, and "Create task" opens the tasks screen
// with the new-task form filled from the template (`/view/transport/tasks?templateId=<id>`).
import { useCallback, useMemo, useState } from 'react';
import { Card } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { TemplateRow } from '@iotc/shared/transport';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { RowButton, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useListParams, type FilterValues, type ListState } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { getUserinfo } from '../../../lib/session.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useDeleteTemplate } from '../api/template-delete.ts';
import { useTemplates } from '../api/templates.ts';
import { formatTime, rangeText } from '../components/task-model.ts';
import { TemplateFormDrawer, type TemplateFormTarget } from '../components/template-form-drawer.tsx';
import '../components/transport.css';

export const DEFAULT_SORT = 'updatedAt,desc';
export const tasksFromTemplatePath = (id: string) => `/view/transport/tasks?templateId=${encodeURIComponent(id)}`;

const FILTERS: FilterItem[] = [{ label: 'transport.filter.keyword', key: 'keyword', type: 'input', width: 240, placeholder: 'transport.template.keywordPlaceholder' }];

function keywordOnly(keyword: string | undefined): FilterValues {
  return keyword ? { keyword } : {};
}

interface TemplateView {
  id: string;
  name: string;
  orgName: string;
  places: string;
  ranges: string;
  alarm: string;
  taskCount: number;
  updatedAt: string;
  row: TemplateRow;
}

export default function TemplatesPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const canWrite = can('transport:write');
  const navigate = useNavigate();
  const list = useListParams('transport-templates', { sort: DEFAULT_SORT });
  const state = useMemo<ListState>(() => ({ page: list.page, size: list.size, sort: list.sort, filters: keywordOnly(list.filters.keyword) }), [list.page, list.size, list.sort, list.filters.keyword]);
  const query = useTemplates(state);
  const editor = useDialog<TemplateFormTarget>();
  const remove = useDeleteTemplate();
  const confirm = useConfirmAction();
  const [userId] = useState(() => getUserinfo()?.id);

  const alarmText = useCallback(
    (r: TemplateRow) => {
      const a = r.alarm;
      const parts = [
        a.temperature ? t('transport.alarm.temperature') : null,
        a.humidity ? t('transport.alarm.humidity') : null,
        a.door ? t('transport.alarm.door') : null,
        a.yawM !== null ? `${t('transport.alarm.yaw')} ${a.yawM} m` : null,
        a.stayTimeoutS !== null ? `${t('transport.alarm.stay')} ${Math.round(a.stayTimeoutS / 60)} ${t('transport.unit.min')}` : null,
        a.overspeedKmh !== null ? `${t('transport.alarm.overspeed')} ${a.overspeedKmh} km/h` : null,
      ].filter(Boolean);
      return parts.join(', ');
    },
    [t],
  );
  const rows = useMemo(
    () =>
      (query.data?.rows ?? []).map(
        (r): TemplateView => ({
          id: r.id,
          name: r.name,
          orgName: r.orgName,
          places: `${r.origin.name} → ${r.destination.name}`,
          ranges: [rangeText(r.tempMin, r.tempMax, ' °C'), rangeText(r.humidityMin, r.humidityMax, ' %')].filter(Boolean).join('; '),
          alarm: alarmText(r),
          taskCount: r.taskCount,
          updatedAt: formatTime(r.updatedAt),
          row: r,
        }),
      ),
    [query.data, alarmText],
  );

  const writes: RowButton<TemplateView>[] = canWrite
    ? [
        { name: 'transport.template.createTask', icon: <SendOutlined />, showtype: 'i', testId: 'tt-template-create-task', onClick: (r) => navigate(tasksFromTemplatePath(r.id)) },
        { name: 'transport.template.edit', icon: <EditOutlined />, showtype: 'i', testId: 'tt-template-edit', onClick: (r) => editor.show({ mode: 'edit', row: r.row }) },
        {
          name: 'transport.template.delete',
          icon: <DeleteOutlined />,
          showtype: 'i',
          danger: true,
          testId: 'tt-template-delete',
          onClick: (r) =>
            confirm({
              title: t('transport.template.deleteTitle', { name: r.name }),
              content: <div data-testid="tt-confirm-content">{t('transport.template.deleteHint', { count: r.taskCount })}</div>,
              okText: t('transport.template.delete'),
              danger: true,
              action: () => remove.mutateAsync(r.id),
              success: t('transport.template.deleted', { name: r.name }),
            }),
        },
      ]
    : [];
  const topButtons: TopButton[] = canWrite ? [{ name: 'transport.template.new', icon: <PlusOutlined />, primary: true, testId: 'tt-template-new', onClick: () => editor.show({ mode: 'create' }) }] : [];
  const descriptor: TableDescriptor<TemplateView> = {
    id: userId ? `transport-templates-${userId}` : 'transport-templates',
    rowKey: 'id',
    columns: [
      { key: 'transport.template.name', value: 'name', width: 180, testId: 'tt-template-cell-name' },
      { key: 'transport.task.col.org', value: 'orgName', width: 150 },
      { key: 'transport.task.col.places', value: 'places', width: 220, testId: 'tt-template-cell-places' },
      { key: 'transport.section.ranges', value: 'ranges', width: 200, testId: 'tt-template-cell-ranges' },
      { key: 'transport.template.alarm', value: 'alarm', width: 220, testId: 'tt-template-cell-alarm' },
      { key: 'transport.template.taskCount', value: 'taskCount', width: 100, sortable: true, testId: 'tt-template-cell-tasks' },
      { key: 'transport.template.updatedAt', value: 'updatedAt', type: 'datetime', sortable: true },
    ],
    rowButtons: writes,
    topButtons,
    pageSizes: 'main',
    actionWidth: 120,
  };

  if (!can('transport:read')) return <Forbidden />;

  return (
    <Card className="tt-page" title={<span data-testid="screen-title">{t('transport.template.title')}</span>} data-testid="transport-templates-page">
      <FilterBar items={FILTERS} value={list.filters} onSearch={(v) => list.setFilters(v)} onReset={() => list.setFilters({})} />
      <DataTable<TemplateView>
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
        emptyText={t('transport.template.none')}
      />
      <TemplateFormDrawer target={editor.target} open={editor.open} onClose={editor.hide} afterClose={editor.afterClose} />
    </Card>
  );
}

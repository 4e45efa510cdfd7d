// alarm/levels: the alarm levels of the caller's organisations by priority (1 first): colour and
// code, names in both languages, sound, organisation and how many policy rules use each. Writers
// create and change levels in a form and delete the ones no rule or alarm uses.
import { useMemo } from 'react';
import { Card } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ServerTable } from '../../../components/data-table/server-table.tsx';
import type { ButtonLookupItem, TableDescriptor } from '../../../components/data-table/types.ts';
import { FilterBar } from '../../../components/filter-bar.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useDeleteLevel } from '../api/level-delete.ts';
import { useLevelList, type LevelView } from '../api/levels.ts';
import { tagColoursOn } from '../../../lib/color.ts';
import { LevelFormModal, type LevelFormTarget } from '../components/level-form-modal.tsx';
import { useOrgFilter } from '../../../components/org-filter.ts';
import '../components/alarm-config.css';

const SOUND: ButtonLookupItem[] = [
  { key: true, text: 'alarmConfig.level.soundOn', butType: 'tag', background: '#fff1f0', color: '#cf1322' },
  { key: false, text: 'alarmConfig.level.soundOff', butType: 'tag', background: '#fafafa', color: 'rgba(0, 0, 0, 0.6)' },
];

export default function AlarmLevelsPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const list = useListParams('alarm-levels', { sort: 'priority,asc' });
  const query = useLevelList(list);
  const orgFilter = useOrgFilter('alarmConfig.org');
  const filters = useMemo(() => (orgFilter ? [orgFilter] : []), [orgFilter]);
  const form = useDialog<LevelFormTarget>();
  const confirm = useConfirmAction();
  const remove = useDeleteLevel();
  const writable = can('alarm:write');

  // Each level's code on its own colour: one badge per row, keyed by the row's id.
  const rows = query.data?.rows;
  const swatches = useMemo(
    (): ButtonLookupItem[] => (rows ?? []).map((r) => ({ key: r.id, text: r.code, butType: 'tag', ...tagColoursOn(r.color) })),
    [rows],
  );

  const descriptor: TableDescriptor<LevelView> = {
    id: 'alarm-levels',
    rowKey: 'id',
    columns: [
      { key: 'alarmConfig.level.code', value: 'swatch', type: 'button', buttons: swatches, testId: 'level-code' },
      { key: 'alarmConfig.level.nameZh', value: 'nameZh' },
      { key: 'alarmConfig.level.nameEn', value: 'nameEn' },
      { key: 'alarmConfig.level.priority', value: 'priority', sortable: true },
      { key: 'alarmConfig.level.sound', value: 'sound', type: 'button', buttons: SOUND, testId: 'level-sound' },
      { key: 'alarmConfig.org', value: 'orgName' },
      { key: 'alarmConfig.level.rulesUsing', value: 'rulesUsing' },
      { key: 'alarmConfig.updatedAt', value: 'updatedAt', type: 'datetime' },
    ],
    topButtons: writable
      ? [{ name: 'alarmConfig.level.new', icon: <PlusOutlined />, primary: true, testId: 'level-new', onClick: () => form.show({ mode: 'create', orgId: list.filters.orgId }) }]
      : [],
    rowButtons: writable
      ? [
          { name: 'alarmConfig.edit', icon: <EditOutlined />, showtype: 'ti', testId: 'level-action-edit', onClick: (r) => form.show({ mode: 'edit', row: r }) },
          {
            name: 'alarmConfig.delete',
            icon: <DeleteOutlined />,
            showtype: 'ti',
            danger: true,
            testId: 'level-action-delete',
            onClick: (r) =>
              confirm({
                title: t('alarmConfig.level.deleteTitle'),
                content: (
                  <div data-testid="level-delete-content">
                    <p>{t('alarmConfig.level.deleteContent', { name: t('alarmConfig.level.nameBoth', { zh: r.nameZh, en: r.nameEn }), code: r.code, org: r.orgName })}</p>
                    {r.rulesUsing > 0 ? <p className="alarm-muted">{t('alarmConfig.level.deleteInUse', { count: r.rulesUsing })}</p> : null}
                  </div>
                ),
                okText: t('alarmConfig.delete'),
                danger: true,
                action: () => remove.mutateAsync(r.id),
                success: t('alarmConfig.deleted'),
              }),
          },
        ]
      : [],
  };

  // The menu may show the screen to a role that lacks the action; the server would refuse the list.
  if (!can('alarm:read')) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('alarmConfig.level.title')}</span>} data-testid="alarm-levels-page" className="alarm-config-page">
      {filters.length ? <FilterBar items={filters} value={list.filters} onSearch={list.setFilters} /> : null}
      <ServerTable descriptor={descriptor} list={list} query={query} />
      <LevelFormModal target={form.target} open={form.open} onClose={form.hide} afterClose={form.afterClose} />
    </Card>
  );
}

// system/roles: the roles of the caller's organisations (the tree narrows them to an
// organisation and its descendants); a role grants actions and menu items, edited in a drawer.
import { Card } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RoleRow } from '@iotc/shared/platform';
import type { TableDescriptor } from '../../../components/data-table/types.ts';
import type { FilterItem } from '../../../components/filter-bar.tsx';
import { useLang } from '../../../lib/language.ts';
import { useListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useDeleteRole } from '../api/role-delete.ts';
import { useRoles } from '../api/roles.ts';
import { OrgScopedList } from '../components/org-scoped-list.tsx';
import { RoleDrawer, type RoleFormTarget } from '../components/role-drawer.tsx';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import '../components/system.css';

const FILTERS: FilterItem[] = [{ label: 'system.roles.keyword', key: 'keyword', type: 'input' }];

export default function RolesPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const list = useListParams('roles', { sort: 'createdAt,desc' });
  const query = useRoles(list, lang);
  const orgId = list.filters.orgId;
  const drawer = useDialog<RoleFormTarget>();
  const confirm = useConfirmAction();
  const remove = useDeleteRole();

  const writable = can('role:write');

  const descriptor: TableDescriptor<RoleRow> = {
    id: 'roles',
    rowKey: 'id',
    columns: [
      { key: 'system.roles.code', value: 'code', sortable: true },
      { key: 'system.roles.name', value: 'name' },
      { key: 'system.roles.org', value: 'orgName' },
      { key: 'system.roles.userCount', value: 'userCount' },
      { key: 'system.common.createdAt', value: 'createdAt', type: 'datetime', sortable: true, hidden: true },
    ],
    topButtons: writable
      ? [{ name: 'system.roles.new', icon: <PlusOutlined />, primary: true, testId: 'role-new', onClick: () => drawer.show({ mode: 'create', orgId }) }]
      : [],
    rowButtons: writable
      ? [
          { name: 'system.common.edit', icon: <EditOutlined />, showtype: 'ti', testId: 'role-action-edit', onClick: (r) => drawer.show({ mode: 'edit', role: r }) },
          {
            name: 'system.common.delete',
            icon: <DeleteOutlined />,
            showtype: 'ti',
            danger: true,
            testId: 'role-action-delete',
            onClick: (r) =>
              confirm({
                title: t('system.roles.deleteTitle'),
                content: t('system.roles.deleteContent', { name: r.name, code: r.code }),
                okText: t('system.common.delete'),
                danger: true,
                action: () => remove.mutateAsync(r.id),
                success: t('system.common.deleted'),
              }),
          },
        ]
      : [],
  };

  return (
    <Card title={<span data-testid="screen-title">{t('system.roles.title')}</span>} data-testid="roles-page" className="system-page">
      <OrgScopedList filters={FILTERS} descriptor={descriptor} list={list} query={query} />
      <RoleDrawer target={drawer.target} open={drawer.open} onClose={drawer.hide} afterClose={drawer.afterClose} />
    </Card>
  );
}

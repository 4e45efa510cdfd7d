// system/users: the organisation tree on the left narrows the list to an organisation and its
// descendants (`orgId` filter); the list is filtered, sorted and paged on the server. New users
// and password resets show the initial password once.
import { Card } from 'antd';
import { CheckCircleOutlined, EditOutlined, KeyOutlined, PlusOutlined, StopOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { InitialPasswordData, UserRow } from '@iotc/shared/platform';
import { useInfo } from '../../../api/info.ts';
import type { RowButton, TableDescriptor } from '../../../components/data-table/types.ts';
import type { FilterItem } from '../../../components/filter-bar.tsx';
import { useLang } from '../../../lib/language.ts';
import { useListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useChangeUserStatus } from '../api/user-status.ts';
import { useResetUserPassword } from '../api/user-reset-password.ts';
import { useUsers, type UserView } from '../api/users.ts';
import { OrgScopedList } from '../components/org-scoped-list.tsx';
import { InitialPasswordModal } from '../components/initial-password-modal.tsx';
import { STATUS_BUTTONS, STATUS_OPTIONS } from '../components/status.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { UserFormModal, type UserFormTarget } from '../components/user-form-modal.tsx';
import { UserRolesModal } from '../components/user-roles-modal.tsx';
import '../components/system.css';

const FILTERS: FilterItem[] = [
  { label: 'system.users.keyword', key: 'keyword', type: 'input' },
  { label: 'system.common.status', key: 'status', type: 'select', options: STATUS_OPTIONS },
];

export default function UsersPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const { data: me } = useInfo();
  const list = useListParams('users', { sort: 'createdAt,desc' });
  const query = useUsers(list, lang);
  const orgId = list.filters.orgId;

  const form = useDialog<UserFormTarget>();
  const roles = useDialog<UserRow>();
  const password = useDialog<InitialPasswordData>();
  const confirm = useConfirmAction();
  const changeStatus = useChangeUserStatus();
  const reset = useResetUserPassword();


  const writable = can('user:write');
  const isMe = (r: UserRow) => r.id === me?.id;

  const rowButtons: RowButton<UserView>[] = writable
    ? [
        { name: 'system.common.edit', icon: <EditOutlined />, showtype: 'i', testId: 'user-action-edit', onClick: (r) => form.show({ mode: 'edit', user: r }) },
        { name: 'system.users.assignRoles', icon: <TeamOutlined />, showtype: 'i', testId: 'user-action-roles', disabled: isMe, onClick: (r) => roles.show(r) },
        {
          name: 'system.users.resetPassword',
          icon: <KeyOutlined />,
          showtype: 'i',
          testId: 'user-action-reset',
          disabled: isMe,
          onClick: (r) =>
            confirm({
              title: t('system.users.resetTitle'),
              content: t('system.users.resetContent', { account: r.account }),
              okText: t('system.users.resetPassword'),
              danger: true,
              action: async () => password.show(await reset.mutateAsync(r.id)),
            }),
        },
        {
          name: 'system.common.deactivate',
          icon: <StopOutlined />,
          showtype: 'i',
          danger: true,
          testId: 'user-action-deactivate',
          hidden: (r) => r.status !== 'active',
          disabled: isMe,
          onClick: (r) =>
            confirm({
              title: t('system.users.deactivateTitle'),
              content: t('system.users.deactivateContent', { account: r.account }),
              okText: t('system.common.deactivate'),
              danger: true,
              action: () => changeStatus.mutateAsync({ id: r.id, change: 'deactivate' }),
              success: t('system.common.deactivated'),
            }),
        },
        {
          name: 'system.common.activate',
          icon: <CheckCircleOutlined />,
          showtype: 'i',
          testId: 'user-action-activate',
          hidden: (r) => r.status === 'active',
          onClick: (r) =>
            confirm({
              title: t('system.users.activateTitle'),
              content: t('system.users.activateContent', { account: r.account }),
              okText: t('system.common.activate'),
              action: () => changeStatus.mutateAsync({ id: r.id, change: 'activate' }),
              success: t('system.common.activated'),
            }),
        },
      ]
    : [];

  const descriptor: TableDescriptor<UserView> = {
    id: 'users',
    rowKey: 'id',
    columns: [
      { key: 'system.users.account', value: 'account', sortable: true },
      { key: 'system.users.name', value: 'name', sortable: true },
      { key: 'system.users.org', value: 'orgName' },
      { key: 'system.users.email', value: 'email', hidden: true },
      { key: 'system.users.phone', value: 'phone', hidden: true },
      { key: 'system.users.roles', value: 'roleNames', type: 'tags' },
      { key: 'system.common.status', value: 'status', type: 'button', sortable: true, buttons: STATUS_BUTTONS },
      {
        key: 'system.users.mustChangePassword',
        value: 'mustChangePassword',
        type: 'button',
        hidden: true,
        buttons: [
          { key: true, text: 'system.users.mustChangeYes', butType: 'tag', background: '#fff7e6', color: '#ad4e00' },
          { key: false, text: 'system.users.mustChangeNo', butType: 'tag', background: '#fafafa', color: 'rgba(0, 0, 0, 0.6)' },
        ],
      },
      { key: 'system.common.createdAt', value: 'createdAt', type: 'datetime', sortable: true, hidden: true },
    ],
    topButtons: writable
      ? [{ name: 'system.users.new', icon: <PlusOutlined />, primary: true, testId: 'user-new', onClick: () => form.show({ mode: 'create', orgId }) }]
      : [],
    rowButtons,
    // Beside the tree, five columns and five actions fit 1280 px; e-mail, mobile, initial password and
    // creation time are behind custom columns.
  };

  return (
    <Card title={<span data-testid="screen-title">{t('system.users.title')}</span>} data-testid="users-page" className="system-page">
      <OrgScopedList filters={FILTERS} descriptor={descriptor} list={list} query={query} />
      <UserFormModal target={form.target} open={form.open} onClose={form.hide} afterClose={form.afterClose} onCreated={password.show} />
      <UserRolesModal user={roles.target} open={roles.open} onClose={roles.hide} afterClose={roles.afterClose} />
      <InitialPasswordModal data={password.target} open={password.open} onClose={password.hide} afterClose={password.afterClose} />
    </Card>
  );
}

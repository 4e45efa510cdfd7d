// Assigning roles to a user: one checkbox per role of the user's organisation and its ancestors.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Checkbox, Empty, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '@iotc/shared/platform';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { useOrgTree } from '../../../api/org-tree.ts';
import { useAssignableRoles } from '../api/roles.ts';
import { useSetUserRoles } from '../api/user-roles.ts';
import { assignableRoles } from './org-tree-model.ts';

export interface UserRolesModalProps {
  user: UserRow | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function UserRolesModal({ user, open, onClose, afterClose }: UserRolesModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const { data: tree } = useOrgTree(can('org:read'));
  const { data: roles = [], isFetching } = useAssignableRoles(lang, open && can('role:read'));
  const save = useSetUserRoles();
  const [checked, setChecked] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (open && user) setChecked(user.roles.map((r) => r.id));
  }, [open, user]);

  const options = useMemo(() => assignableRoles(roles, tree, user?.orgId), [roles, tree, user?.orgId]);

  const submit = async () => {
    if (!user) return;
    setFailure(null);
    try {
      // Roles held from elsewhere that this list cannot show stay with the user.
      const shown = new Set(options.map((r) => r.id));
      const kept = user.roles.map((r) => r.id).filter((id) => !shown.has(id));
      await save.mutateAsync({ id: user.id, roleIds: [...kept, ...checked] });
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={open}
      title={t('system.users.rolesTitle', { account: user?.account ?? '' })}
      className="user-roles-modal"
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ id: 'user-roles-submit' }}
      confirmLoading={save.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      afterClose={() => {
        setFailure(null);
        afterClose();
      }}
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" className="system-form-error" /> : null}
      {isFetching && roles.length === 0 ? (
        <Spin />
      ) : options.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('system.users.noRoles')} />
      ) : (
        <Checkbox.Group
          className="user-roles-list"
          data-testid="user-roles-list"
          value={checked}
          onChange={(v) => setChecked(v.map(String))}
          options={options.map((r) => ({
            value: r.id,
            label: (
              <span data-testid={`role-option-${r.code}`}>
                {r.name}
                <span className="role-option-org">{r.orgName}</span>
              </span>
            ),
          }))}
        />
      )}
    </Modal>
  );
}

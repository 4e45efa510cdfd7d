// A new user (organisation, account, name, e-mail, mobile, roles, optional initial password)
// or a user's contact details. Each field is checked by the shared schema the server uses; a
// taken account is shown on its field.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import { userCreateBodySchema, type InitialPasswordData, type UserRow } from '@iotc/shared/platform';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { blankToUndefined, useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useOrgTree } from '../../../api/org-tree.ts';
import { useAssignableRoles } from '../api/roles.ts';
import { useCreateUser } from '../api/user-create.ts';
import { useUpdateUser } from '../api/user-update.ts';
import { OrgSelect } from '../../../components/org-select.tsx';
import { assignableRoles } from './org-tree-model.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

export type UserFormTarget = { mode: 'create'; orgId?: string } | { mode: 'edit'; user: UserRow };

interface UserFormValues {
  orgId?: string;
  account: string;
  name: string;
  email: string;
  phone: string;
  roleIds: string[];
  password: string;
}

const EMPTY: UserFormValues = { orgId: undefined, account: '', name: '', email: '', phone: '', roleIds: [], password: '' };
const fields = userCreateBodySchema.shape;

export interface UserFormModalProps {
  target: UserFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  /** A user was created: the answer carries the initial password to show once. */
  onCreated: (data: InitialPasswordData) => void;
}

export function UserFormModal({ target, open, onClose, afterClose, onCreated }: UserFormModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<UserFormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const create = useCreateUser();
  const update = useUpdateUser();
  const [failure, setFailure] = useState<string | null>(null);
  const creating = target?.mode === 'create';
  const can = usePermission();
  const { data: tree } = useOrgTree(can('org:read'));
  const { data: roles = [], isFetching: rolesLoading } = useAssignableRoles(lang, open && creating && can('role:read'));
  const orgId = Form.useWatch('orgId', form);
  useRevalidateOnLanguage(form);

  const roleOptions = useMemo(
    () =>
      assignableRoles(roles, tree, orgId).map((r) => ({
        value: r.id,
        label: `${r.name} (${r.orgName})`,
      })),
    [roles, tree, orgId],
  );

  // The form stays mounted (forceRender), so its instance is always connected; each opening fills it.
  useEffect(() => {
    if (!open || !target) return;
    if (target.mode === 'create') form.setFieldsValue({ ...EMPTY, orgId: target.orgId });
    else form.setFieldsValue({ ...EMPTY, name: target.user.name, email: target.user.email ?? '', phone: target.user.phone ?? '' });
  }, [open, target, form]);

  const onValuesChange = (changed: Partial<UserFormValues>) => {
    if (failure) setFailure(null);
    // Roles of the previous organisation's line may not be held in the new one.
    if ('orgId' in changed) {
      const allowed = new Set(assignableRoles(roles, tree, changed.orgId).map((r) => r.id));
      const kept = (form.getFieldValue('roleIds') as string[] | undefined)?.filter((id) => allowed.has(id)) ?? [];
      form.setFieldValue('roleIds', kept);
    }
  };

  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    const contact = { name: values.name.trim(), email: blankToUndefined(values.email), phone: blankToUndefined(values.phone) };
    try {
      if (target.mode === 'create') {
        const data = await create.mutateAsync({
          orgId: values.orgId!,
          account: values.account.trim(),
          ...contact,
          roleIds: values.roleIds ?? [],
          password: values.password ? values.password : undefined,
        });
        onClose();
        onCreated(data);
      } else {
        await update.mutateAsync({ id: target.user.id, ...contact });
        onClose();
      }
    } catch (error) {
      if (apiErrorCode(error) === 'ACCOUNT_TAKEN') form.setFields([{ name: 'account', errors: [errorText('ACCOUNT_TAKEN', lang)] }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  const editing = target?.mode === 'edit' ? target.user : undefined;

  return (
    <Modal
      open={open}
      title={creating ? t('system.users.newTitle') : t('system.users.editTitle')}
      className="user-form-modal"
      width={600}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ id: 'user-form-submit' }}
      confirmLoading={create.isPending || update.isPending}
      onOk={() => void submit()}
      onCancel={guardedClose}
      modalRender={guardedModalRender(keys)}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
        afterClose();
      }}
      forceRender
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" className="system-form-error" /> : null}
      <Form<UserFormValues> form={form} layout="vertical" onFinish={() => void submit()} onValuesChange={onValuesChange}>
        {editing ? (
          <>
            <Form.Item label={t('system.users.org')}>
              <Input value={editing.orgName} disabled />
            </Form.Item>
            <Form.Item label={t('system.users.account')}>
              <Input value={editing.account} disabled />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item
              name="orgId"
              label={t('system.users.org')}
              required
              rules={[{ required: true, message: t('system.common.orgRequired') }]}
            >
              <OrgSelect />
            </Form.Item>
            <Form.Item name="account" label={t('system.users.account')} required rules={[schemaRule(fields.account, lang)]}>
              <Input maxLength={32} autoComplete="off" />
            </Form.Item>
          </>
        )}
        <Form.Item name="name" label={t('system.users.name')} required rules={[schemaRule(fields.name, lang)]}>
          <Input maxLength={100} autoComplete="off" />
        </Form.Item>
        <Form.Item name="email" label={t('system.users.email')} rules={[schemaRule(fields.email, lang)]}>
          <Input maxLength={254} autoComplete="off" />
        </Form.Item>
        <Form.Item name="phone" label={t('system.users.phone')} rules={[schemaRule(fields.phone, lang)]}>
          <Input maxLength={11} autoComplete="off" />
        </Form.Item>
        {creating ? (
          <>
            <Form.Item name="roleIds" label={t('system.users.roles')} extra={orgId ? undefined : t('system.users.rolesAfterOrg')}>
              <Select
                mode="multiple"
                allowClear
                disabled={!orgId}
                loading={rolesLoading}
                options={roleOptions}
                optionFilterProp="label"
                placeholder={t('filter.select')}
                notFoundContent={t('system.users.noRoles')}
                classNames={{ popup: { root: 'user-roles-popup' } }}
              />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('system.users.initialPassword')}
              extra={t('system.users.initialPasswordBlank')}
              rules={[schemaRule(fields.password, lang)]}
            >
              <Input.Password maxLength={20} autoComplete="new-password" />
            </Form.Item>
          </>
        ) : null}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

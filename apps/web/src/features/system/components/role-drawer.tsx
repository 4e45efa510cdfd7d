// A role's form in a drawer: organisation and code (fixed once created), names in both
// languages, the actions it allows and the menu items it shows, out of what the caller may grant.
import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Drawer, Form, Input, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import { roleCreateBodySchema, type Permission, type RoleRow } from '@iotc/shared/platform';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useGrantables } from '../api/grantables.ts';
import { useCreateRole } from '../api/role-create.ts';
import { useRole } from '../api/role-detail.ts';
import { useUpdateRole } from '../api/role-update.ts';
import { MenuGrants } from './menu-grants.tsx';
import { OrgSelect } from '../../../components/org-select.tsx';
import { formKeys, useGuardedClose } from '../../../components/form-guard.ts';

export type RoleFormTarget = { mode: 'create'; orgId?: string } | { mode: 'edit'; role: RoleRow };

interface RoleFormValues {
  orgId?: string;
  code: string;
  nameZh: string;
  nameEn: string;
  permissions: Permission[];
  menuIds: string[];
}

const fields = roleCreateBodySchema.shape;

export interface RoleDrawerProps {
  target: RoleFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function RoleDrawer({ target, open, onClose, afterClose }: RoleDrawerProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<RoleFormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const grantables = useGrantables(lang, open);
  const editId = target?.mode === 'edit' ? target.role.id : undefined;
  // The stored grants, fresh: the list row may be older than another administrator's change.
  const detail = useRole(open ? editId : undefined, lang);
  const create = useCreateRole();
  const update = useUpdateRole();
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);

  const role = target?.mode === 'edit' ? (detail.data ?? null) : null;
  const loading = grantables.isPending || (!!editId && detail.isPending);

  // Each opening fills the form: empty for a new role, the stored role once it has arrived.
  useEffect(() => {
    if (!open || !target) return;
    if (target.mode === 'create') form.setFieldsValue({ orgId: target.orgId, code: '', nameZh: '', nameEn: '', permissions: [], menuIds: [] });
  }, [open, target, form]);
  useEffect(() => {
    if (open && role) {
      form.setFieldsValue({ orgId: role.orgId, code: role.code, nameZh: role.nameZh, nameEn: role.nameEn, permissions: role.permissions, menuIds: role.menuIds });
    }
  }, [open, role, form]);

  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    const grants = {
      nameZh: values.nameZh.trim(),
      nameEn: values.nameEn.trim(),
      permissions: values.permissions ?? [],
      menuIds: values.menuIds ?? [],
    };
    try {
      if (target.mode === 'create') await create.mutateAsync({ orgId: values.orgId!, code: values.code.trim(), ...grants });
      else await update.mutateAsync({ id: target.role.id, ...grants });
      onClose();
    } catch (error) {
      if (apiErrorCode(error) === 'ROLE_CODE_TAKEN') form.setFields([{ name: 'code', errors: [errorText('ROLE_CODE_TAKEN', lang)] }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  const creating = target?.mode === 'create';

  return (
    <Drawer
      open={open}
      size={760}
      title={creating ? t('system.roles.newTitle') : t('system.roles.editTitle')}
      className="role-drawer"
      forceRender
      onClose={guardedClose}
      onKeyDown={keys}
      afterOpenChange={(visible) => {
        if (visible) return;
        form.resetFields();
        setFailure(null);
        afterClose();
      }}
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" id="role-submit" data-testid="role-submit" loading={create.isPending || update.isPending} disabled={loading} onClick={() => void submit()}>
            {t('system.common.save')}
          </Button>
        </Space>
      }
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" className="system-form-error" /> : null}
      <Spin spinning={loading}>
        <Form<RoleFormValues> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
          <div className="role-form-row">
            <Form.Item
              name="orgId"
              label={t('system.roles.org')}
              required
              rules={[{ required: true, message: t('system.common.orgRequired') }]}
            >
              <OrgSelect disabled={!creating} />
            </Form.Item>
            <Form.Item name="code" label={t('system.roles.code')} required extra={creating ? t('system.common.codeHint') : undefined} rules={creating ? [schemaRule(fields.code, lang)] : []}>
              <Input maxLength={32} autoComplete="off" disabled={!creating} />
            </Form.Item>
          </div>
          <div className="role-form-row">
            <Form.Item name="nameZh" label={t('system.roles.nameZh')} required rules={[schemaRule(fields.nameZh, lang)]}>
              <Input maxLength={100} autoComplete="off" />
            </Form.Item>
            <Form.Item name="nameEn" label={t('system.roles.nameEn')} required rules={[schemaRule(fields.nameEn, lang)]}>
              <Input maxLength={100} autoComplete="off" />
            </Form.Item>
          </div>
          <Form.Item name="permissions" label={t('system.roles.actions')}>
            <Checkbox.Group
              className="role-actions"
              data-testid="role-actions"
              options={(grantables.data?.actions ?? []).map((a) => ({ value: a.code, label: <span data-testid={`role-permission-${a.code}`}>{a.name}</span> }))}
            />
          </Form.Item>
          <Form.Item name="menuIds" label={t('system.roles.menus')} extra={t('system.roles.menusHint')}>
            <MenuGrants menus={grantables.data?.menus ?? []} />
          </Form.Item>
        </Form>
      </Spin>
    </Drawer>
  );
}

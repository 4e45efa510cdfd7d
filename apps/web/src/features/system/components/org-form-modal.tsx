// Adding a child organisation (code and name) or renaming one; the code's and name's rules are
// the shared schemas', and a taken code is shown on its field.
import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import { orgCreateBodySchema, type OrgNode } from '@iotc/shared/platform';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useCreateOrg } from '../api/org-create.ts';
import { useUpdateOrg } from '../api/org-update.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

/** Adding under `parent`, or renaming `org`. */
export type OrgFormTarget = { mode: 'create'; parent: OrgNode } | { mode: 'rename'; org: OrgNode };

interface OrgFormValues {
  code: string;
  name: string;
}

export interface OrgFormModalProps {
  target: OrgFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  /** The organisation saved (the new one's id when adding). */
  onSaved: (id: string) => void;
}

export function OrgFormModal({ target, open, onClose, afterClose, onSaved }: OrgFormModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<OrgFormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const create = useCreateOrg();
  const update = useUpdateOrg();
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);
  const creating = target?.mode === 'create';

  // The form stays mounted (forceRender), so its instance is always connected; each opening fills it.
  useEffect(() => {
    if (open && target) form.setFieldsValue({ code: '', name: target.mode === 'rename' ? target.org.name : '' });
  }, [open, target, form]);

  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    try {
      if (target.mode === 'create') {
        const org = await create.mutateAsync({ parentId: target.parent.id, code: values.code.trim(), name: values.name.trim() });
        onSaved(org.id);
      } else {
        await update.mutateAsync({ id: target.org.id, name: values.name.trim() });
        onSaved(target.org.id);
      }
      onClose();
    } catch (error) {
      if (apiErrorCode(error) === 'ORG_CODE_TAKEN') form.setFields([{ name: 'code', errors: [errorText('ORG_CODE_TAKEN', lang)] }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={open}
      title={creating ? t('system.orgs.addChildTitle') : t('system.orgs.renameTitle')}
      className="org-form-modal"
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ id: 'org-form-submit' }}
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
      <Form<OrgFormValues> form={form} layout="vertical" onFinish={() => void submit()} onValuesChange={() => failure && setFailure(null)}>
        {target?.mode === 'create' ? (
          <Form.Item label={t('system.orgs.parent')}>
            <Input value={target.parent.name} disabled />
          </Form.Item>
        ) : null}
        {target?.mode === 'rename' ? (
          <Form.Item label={t('system.orgs.code')}>
            <Input value={target.org.code} disabled />
          </Form.Item>
        ) : (
          <Form.Item
            name="code"
            label={t('system.orgs.code')}
            required
            extra={t('system.common.codeHint')}
            rules={[schemaRule(orgCreateBodySchema.shape.code, lang)]}
          >
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('system.orgs.name')} required rules={[schemaRule(orgCreateBodySchema.shape.name, lang)]}>
          <Input maxLength={100} autoComplete="off" />
        </Form.Item>
        {/* Enter in a field submits. */}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

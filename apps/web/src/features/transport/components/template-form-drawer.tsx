// The create / edit form of a transport template: its name, description and organisation, and
// the settings a task made from it starts with (the same sections as the task form). Checked by
// the shared schema; a server refusal naming a field shows on it.
import { useEffect, useState } from 'react';
import { Alert, App, Button, Drawer, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import { templateBodySchema, type TemplateRow } from '@iotc/shared/transport';
import { OrgSelect, useOrgChoice } from '../../../components/org-select.tsx';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { useInfo } from '../../../api/info.ts';
import { formKeys, useGuardedClose } from '../../../components/form-guard.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useSaveTemplate } from '../api/template-save.ts';
import { Section, SettingsSections } from './settings-sections.tsx';
import { newTemplateValues, schemaIssues, SERVER_ERROR_FIELDS, templateInput, templateValuesFromRow, type TemplateFormValues } from './task-model.ts';
import { FORM_WIDTH } from './task-form-drawer.tsx';

export type TemplateFormTarget = { mode: 'create' } | { mode: 'edit'; row: TemplateRow };

export interface TemplateFormDrawerProps {
  target: TemplateFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function TemplateFormDrawer({ target, open, onClose, afterClose }: TemplateFormDrawerProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<TemplateFormValues>();
  const save = useSaveTemplate();
  const orgChoice = useOrgChoice();
  const [failure, setFailure] = useState<string | null>(null);
  const [opening, setOpening] = useState(0);
  useRevalidateOnLanguage(form);
  const editing = target?.mode === 'edit' ? target.row : null;
  const guardedClose = useGuardedClose(form, onClose, open);
  const { data: me } = useInfo();
  // The organisation the template is for: the one picked, the edited template's, else the caller's.
  const orgId = (Form.useWatch('orgId', form) as string | undefined) || editing?.orgId || me?.orgId;

  useEffect(() => {
    if (!open || !target) return;
    setOpening((n) => n + 1);
    setFailure(null);
    form.resetFields();
    form.setFieldsValue(target.mode === 'edit' ? templateValuesFromRow(target.row) : newTemplateValues());
  }, [open, target, form]);

  const showErrors = (fields: { name: (string | number)[]; code: ErrorCode }[]) => {
    form.setFields(fields.map((f) => ({ name: f.name as never, errors: [errorText(f.code, lang)] })));
    if (fields[0]) form.scrollToField(fields[0].name as never, { block: 'center' });
  };

  const submit = async () => {
    if (!target) return;
    const ok = await form.validateFields().then(
      () => true,
      () => false,
    );
    if (!ok) return;
    setFailure(null);
    const values = { ...newTemplateValues(), ...form.getFieldsValue(true) } as TemplateFormValues;
    const parsed = templateBodySchema.safeParse(templateInput(values));
    if (!parsed.success) {
      showErrors(schemaIssues(parsed.error));
      return;
    }
    try {
      const row = await save.mutateAsync({ id: editing?.id ?? null, body: parsed.data });
      void message.success(t(editing ? 'transport.template.saved' : 'transport.template.created', { name: row.name }));
      onClose();
    } catch (error) {
      const code = apiErrorCode(error);
      const field = code ? SERVER_ERROR_FIELDS[code] : undefined;
      if (code && field) showErrors([{ name: field, code }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Drawer
      open={open}
      size={FORM_WIDTH}
      title={editing ? t('transport.template.editTitle', { name: editing.name }) : t('transport.template.newTitle')}
      className="tt-form-drawer"
      data-testid="tt-template-drawer"
      onClose={guardedClose}
      onKeyDown={formKeys(guardedClose)}
      afterOpenChange={(visible) => {
        if (!visible) {
          form.resetFields();
          setFailure(null);
          afterClose();
        }
      }}
      forceRender
      footer={
        <Space>
          <Button onClick={guardedClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="tt-template-submit">
            {editing ? t('transport.form.save') : t('transport.form.create')}
          </Button>
        </Space>
      }
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="tt-template-error" className="tt-gap" /> : null}
      <Form<TemplateFormValues> form={form} name="ttTemplate" layout="vertical" onFinish={() => void submit()} onValuesChange={() => failure && setFailure(null)}>
        <Section title={t('transport.section.template')}>
          {!editing && orgChoice ? (
            <Form.Item name="orgId" label={t('transport.form.org')}>
              <OrgSelect allowClear placeholder={t('transport.form.orgDefault')} />
            </Form.Item>
          ) : null}
          <Form.Item name="name" label={t('transport.template.name')} required rules={[schemaRule(templateBodySchema.shape.name, lang)]}>
            <Input maxLength={100} autoComplete="off" autoFocus />
          </Form.Item>
          <Form.Item name="description" label={t('transport.template.description')}>
            <Input.TextArea rows={2} maxLength={500} showCount />
          </Form.Item>
        </Section>
        <SettingsSections form={form} formName="ttTemplate" orgId={orgId} key={`settings-${opening}`} />
        <button type="submit" hidden />
      </Form>
    </Drawer>
  );
}

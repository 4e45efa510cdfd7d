// The new or edited product profile: name, the range (low..high °C), the minutes allowed above and
// below over the product's life, the absolute limits, the alert share, a remark. Checked with the
// shared schema (the server's rule), its errors in the user's language.
import { useEffect, useState } from 'react';
import { Alert, App, Button, Drawer, Form, Input, InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText, isErrorCode } from '@iotc/shared/errors';
import { profileBodySchema, type ProfileRow } from '@iotc/shared/product';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useSaveProfile } from '../api/profiles.ts';

export type ProfileFormTarget = { mode: 'create' } | { mode: 'edit'; row: ProfileRow };

interface Values {
  name: string;
  lowC: number | null;
  highC: number | null;
  aboveBudgetMin: number | null;
  belowBudgetMin: number | null;
  absoluteMaxC: number | null;
  absoluteMinC: number | null;
  alertPercent: number | null;
  remark: string;
}

const EMPTY: Values = { name: '', lowC: 2, highC: 8, aboveBudgetMin: 60, belowBudgetMin: 0, absoluteMaxC: 25, absoluteMinC: null, alertPercent: 80, remark: '' };

export function ProfileFormDrawer({ target, open, onClose, afterClose }: { target: ProfileFormTarget | null; open: boolean; onClose: () => void; afterClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSaveProfile();
  const [failure, setFailure] = useState<string | null>(null);
  const editing = target?.mode === 'edit' ? target.row : null;

  useEffect(() => {
    if (!open || !target) return;
    setFailure(null);
    form.resetFields();
    form.setFieldsValue(target.mode === 'edit' ? { ...target.row } : EMPTY);
  }, [open, target, form]);

  const submit = async () => {
    const v = form.getFieldsValue(true) as Values;
    const parsed = profileBodySchema.safeParse({ ...v, absoluteMinC: v.absoluteMinC ?? null, remark: v.remark ?? '' });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setFailure(isErrorCode(issue.message) ? errorText(issue.message, lang) : issue.message);
      return;
    }
    try {
      const row = await save.mutateAsync({ id: editing?.id ?? null, body: parsed.data });
      void message.success(t(editing ? 'product.profile.saved' : 'product.profile.created', { name: row.name }));
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  const num = (name: keyof Values, label: string, unit: string, testId: string, extra?: { min?: number; max?: number; precision?: number }) => (
    <Form.Item name={name} label={label}>
      <InputNumber style={{ width: '100%' }} addonAfter={unit} data-testid={testId} {...extra} />
    </Form.Item>
  );

  return (
    <Drawer
      open={open}
      size={520}
      title={editing ? t('product.profile.editTitle', { name: editing.name }) : t('product.profile.newTitle')}
      data-testid="profile-drawer"
      onClose={onClose}
      afterOpenChange={(visible) => {
        if (!visible) afterClose();
      }}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="profile-submit">
            {t('product.save')}
          </Button>
        </Space>
      }
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="profile-error" style={{ marginBottom: 12 }} /> : null}
      <Form<Values> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
        <Form.Item name="name" label={t('product.profile.name')}>
          <Input maxLength={64} autoComplete="off" data-testid="profile-name" />
        </Form.Item>
        <Space.Compact block>
          {num('lowC', t('product.profile.lowC'), '°C', 'profile-low')}
          {num('highC', t('product.profile.highC'), '°C', 'profile-high')}
        </Space.Compact>
        {num('aboveBudgetMin', t('product.profile.aboveBudget'), t('product.minutes'), 'profile-above', { min: 0, precision: 0 })}
        {num('belowBudgetMin', t('product.profile.belowBudget'), t('product.minutes'), 'profile-below', { min: 0, precision: 0 })}
        {num('absoluteMaxC', t('product.profile.absoluteMax'), '°C', 'profile-abs-max')}
        {num('absoluteMinC', t('product.profile.absoluteMin'), '°C', 'profile-abs-min')}
        {num('alertPercent', t('product.profile.alertPercent'), '%', 'profile-alert', { min: 1, max: 99, precision: 0 })}
        <Form.Item name="remark" label={t('product.remark')}>
          <Input.TextArea maxLength={500} rows={3} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

// Recording a repair of a fault: what was done (required, checked by the shared schema), the
// result and a note. `in_progress` keeps the fault under repair and is recorded at once; any other
// result resolves the fault for good, so it asks for a confirmation first. Enter in the action
// field submits.
import { useState } from 'react';
import { Alert, App, Button, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import { REPAIR_RESULTS, repairBodySchema, type FaultDetail, type RepairResult } from '@iotc/shared/fault';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useRecordRepair } from '../api/fault-repair.ts';

export const ACTION_MAX = 500;
export const NOTE_MAX = 1000;

interface RepairValues {
  action: string;
  result: RepairResult;
  note: string;
}

export function RepairForm({ fault }: { fault: FaultDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<RepairValues>();
  const record = useRecordRepair();
  const confirm = useConfirmAction();
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);

  const save = async (values: RepairValues) => {
    const body = repairBodySchema.parse(values);
    await record.mutateAsync({ id: fault.id, body });
    form.resetFields();
  };

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    if (values.result === 'in_progress') {
      try {
        await save(values);
        void message.success(t('fault.repair.saved'));
      } catch (error) {
        const code = apiErrorCode(error);
        if (code === 'REPAIR_ACTION_REQUIRED') form.setFields([{ name: 'action', errors: [errorText(code, lang)] }]);
        else setFailure(apiErrorText(error, lang));
      }
      return;
    }
    confirm({
      title: t('fault.repair.resolveTitle'),
      content: (
        <div data-testid="fault-resolve-content">
          {t('fault.repair.resolveContent', { result: t(`fault.result.${values.result}`), device: `${fault.device.name} (${fault.device.deviceId})` })}
        </div>
      ),
      okText: t('fault.repair.submit'),
      action: () => save(values),
      success: t('fault.repair.saved'),
    });
  };

  return (
    <div className="fault-repair" data-testid="fault-repair-form">
      {failure ? <Alert type="error" showIcon title={failure} data-testid="fault-repair-error" className="fault-gap" /> : null}
      <Form<RepairValues>
        form={form}
        name="repair"
        layout="vertical"
        initialValues={{ action: '', result: 'repaired', note: '' }}
        onFinish={() => void submit()}
        onValuesChange={() => failure && setFailure(null)}
      >
        <Form.Item name="action" label={t('fault.repair.action')} required rules={[schemaRule(repairBodySchema.shape.action, lang)]}>
          <Input maxLength={ACTION_MAX} showCount autoComplete="off" placeholder={t('fault.repair.actionPlaceholder')} data-testid="fault-repair-action" />
        </Form.Item>
        <Form.Item name="result" label={t('fault.repair.result')} required extra={t('fault.repair.resultHint')}>
          <Select data-testid="fault-repair-result" options={REPAIR_RESULTS.map((r) => ({ value: r, label: t(`fault.result.${r}`) }))} />
        </Form.Item>
        <Form.Item name="note" label={t('fault.repair.note')} rules={[{ max: NOTE_MAX, message: t('fault.repair.noteTooLong', { max: NOTE_MAX }) }]}>
          <Input.TextArea rows={3} maxLength={NOTE_MAX} showCount placeholder={t('fault.repair.notePlaceholder')} data-testid="fault-repair-note" />
        </Form.Item>
        <div className="fault-repair-actions">
          <Button type="primary" htmlType="submit" loading={record.isPending} data-testid="fault-repair-submit">
            {t('fault.repair.submit')}
          </Button>
        </div>
      </Form>
    </div>
  );
}

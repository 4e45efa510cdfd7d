// Handing an alarm to someone: a user of the organisation tree picked by name or account; a
// refusal of the server is shown in the dialog, which stays open.
import { useEffect, useState } from 'react';
import { Alert, App, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AlarmRow } from '@iotc/shared/alarm';
import { AssigneeSelect } from '../../../components/assignee-select.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useAssignAlarm } from '../api/alarm-assign.ts';
import { DIALOG_OVER_DRAWER_Z } from '../../../lib/layers.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

export interface AssignAlarmModalProps {
  /** The alarm to assign; null keeps the dialog closed. */
  alarm: AlarmRow | null;
  onCancel: () => void;
  onAssigned: (row: AlarmRow) => void;
}

export function AssignAlarmModal({ alarm, onCancel, onAssigned }: AssignAlarmModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ userId: string | null }>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onCancel, !!alarm);
  const keys = formKeys(guardedClose);
  const assign = useAssignAlarm();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (alarm) form.setFieldsValue({ userId: alarm.assignee?.id ?? null });
  }, [alarm, form]);

  const submit = async () => {
    if (!alarm) return;
    const values = await form.validateFields().catch(() => null);
    if (!values?.userId) return;
    setFailure(null);
    try {
      const row = await assign.mutateAsync({ id: alarm.id, userId: values.userId });
      void message.success(t('alarm.assign.done', { name: row.assignee?.name ?? '' }));
      onAssigned(row);
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={!!alarm}
      title={t('alarm.assign.title')}
      okText={t('alarm.assign.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ id: 'alarm-assign-submit' }}
      confirmLoading={assign.isPending}
      onOk={() => void submit()}
      onCancel={guardedClose}
      modalRender={guardedModalRender(keys)}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
      }}
      forceRender
      zIndex={DIALOG_OVER_DRAWER_Z}
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="alarm-assign-error" style={{ marginBottom: 12 }} /> : null}
      <Form form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
        <Form.Item name="userId" label={t('alarm.assign.user')} required rules={[{ required: true, message: t('alarm.assign.required') }]}>
          <AssigneeSelect id="alarm-assign-user" currentLabel={alarm?.assignee ? `${alarm.assignee.name} (${alarm.assignee.account})` : undefined} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

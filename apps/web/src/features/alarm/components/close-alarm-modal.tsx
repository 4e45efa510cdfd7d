// Closing an alarm by hand: the reason is required (at most 500 characters, as the server
// checks); a refusal of the server is shown in the dialog, which stays open.
import { useEffect, useState } from 'react';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AlarmRow } from '@iotc/shared/alarm';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { useCloseAlarm } from '../api/alarm-close.ts';
import { DIALOG_OVER_DRAWER_Z } from '../../../lib/layers.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

/** The server's limit of a close reason. */
export const CLOSE_REASON_MAX = 500;

interface CloseValues {
  reason: string;
}

export interface CloseAlarmModalProps {
  /** The alarm to close; null keeps the dialog closed. */
  alarm: AlarmRow | null;
  onCancel: () => void;
  onClosed: (row: AlarmRow) => void;
}

export function CloseAlarmModal({ alarm, onCancel, onClosed }: CloseAlarmModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<CloseValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onCancel, !!alarm);
  const keys = formKeys(guardedClose);
  const close = useCloseAlarm();
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);

  // The form stays mounted (forceRender); each opening starts empty.
  useEffect(() => {
    if (alarm) form.setFieldsValue({ reason: '' });
  }, [alarm, form]);

  const submit = async () => {
    if (!alarm) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    try {
      const row = await close.mutateAsync({ id: alarm.id, reason: values.reason.trim() });
      void message.success(t('alarm.action.closed'));
      onClosed(row);
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={!!alarm}
      title={t('alarm.close.title')}
      className="alarm-close-modal"
      okText={t('alarm.action.close')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, id: 'alarm-close-submit' }}
      confirmLoading={close.isPending}
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
      {failure ? <Alert type="error" showIcon title={failure} data-testid="alarm-close-error" style={{ marginBottom: 12 }} /> : null}
      <Form<CloseValues> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
        <Form.Item
          name="reason"
          label={t('alarm.close.reason')}
          required
          rules={[
            { required: true, whitespace: true, message: t('alarm.close.reasonRequired') },
            { max: CLOSE_REASON_MAX, message: t('alarm.close.reasonTooLong', { max: CLOSE_REASON_MAX }) },
          ]}
        >
          <Input.TextArea id="alarm-close-reason" rows={4} maxLength={CLOSE_REASON_MAX} showCount placeholder={t('alarm.close.placeholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// Resolving a work order: what was done is required (the server refuses a resolution without
// it); a refusal is shown in the dialog, which stays open. Ctrl+Enter submits.
import { useEffect, useState } from 'react';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import type { WorkOrderRow } from '@iotc/shared/work-order';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { useTransitionWorkOrder } from '../api/work-order-transition.ts';
import { DIALOG_OVER_DRAWER_Z } from '../../../lib/layers.ts';

/** The server's limit of a transition note. */
export const NOTE_MAX = 1000;

interface NoteValues {
  note: string;
}

export interface ResolveModalProps {
  /** The order to resolve; null keeps the dialog closed. */
  order: WorkOrderRow | null;
  onClose: () => void;
}

export function ResolveModal({ order, onClose }: ResolveModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<NoteValues>();
  const move = useTransitionWorkOrder();
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);

  useEffect(() => {
    if (order) form.setFieldsValue({ note: '' });
  }, [order, form]);

  const submit = async () => {
    if (!order) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    try {
      await move.mutateAsync({ id: order.id, to: 'resolved', note: values.note.trim() });
      void message.success(t('workOrder.action.moved', { status: t('workOrder.status.resolved') }));
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={!!order}
      title={order ? t('workOrder.resolve.title', { code: order.code }) : null}
      className="wo-resolve-modal"
      okText={t('workOrder.action.resolve')}
      cancelText={t('common.cancel')}
      okButtonProps={{ ...{ 'data-testid': 'wo-resolve-submit' } }}
      confirmLoading={move.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
      }}
      forceRender
      zIndex={DIALOG_OVER_DRAWER_Z}
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="wo-resolve-error" className="wo-gap" /> : null}
      <Form<NoteValues> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
        <Form.Item
          name="note"
          label={t('workOrder.resolve.note')}
          required
          rules={[
            { required: true, whitespace: true, message: errorText('WORK_ORDER_RESOLUTION_REQUIRED', lang) },
            { max: NOTE_MAX, message: t('workOrder.resolve.noteTooLong', { max: NOTE_MAX }) },
          ]}
        >
          <Input.TextArea
            id="wo-resolve-note"
            rows={4}
            maxLength={NOTE_MAX}
            showCount
            autoFocus
            placeholder={t('workOrder.resolve.placeholder')}
            onPressEnter={(e) => {
              if (e.ctrlKey || e.metaKey) void submit();
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

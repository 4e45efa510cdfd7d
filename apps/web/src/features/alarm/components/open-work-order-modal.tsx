// Opening a work order for one alarm from its details: the title starts as "type · device", the
// priority follows the alarm's level; assignee and due time are optional. The new order's code is
// shown with a link to the work orders screen.
import { useEffect, useState } from 'react';
import { Alert, App, DatePicker, Form, Input, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { AlarmRow } from '@iotc/shared/alarm';
import { WORK_ORDER_PRIORITIES, type WorkOrderPriority, type WorkOrderRow } from '@iotc/shared/work-order';
import { AssigneeSelect } from '../../../components/assignee-select.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useOpenWorkOrder } from '../api/alarm-work-order.ts';
import { useAlarmTexts } from './use-alarm-texts.ts';
import { DIALOG_OVER_DRAWER_Z } from '../../../lib/layers.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

export const WORK_ORDER_TITLE_MAX = 100;

/** Level priority 1 (most urgent) to 4 and beyond, as a work order priority. */
export function priorityOfLevel(levelPriority: number): WorkOrderPriority {
  return WORK_ORDER_PRIORITIES[Math.min(Math.max(Math.round(levelPriority), 1), WORK_ORDER_PRIORITIES.length) - 1]!;
}

interface Values {
  title: string;
  description: string;
  priority: WorkOrderPriority;
  assigneeId: string | null;
  dueAt: Dayjs | null;
}

export interface OpenWorkOrderModalProps {
  alarm: AlarmRow | null;
  onCancel: () => void;
  onOpened: (order: WorkOrderRow) => void;
}

export function OpenWorkOrderModal({ alarm, onCancel, onOpened }: OpenWorkOrderModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const texts = useAlarmTexts();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onCancel, !!alarm);
  const keys = formKeys(guardedClose);
  const open = useOpenWorkOrder();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (alarm)
      form.setFieldsValue({
        title: `${texts.typeName(alarm.type)} · ${alarm.device.name}`.slice(0, WORK_ORDER_TITLE_MAX),
        description: '',
        priority: priorityOfLevel(alarm.level.priority),
        assigneeId: alarm.assignee?.id ?? null,
        dueAt: null,
      });
  }, [alarm, form, texts]);

  const submit = async () => {
    if (!alarm) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    try {
      const order = await open.mutateAsync({
        title: values.title.trim(),
        description: values.description?.trim() ?? '',
        priority: values.priority,
        assigneeId: values.assigneeId ?? null,
        dueAt: values.dueAt ? values.dueAt.toISOString() : null,
        alarmIds: [alarm.id],
      });
      void message.success(t('alarm.workOrder.opened', { code: order.code }));
      onOpened(order);
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={!!alarm}
      title={t('alarm.workOrder.title')}
      okText={t('alarm.workOrder.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ id: 'alarm-work-order-submit' }}
      confirmLoading={open.isPending}
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
      {failure ? <Alert type="error" showIcon title={failure} data-testid="alarm-work-order-error" style={{ marginBottom: 12 }} /> : null}
      <Form<Values> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
        <Form.Item
          name="title"
          label={t('alarm.workOrder.orderTitle')}
          required
          rules={[
            { required: true, whitespace: true, message: t('alarm.workOrder.titleRequired') },
            { max: WORK_ORDER_TITLE_MAX, message: t('alarm.workOrder.titleTooLong', { max: WORK_ORDER_TITLE_MAX }) },
          ]}
        >
          <Input id="alarm-work-order-title" maxLength={WORK_ORDER_TITLE_MAX} />
        </Form.Item>
        <Form.Item name="priority" label={t('alarm.workOrder.priority')} required>
          <Select id="alarm-work-order-priority" options={WORK_ORDER_PRIORITIES.map((p) => ({ value: p, label: t(`alarm.workOrder.priority.${p}`) }))} />
        </Form.Item>
        <Form.Item name="assigneeId" label={t('alarm.workOrder.assignee')}>
          <AssigneeSelect id="alarm-work-order-assignee" currentLabel={alarm?.assignee ? `${alarm.assignee.name} (${alarm.assignee.account})` : undefined} />
        </Form.Item>
        <Form.Item name="dueAt" label={t('alarm.workOrder.dueAt')}>
          <DatePicker id="alarm-work-order-due" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="description" label={t('alarm.workOrder.description')}>
          <Input.TextArea id="alarm-work-order-description" rows={3} maxLength={2000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

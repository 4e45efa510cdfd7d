// Handing the goods of a task over (in transit or arrived): who gives, who takes, when (now when
// left empty), where, the seal numbers as tags, the temperature read and whether the receiver
// signed the delivery note. The limits are the shared schema's; a refusal of the server is shown
// in the dialog, which stays open. Enter in a one-line field or Ctrl+Enter in the note submits.
import { useEffect, useState } from 'react';
import { Alert, App, Checkbox, DatePicker, Form, Input, InputNumber, Modal, Select, type FormRule } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import { HANDOVER_CLOCK_SKEW_MS, MAX_HANDOVER_SEALS, type TaskHandoverInput, type TaskRow } from '@iotc/shared/transport';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { DIALOG_OVER_DRAWER_Z } from '../../../lib/layers.ts';
import { useHandoverTask } from '../api/task-handover.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

/** The shared schema's limits (taskHandoverSchema). */
const PARTY_MAX = 64;
const PLACE_MAX = 128;
const SEAL_MAX = 32;
const NOTE_MAX = 500;
const TIME_FORMAT = 'YYYY-MM-DD HH:mm';

export type HandoverTarget = Pick<TaskRow, 'id' | 'code'> & Partial<Pick<TaskRow, 'driverName'>>;

interface HandoverValues {
  from?: string;
  to?: string;
  at?: Dayjs | null;
  place?: string;
  seals?: string[];
  temperature?: number | null;
  signed?: boolean;
  note?: string;
}

/** The body the form's values make (blank optional fields left out). */
export function handoverBody(v: HandoverValues): TaskHandoverInput {
  const text = (s: string | undefined) => (s ?? '').trim();
  return {
    from: text(v.from),
    to: text(v.to),
    ...(v.at ? { at: v.at.toISOString() } : {}),
    place: text(v.place),
    seals: (v.seals ?? []).map((s) => s.trim()).filter(Boolean),
    temperature: typeof v.temperature === 'number' ? v.temperature : null,
    signed: !!v.signed,
    note: text(v.note),
  };
}

export function HandoverModal({ task, onClose }: { task: HandoverTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const handover = useHandoverTask();
  const [form] = Form.useForm<HandoverValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, !!task);
  const keys = formKeys(guardedClose);
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);

  useEffect(() => {
    if (task) form.setFieldsValue({ from: task.driverName ?? '', to: '', at: null, place: '', seals: [], temperature: null, signed: false, note: '' });
  }, [task, form]);

  const submit = async () => {
    if (!task || handover.isPending) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    try {
      await handover.mutateAsync({ id: task.id, ...handoverBody(values) });
      void message.success(t('transport.handover.done', { code: task.code }));
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };
  const onEnter = () => void submit();

  const party: FormRule[] = [
    { required: true, whitespace: true, message: errorText('TASK_HANDOVER_PARTY_REQUIRED', lang) },
    { max: PARTY_MAX, message: t('transport.handover.tooLong', { max: PARTY_MAX }) },
  ];
  const seals: FormRule = {
    validator: (_, value: string[] | undefined) => {
      const list = value ?? [];
      if (list.length > MAX_HANDOVER_SEALS) return Promise.reject(new Error(t('transport.handover.sealsTooMany', { max: MAX_HANDOVER_SEALS })));
      if (list.some((s) => s.trim().length > SEAL_MAX)) return Promise.reject(new Error(t('transport.handover.sealTooLong', { max: SEAL_MAX })));
      return Promise.resolve();
    },
  };
  const notFuture: FormRule = {
    validator: (_, value: Dayjs | null | undefined) =>
      value && value.valueOf() > Date.now() + HANDOVER_CLOCK_SKEW_MS ? Promise.reject(new Error(errorText('TASK_HANDOVER_IN_FUTURE', lang))) : Promise.resolve(),
  };

  return (
    <Modal
      open={!!task}
      title={task ? t('transport.handover.title', { code: task.code }) : null}
      className="tt-handover-modal"
      okText={t('transport.task.action.handover')}
      cancelText={t('transport.handover.back')}
      okButtonProps={{ ...{ 'data-testid': 'tt-handover-submit' } }}
      confirmLoading={handover.isPending}
      onOk={onEnter}
      onCancel={guardedClose}
      modalRender={guardedModalRender(keys)}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
      }}
      forceRender
      zIndex={DIALOG_OVER_DRAWER_Z}
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="tt-handover-error" className="reason-dialog-gap" /> : null}
      <Form<HandoverValues> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)} data-testid="tt-handover-form">
        <Form.Item name="from" label={t('transport.handover.from')} required rules={party}>
          <Input id="tt-handover-from" maxLength={PARTY_MAX} autoFocus placeholder={t('transport.handover.fromPlaceholder')} onPressEnter={onEnter} />
        </Form.Item>
        <Form.Item name="to" label={t('transport.handover.to')} required rules={party}>
          <Input id="tt-handover-to" maxLength={PARTY_MAX} placeholder={t('transport.handover.toPlaceholder')} onPressEnter={onEnter} />
        </Form.Item>
        <Form.Item name="at" label={t('transport.handover.at')} extra={t('transport.handover.atHint')} rules={[notFuture]}>
          <DatePicker
            id="tt-handover-at"
            showTime={{ format: 'HH:mm' }}
            format={TIME_FORMAT}
            style={{ width: '100%' }}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            data-testid="tt-handover-at"
          />
        </Form.Item>
        <Form.Item name="place" label={t('transport.handover.place')}>
          <Input id="tt-handover-place" maxLength={PLACE_MAX} onPressEnter={onEnter} />
        </Form.Item>
        <Form.Item name="seals" label={t('transport.handover.seals')} extra={t('transport.handover.sealsHint', { max: MAX_HANDOVER_SEALS })} rules={[seals]}>
          <Select<string[]> id="tt-handover-seals" mode="tags" open={false} suffixIcon={null} tokenSeparators={[',', '，', ' ', ';']} maxCount={MAX_HANDOVER_SEALS} data-testid="tt-handover-seals" />
        </Form.Item>
        <Form.Item name="temperature" label={t('transport.handover.temperature')}>
          <InputNumber id="tt-handover-temperature" min={-100} max={100} step={0.1} suffix="°C" style={{ width: '100%' }} onPressEnter={onEnter} />
        </Form.Item>
        <Form.Item name="signed" valuePropName="checked">
          <Checkbox id="tt-handover-signed" data-testid="tt-handover-signed">
            {t('transport.handover.signed')}
          </Checkbox>
        </Form.Item>
        <Form.Item name="note" label={t('transport.handover.note')}>
          <Input.TextArea
            id="tt-handover-note"
            rows={3}
            maxLength={NOTE_MAX}
            showCount
            onPressEnter={(e) => {
              if (e.ctrlKey || e.metaKey) onEnter();
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

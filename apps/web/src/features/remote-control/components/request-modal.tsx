// "New command": a device of the caller's organisations (searched as one types), the command and
// its own fields (report interval 10-86400 s, set point -40..30 °C, a custom command's name and
// JSON object payload of at most 2 KB, a text message, a terminal control action), and a remark.
// The commands offered are those of the picked device's protocol (a JT/T 808 terminal takes the
// standard's). The request then waits for a reviewer.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, App, Checkbox, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  commandKindsFor,
  MAX_CUSTOM_PAYLOAD_BYTES,
  MAX_TEXT_MESSAGE,
  REPORT_INTERVAL_RANGE,
  SET_POINT_RANGE,
  TERMINAL_CONTROL_ACTIONS,
  type CommandKind,
  type CommandRequestInput,
  type TerminalControlAction,
} from '@iotc/shared/command';
import { errorText } from '@iotc/shared/errors';
import { RemoteSelect } from '../../../components/remote-select.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { useRequestCommand } from '../api/command-request.ts';
import { deviceLabel, searchDeviceRows } from '../../../api/pickers.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

interface RequestValues {
  deviceRef?: string;
  kind: CommandKind;
  seconds?: number;
  celsius?: number;
  name?: string;
  payload?: string;
  text?: string;
  tts?: boolean;
  emergency?: boolean;
  action?: TerminalControlAction;
  remark?: string;
}

/** The payload text as a JSON object, or the error code of what is wrong with it. */
export function parsePayload(text: string | undefined): { ok: true; value: Record<string, unknown> } | { ok: false; code: 'COMMAND_PAYLOAD_OBJECT' | 'COMMAND_PAYLOAD_TOO_LARGE' } {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { ok: false, code: 'COMMAND_PAYLOAD_OBJECT' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, code: 'COMMAND_PAYLOAD_OBJECT' };
  if (new TextEncoder().encode(JSON.stringify(value)).length > MAX_CUSTOM_PAYLOAD_BYTES) return { ok: false, code: 'COMMAND_PAYLOAD_TOO_LARGE' };
  return { ok: true, value: value as Record<string, unknown> };
}

/** The request body of the form's values. */
export function toRequest(v: RequestValues): CommandRequestInput {
  const base = { deviceRef: v.deviceRef!, remark: (v.remark ?? '').trim() };
  switch (v.kind) {
    case 'report_interval':
      return { ...base, kind: 'report_interval', params: { seconds: v.seconds! } };
    case 'set_point':
      return { ...base, kind: 'set_point', params: { celsius: v.celsius! } };
    case 'custom': {
      const payload = parsePayload(v.payload);
      return { ...base, kind: 'custom', params: { name: (v.name ?? '').trim(), payload: payload.ok ? payload.value : {} } };
    }
    case 'text_message':
      return { ...base, kind: 'text_message', params: { text: (v.text ?? '').trim(), tts: !!v.tts, emergency: !!v.emergency } };
    case 'terminal_control':
      return { ...base, kind: 'terminal_control', params: { action: v.action! } };
    default:
      return { ...base, kind: v.kind as 'lock' | 'unlock' | 'reboot' | 'position_query', params: {} };
  }
}

export function RequestModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<RequestValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const kind = Form.useWatch('kind', form) ?? 'report_interval';
  const deviceRef = Form.useWatch('deviceRef', form);
  // The protocols of the devices the picker found, by row id: they decide the commands offered.
  const protocols = useRef(new Map<string, string>());
  const fetcher = useCallback(async (keyword: string, signal: AbortSignal) => {
    const rows = await searchDeviceRows(keyword, signal);
    for (const d of rows) protocols.current.set(d.id, d.protocol);
    return rows.map((d) => ({ value: d.id, label: deviceLabel(d) }));
  }, []);
  const protocol = (deviceRef && protocols.current.get(deviceRef)) || 'json';
  const kinds = commandKindsFor(protocol);
  useEffect(() => {
    if (!kinds.includes(kind)) form.setFieldValue('kind', kinds[0]);
  }, [form, kind, kinds]);
  const create = useRequestCommand();
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    try {
      await create.mutateAsync(toRequest(values));
      void message.success(t('remoteControl.request.done'));
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={open}
      title={t('remoteControl.request.title')}
      okText={t('remoteControl.request.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ ...{ 'data-testid': 'rc-request-submit' } }}
      confirmLoading={create.isPending}
      onOk={() => void submit()}
      onCancel={guardedClose}
      modalRender={guardedModalRender(keys)}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
      }}
      forceRender
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="rc-request-error" style={{ marginBottom: 12 }} /> : null}
      <Form<RequestValues> form={form} layout="vertical" initialValues={{ kind: 'report_interval' }} onValuesChange={() => failure && setFailure(null)}>
        <Form.Item name="deviceRef" label={t('remoteControl.col.device')} required rules={[{ required: true, message: errorText('COMMAND_DEVICE_REQUIRED', lang) }]}>
          <RemoteSelect fetcher={fetcher} placeholder={t('remoteControl.request.devicePlaceholder')} data-testid="rc-request-device" />
        </Form.Item>
        <Form.Item name="kind" label={t('remoteControl.col.command')} required extra={protocol === 'jt808' ? t('remoteControl.request.jt808Hint') : undefined}>
          <Select data-testid="rc-request-kind" options={kinds.map((k) => ({ value: k, label: t(`remoteControl.kind.${k}`) }))} />
        </Form.Item>
        {kind === 'text_message' ? (
          <>
            <Form.Item
              name="text"
              label={t('remoteControl.request.text')}
              required
              rules={[
                { required: true, whitespace: true, message: errorText('COMMAND_TEXT_REQUIRED', lang) },
                { max: MAX_TEXT_MESSAGE, message: errorText('COMMAND_TEXT_TOO_LONG', lang) },
              ]}
            >
              <Input.TextArea id="rc-request-text" rows={3} maxLength={MAX_TEXT_MESSAGE} showCount />
            </Form.Item>
            <Space size="large">
              <Form.Item name="tts" valuePropName="checked">
                <Checkbox id="rc-request-tts">{t('remoteControl.request.tts')}</Checkbox>
              </Form.Item>
              <Form.Item name="emergency" valuePropName="checked">
                <Checkbox id="rc-request-emergency">{t('remoteControl.request.emergency')}</Checkbox>
              </Form.Item>
            </Space>
          </>
        ) : null}
        {kind === 'terminal_control' ? (
          <Form.Item name="action" label={t('remoteControl.request.action')} required rules={[{ required: true, message: errorText('COMMAND_CONTROL_ACTION', lang) }]}>
            <Select id="rc-request-action" data-testid="rc-request-action" options={TERMINAL_CONTROL_ACTIONS.map((a) => ({ value: a, label: t(`remoteControl.control.${a}`) }))} />
          </Form.Item>
        ) : null}
        {kind === 'report_interval' ? (
          <Form.Item
            name="seconds"
            label={t('remoteControl.request.seconds')}
            required
            rules={[{ required: true, type: 'integer', min: REPORT_INTERVAL_RANGE.min, max: REPORT_INTERVAL_RANGE.max, message: errorText('COMMAND_INTERVAL_RANGE', lang) }]}
          >
            <InputNumber id="rc-request-seconds" style={{ width: '100%' }} precision={0} suffix={t('remoteControl.request.secondsUnit')} />
          </Form.Item>
        ) : null}
        {kind === 'set_point' ? (
          <Form.Item
            name="celsius"
            label={t('remoteControl.request.celsius')}
            required
            rules={[{ required: true, type: 'number', min: SET_POINT_RANGE.min, max: SET_POINT_RANGE.max, message: errorText('COMMAND_SET_POINT_RANGE', lang) }]}
          >
            <InputNumber id="rc-request-celsius" style={{ width: '100%' }} step={0.5} suffix="°C" />
          </Form.Item>
        ) : null}
        {kind === 'custom' ? (
          <>
            <Form.Item
              name="name"
              label={t('remoteControl.request.name')}
              required
              rules={[
                { required: true, whitespace: true, message: errorText('COMMAND_NAME_REQUIRED', lang) },
                { max: 64, message: errorText('COMMAND_NAME_TOO_LONG', lang) },
              ]}
            >
              <Input id="rc-request-name" maxLength={64} />
            </Form.Item>
            <Form.Item
              name="payload"
              label={t('remoteControl.request.payload')}
              extra={t('remoteControl.request.payloadHint')}
              rules={[
                {
                  validator: async (_rule, value: string | undefined) => {
                    const parsed = parsePayload(value);
                    if (!parsed.ok) throw new Error(errorText(parsed.code, lang));
                  },
                },
              ]}
            >
              <Input.TextArea id="rc-request-payload" rows={4} placeholder='{"key": "value"}' />
            </Form.Item>
          </>
        ) : null}
        <Form.Item name="remark" label={t('remoteControl.request.remark')}>
          <Input.TextArea id="rc-request-remark" rows={2} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// A new device (device id, name, model, protocol, SIM, firmware, owning organisation) or a
// device's details; the id and the organisation are fixed once registered. Each field is checked
// by the shared schema the server uses; a taken id is shown on its field. A new device's secret
// comes back once and is handed to the caller to show.
import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { deviceCreateBodySchema, JT808_DEVICE_ID_PATTERN, type DeviceProtocol, type DeviceWithSecret } from '@iotc/shared/device';
import { errorText } from '@iotc/shared/errors';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { blankToUndefined, useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import type { DeviceView } from '../api/devices.ts';
import { useCreateDevice, useUpdateDevice } from '../api/device-save.ts';
import { OrgSelect, useOrgChoice } from '../../../components/org-select.tsx';
import { PROTOCOL_OPTIONS } from './protocols.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

export type DeviceFormTarget = { mode: 'create' } | { mode: 'edit'; row: DeviceView };

interface DeviceFormValues {
  deviceId: string;
  name: string;
  model: string;
  protocol: string;
  sim: string;
  firmware: string;
  orgId?: string;
}

const EMPTY: DeviceFormValues = { deviceId: '', name: '', model: '', protocol: 'json', sim: '', firmware: '', orgId: undefined };
const fields = deviceCreateBodySchema.shape;

export interface DeviceFormModalProps {
  target: DeviceFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  /** A device was registered: the answer carries its secret, to show once. */
  onCreated: (device: DeviceWithSecret) => void;
}

export function DeviceFormModal({ target, open, onClose, afterClose, onCreated }: DeviceFormModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<DeviceFormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const create = useCreateDevice();
  const update = useUpdateDevice();
  const [failure, setFailure] = useState<string | null>(null);
  const orgChoice = useOrgChoice();
  useRevalidateOnLanguage(form);
  const creating = target?.mode === 'create';
  const editing = target?.mode === 'edit' ? target.row : undefined;
  const jt808 = Form.useWatch('protocol', form) === 'jt808';

  // The form stays mounted (forceRender), so its instance is always connected; each opening fills it.
  useEffect(() => {
    if (!open || !target) return;
    if (target.mode === 'create') form.setFieldsValue(EMPTY);
    else {
      const r = target.row;
      form.setFieldsValue({ ...EMPTY, name: r.name, model: r.model ?? '', protocol: r.protocol ?? 'json', sim: r.sim ?? '', firmware: r.firmware ?? '' });
    }
  }, [open, target, form]);

  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    const details = {
      name: values.name.trim(),
      model: blankToUndefined(values.model),
      protocol: blankToUndefined(values.protocol) as DeviceProtocol | undefined,
      sim: blankToUndefined(values.sim),
      firmware: blankToUndefined(values.firmware),
    };
    try {
      if (target.mode === 'create') {
        const device = await create.mutateAsync({ deviceId: values.deviceId.trim(), ...details, orgId: values.orgId || undefined });
        onClose();
        onCreated(device);
      } else {
        await update.mutateAsync({ id: target.row.id, ...details });
        onClose();
      }
    } catch (error) {
      const code = apiErrorCode(error);
      if (code === 'JT808_DEVICE_ID_FORMAT' && target.mode === 'edit') form.setFields([{ name: 'protocol', errors: [errorText(code, lang)] }]);
      else if (code === 'DEVICE_ID_TAKEN' || code === 'DEVICE_ID_FORMAT' || code === 'JT808_DEVICE_ID_FORMAT') form.setFields([{ name: 'deviceId', errors: [errorText(code, lang)] }]);
      else if (code === 'NAME_REQUIRED') form.setFields([{ name: 'name', errors: [errorText(code, lang)] }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={open}
      title={creating ? t('asset.device.newTitle') : t('asset.device.editTitle')}
      className="device-form-modal"
      width={640}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ id: 'device-form-submit' }}
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
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" className="asset-gap" /> : null}
      <Form<DeviceFormValues> form={form} name="device-form" layout="vertical" onFinish={() => void submit()} onValuesChange={() => failure && setFailure(null)}>
        <div className="asset-form-grid">
          {editing ? (
            <>
              <Form.Item label={t('asset.device.deviceId')}>
                <Input value={editing.deviceId} disabled />
              </Form.Item>
              <Form.Item label={t('asset.org')}>
                <Input value={editing.orgName} disabled />
              </Form.Item>
            </>
          ) : (
            <Form.Item
              name="deviceId"
              label={t('asset.device.deviceId')}
              required
              extra={t(jt808 ? 'asset.device.deviceIdHintJt808' : 'asset.device.deviceIdHint')}
              dependencies={['protocol']}
              validateFirst
              rules={[
                schemaRule(fields.deviceId, lang, 'DEVICE_ID_FORMAT'),
                ({ getFieldValue }) => ({
                  validator: async (_rule, value: string | undefined) => {
                    if (getFieldValue('protocol') === 'jt808' && value && !JT808_DEVICE_ID_PATTERN.test(value.trim())) throw new Error(errorText('JT808_DEVICE_ID_FORMAT', lang));
                  },
                }),
              ]}
            >
              <Input maxLength={40} autoComplete="off" />
            </Form.Item>
          )}
          <Form.Item name="name" label={t('asset.device.name')} required rules={[schemaRule(fields.name, lang, 'NAME_REQUIRED')]}>
            <Input maxLength={100} autoComplete="off" />
          </Form.Item>
          {creating && orgChoice ? (
            <Form.Item name="orgId" label={t('asset.org')}>
              <OrgSelect allowClear placeholder={t('asset.orgDefault')} />
            </Form.Item>
          ) : null}
          <Form.Item name="model" label={t('asset.device.model')} rules={[schemaRule(fields.model, lang)]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
          <Form.Item name="protocol" label={t('asset.device.protocol')} extra={jt808 ? t('asset.device.protocolJt808Hint') : t('asset.device.protocolJsonHint')}>
            <Select data-testid="device-protocol-select" options={PROTOCOL_OPTIONS.map((o) => ({ value: o.value, label: t(o.label) }))} />
          </Form.Item>
          <Form.Item name="sim" label={t('asset.device.sim')} rules={[schemaRule(fields.sim, lang)]}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
          <Form.Item name="firmware" label={t('asset.device.firmware')} rules={[schemaRule(fields.firmware, lang)]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </div>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

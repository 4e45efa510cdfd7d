// The create / edit form of a transport task, in a drawer of sections: goods, customer and carrier,
// devices (the first is the main one), the places and route (picked on a map), planned times,
// driver and contacts, then the settings shared with templates (ranges, alarms, recipients,
// recognition) and a remark. Checked by the shared schema the server parses the body with; a
// server refusal naming a field shows on it, any other in the user's language above the form.
// Enter in a one-line field submits; Esc closes.
import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, DatePicker, Drawer, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import { taskBodySchema, type TaskDetail, type TaskRow } from '@iotc/shared/transport';
import { OrgSelect, useOrgChoice } from '../../../components/org-select.tsx';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { useInfo } from '../../../api/info.ts';
import { formKeys, typedDateTimeFormats, useGuardedClose } from '../../../components/form-guard.ts';
import { DIALOG_OVER_DRAWER_Z } from '../../../lib/layers.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { driverOf, type CarrierKind } from '../api/carrier-options.ts';
import type { AssetRow } from '@iotc/shared/asset';
import { assetLabel, deviceLabel } from '../../../api/pickers.ts';
import { useCreateTask } from '../api/task-create.ts';
import { useUpdateTask } from '../api/task-update.ts';
import { useSetTaskBatches, useTaskBatches } from '../api/task-batches.ts';
import { useTaskProfileOptions } from '../api/task-profiles.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { AlarmSection, ContactList, DetectionSection, PlacesSection, RangesSection, RecipientsSection, Section } from './settings-sections.tsx';
import { CarrierField, DevicesSelect } from './task-pickers.tsx';
import { newTaskValues, schemaIssues, SERVER_ERROR_FIELDS, taskInput, taskValuesFromRow, type TaskFormValues } from './task-model.ts';

export type TaskFormTarget =
  | { mode: 'create'; values?: TaskFormValues; templateName?: string }
  | { mode: 'edit'; row: TaskRow };

const TIME_FORMAT = 'YYYY-MM-DD HH:mm';
/** Shown as TIME_FORMAT; typed in any usual way (with seconds, '/', ISO 'T'). */
const PICKER_FORMATS = typedDateTimeFormats(TIME_FORMAT);
export const FORM_WIDTH = 880;
const shape = taskBodySchema.shape;

export interface TaskFormDrawerProps {
  target: TaskFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  onSaved?: (task: TaskDetail) => void;
  /** The form's name, the prefix of its field ids: unique on the page. */
  formName: string;
}

export function TaskFormDrawer({ target, open, onClose, afterClose, onSaved, formName }: TaskFormDrawerProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<TaskFormValues>();
  const create = useCreateTask();
  const update = useUpdateTask();
  const setBatches = useSetTaskBatches();
  const orgChoice = useOrgChoice();
  const [failure, setFailure] = useState<string | null>(null);
  const [opening, setOpening] = useState(0);
  const carrierKind = (Form.useWatch('carrierKind', form) ?? 'vehicle') as CarrierKind;
  useRevalidateOnLanguage(form);
  const editing = target?.mode === 'edit' ? target.row : null;
  // The batches the task carries (not part of the task's body: written after it is saved).
  const batches = useTaskBatches(open ? (editing?.id ?? null) : null);
  // The product profiles to pick from (issue 27 item 3); without product:read only the task's own is shown.
  const can = usePermission();
  const canReadProfiles = can('product:read');
  const profiles = useTaskProfileOptions(open && canReadProfiles);
  const profileOptions = useMemo(() => {
    const rows = (profiles.data?.rows ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.lowC} ~ ${p.highC} °C)` }));
    const own = editing?.profile;
    return own && !rows.some((o) => o.value === own.id) ? [{ value: own.id, label: own.name }, ...rows] : rows;
  }, [profiles.data, editing]);
  const guardedClose = useGuardedClose(form, onClose, open);
  const { data: me } = useInfo();
  // The organisation the task is for: the one picked, the edited task's, else the caller's.
  const orgId = (Form.useWatch('orgId', form) as string | undefined) || editing?.orgId || me?.orgId;

  // The devices a picked carrier brought along join the known ones (their labels, before any search).
  const [carrierDevices, setCarrierDevices] = useState<RemoteOption[]>([]);
  const knownDevices = useMemo((): RemoteOption[] => [...(editing?.devices ?? []).map((d) => ({ value: d.id, label: deviceLabel(d) })), ...carrierDevices], [editing, carrierDevices]);
  /** Picking the vehicle or container fills in what follows and is still empty: its bound trackers, its driver. */
  const carrierPicked = (carrier: AssetRow | undefined) => {
    if (!carrier) return;
    const devices = form.getFieldValue('deviceIds') as string[] | undefined;
    if (!devices?.length && carrier.devices.length) {
      setCarrierDevices(carrier.devices.map((d) => ({ value: d.id, label: deviceLabel(d) })));
      form.setFieldValue('deviceIds', carrier.devices.map((d) => d.id));
      void form.validateFields(['deviceIds']).catch(() => undefined);
    }
    const driver = driverOf(carrier);
    if (driver.name && !form.getFieldValue('driverName')) form.setFieldValue('driverName', driver.name);
    if (driver.phone && !form.getFieldValue('driverPhone')) form.setFieldValue('driverPhone', driver.phone);
  };
  const knownCarrier = useMemo((): RemoteOption[] => (editing?.asset ? [{ value: editing.asset.id, label: assetLabel(editing.asset) }] : []), [editing]);

  // The drawer stays mounted (forceRender); each opening fills it.
  useEffect(() => {
    if (!open || !target) return;
    setOpening((n) => n + 1);
    setFailure(null);
    setCarrierDevices([]);
    form.resetFields();
    form.setFieldsValue(target.mode === 'edit' ? taskValuesFromRow(target.row) : (target.values ?? newTaskValues()));
  }, [open, target, form]);
  useEffect(() => {
    if (open && batches.data) form.setFieldValue('batchNos' as never, batches.data.map((b) => b.batchNo) as never);
  }, [open, batches.data, form]);

  const showErrors = (fields: { name: (string | number)[]; code: ErrorCode }[]) => {
    form.setFields(fields.map((f) => ({ name: f.name as never, errors: [errorText(f.code, lang)] })));
    const first = fields[0];
    if (first) form.scrollToField(first.name as never, { block: 'center' });
  };

  const submit = async () => {
    if (!target) return;
    const ok = await form.validateFields().then(
      () => true,
      (e: { errorFields?: { name: (string | number)[] }[] }) => {
        const first = e.errorFields?.[0];
        if (first) form.scrollToField(first.name as never, { block: 'center' });
        return false;
      },
    );
    if (!ok) return;
    setFailure(null);
    const values = { ...newTaskValues(), ...form.getFieldsValue(true) } as TaskFormValues;
    const parsed = taskBodySchema.safeParse(taskInput(values));
    if (!parsed.success) {
      showErrors(schemaIssues(parsed.error));
      return;
    }
    try {
      let task: TaskDetail;
      if (target.mode === 'create') {
        task = await create.mutateAsync(parsed.data);
        void message.success(t('transport.task.created', { code: task.code }));
      } else {
        task = await update.mutateAsync({ id: target.row.id, body: parsed.data });
        void message.success(t('transport.task.saved', { code: task.code }));
      }
      const batchNos = (form.getFieldValue('batchNos' as never) as string[] | undefined) ?? [];
      if (batchNos.length || (batches.data?.length ?? 0) > 0) {
        try {
          await setBatches.mutateAsync({ taskId: task.id, batchNos, goodsName: task.goodsName });
        } catch (error) {
          void message.error({ content: apiErrorText(error, lang), className: 'action-error' });
        }
      }
      onClose();
      onSaved?.(task);
    } catch (error) {
      const code = apiErrorCode(error);
      const field = code ? SERVER_ERROR_FIELDS[code] : undefined;
      if (code && field) showErrors([{ name: field, code }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  const arrivalAfterStart = {
    validator: (_rule: unknown, value: Dayjs | null | undefined) => {
      const start = form.getFieldValue('plannedStart') as Dayjs | null | undefined;
      if (!value || !start || value.isAfter(start)) return Promise.resolve();
      return Promise.reject(new Error(errorText('TASK_ARRIVAL_BEFORE_START', lang)));
    },
  };
  const devicesRule = {
    validator: (_rule: unknown, value: string[] | undefined) =>
      value?.length ? Promise.resolve() : Promise.reject(new Error(errorText('TASK_DEVICES_REQUIRED', lang))),
  };

  let title = t('transport.task.newTitle');
  if (editing) title = t('transport.task.editTitle', { code: editing.code });
  else if (target?.mode === 'create' && target.templateName) title = t('transport.task.newFromTemplateTitle', { name: target.templateName });

  return (
    <Drawer
      open={open}
      size={FORM_WIDTH}
      title={title}
      className="tt-form-drawer"
      data-testid={`${formName}-drawer`}
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
      zIndex={DIALOG_OVER_DRAWER_Z}
      footer={
        <Space className="tt-form-footer">
          <Button onClick={guardedClose} data-testid={`${formName}-cancel`}>
            {t('common.cancel')}
          </Button>
          <Button type="primary" loading={create.isPending || update.isPending} onClick={() => void submit()} data-testid={`${formName}-submit`}>
            {editing ? t('transport.form.save') : t('transport.form.create')}
          </Button>
        </Space>
      }
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid={`${formName}-error`} className="tt-gap" /> : null}
      <Form<TaskFormValues> form={form} name={formName} layout="vertical" onFinish={() => void submit()} onValuesChange={() => failure && setFailure(null)} scrollToFirstError>
        <Form.Item name="templateId" hidden>
          <Input />
        </Form.Item>
        <Section title={t('transport.section.goods')} testId={`${formName}-goods`}>
          {!editing && orgChoice ? (
            <Form.Item name="orgId" label={t('transport.form.org')}>
              <OrgSelect allowClear placeholder={t('transport.form.orgDefault')} />
            </Form.Item>
          ) : null}
          <div className="tt-grid tt-grid-3">
            <Form.Item name="goodsName" label={t('transport.task.goodsName')} required rules={[schemaRule(shape.goodsName, lang)]}>
              <Input maxLength={100} autoComplete="off" autoFocus />
            </Form.Item>
            <Form.Item name="goodsQuantity" label={t('transport.task.goodsQuantity')}>
              <InputNumber min={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="goodsUnit" label={t('transport.task.goodsUnit')}>
              <Input maxLength={20} autoComplete="off" />
            </Form.Item>
          </div>
          <div className="tt-grid tt-grid-3">
            <Form.Item name="goodsValue" label={t('transport.task.goodsValue')}>
              <InputNumber min={0} prefix="¥" style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="highValue" label={t('transport.task.highValue')} valuePropName="checked">
              <Switch data-testid={`${formName}-high-value`} />
            </Form.Item>
            <Form.Item name="customer" label={t('transport.task.customer')}>
              <Input maxLength={100} autoComplete="off" />
            </Form.Item>
          </div>
          <div className="tt-grid tt-grid-2">
            <Form.Item name="profileId" label={t('transport.task.profile')} extra={t('transport.task.profileHint')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                disabled={!canReadProfiles}
                loading={profiles.isLoading}
                placeholder={t('transport.task.profilePlaceholder')}
                options={profileOptions}
                data-testid={`${formName}-profile`}
              />
            </Form.Item>
            <Form.Item name="batchNos" label={t('transport.task.batches')} extra={t('transport.task.batchesHint')}>
              <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} placeholder={t('transport.task.batchesPlaceholder')} data-testid={`${formName}-batches`} />
            </Form.Item>
          </div>
        </Section>
        <Section title={t('transport.section.carrier')}>
          <Form.Item name="carrierKind" hidden>
            <Input />
          </Form.Item>
          <Form.Item name="assetId" label={t('transport.task.carrier')}>
            <CarrierField key={`carrier-${opening}`} kind={carrierKind} onKindChange={(k) => form.setFieldValue('carrierKind', k)} known={knownCarrier} onPicked={carrierPicked} />
          </Form.Item>
          <Form.Item name="deviceIds" label={t('transport.task.devices')} required rules={[devicesRule]} extra={t('transport.task.devicesHint')}>
            <DevicesSelect key={`devices-${opening}`} known={knownDevices} data-testid={`${formName}-devices`} />
          </Form.Item>
        </Section>
        <PlacesSection form={form} formName={formName} key={`places-${opening}`} />
        <Section title={t('transport.section.schedule')}>
          <div className="tt-grid tt-grid-2">
            <Form.Item name="plannedStart" label={t('transport.task.plannedStart')}>
              <DatePicker showTime={{ format: 'HH:mm' }} format={PICKER_FORMATS} style={{ width: '100%' }} data-testid={`${formName}-planned-start`} />
            </Form.Item>
            <Form.Item name="plannedArrival" label={t('transport.task.plannedArrival')} dependencies={['plannedStart']} rules={[arrivalAfterStart]}>
              <DatePicker showTime={{ format: 'HH:mm' }} format={PICKER_FORMATS} style={{ width: '100%' }} data-testid={`${formName}-planned-arrival`} />
            </Form.Item>
          </div>
          <div className="tt-grid tt-grid-2">
            <Form.Item name="driverName" label={t('transport.task.driverName')}>
              <Input maxLength={50} autoComplete="off" />
            </Form.Item>
            <Form.Item name="driverPhone" label={t('transport.task.driverPhone')}>
              <Input maxLength={30} autoComplete="off" />
            </Form.Item>
          </div>
          <Form.Item label={t('transport.task.contacts')}>
            <ContactList name="contacts" testId={`${formName}-contacts`} addText={t('transport.contact.addContact')} />
          </Form.Item>
        </Section>
        <RangesSection form={form} />
        <AlarmSection form={form} formName={formName} orgId={orgId} />
        <RecipientsSection formName={formName} />
        <DetectionSection />
        <Section title={t('transport.section.remark')}>
          <Form.Item name="remark" aria-label={t('transport.task.remark')}>
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </Section>
        <button type="submit" hidden />
      </Form>
    </Drawer>
  );
}

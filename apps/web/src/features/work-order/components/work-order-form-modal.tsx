// The create / edit form of a work order: title, description, priority, assignee (searched on
// the server as the user types), due time and, for a new order of a user who sees several
// organisations, its organisation. Fields are checked by the shared schema the server parses the
// body with, so the form and the server's refusal read alike; a refusal naming a field shows on
// it. Enter in a one-line field submits, Esc cancels.
import { useEffect, useRef, useState } from 'react';
import { Alert, App, DatePicker, Form, Input, Modal, Select, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { errorText } from '@iotc/shared/errors';
import {
  WORK_ORDER_PRIORITIES,
  workOrderCreateSchema,
  workOrderUpdateSchema,
  type WorkOrderPriority,
  type WorkOrderRow,
} from '@iotc/shared/work-order';
import { AssigneeSelect } from '../../../components/assignee-select.tsx';
import { OrgSelect, useOrgChoice } from '../../../components/org-select.tsx';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useCreateWorkOrder } from '../api/work-order-create.ts';
import { useUpdateWorkOrder } from '../api/work-order-update.ts';
import { personText } from './work-order-model.ts';
import { DIALOG_OVER_DRAWER_Z } from '../../../lib/layers.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

export type WorkOrderFormTarget = { mode: 'create' } | { mode: 'edit'; row: WorkOrderRow };

export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 2000;
const DUE_FORMAT = 'YYYY-MM-DD HH:mm';

interface FormValues {
  orgId?: string;
  title: string;
  description: string;
  priority: WorkOrderPriority;
  assigneeId: string | null;
  dueAt: Dayjs | null;
}

const NEW_ORDER: FormValues = { title: '', description: '', priority: 'medium', assigneeId: null, dueAt: null };

/** Days before today cannot be picked as a due day. */
export function beforeToday(day: Dayjs): boolean {
  return day.isBefore(dayjs().startOf('day'));
}

export interface WorkOrderFormModalProps {
  target: WorkOrderFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  /** After a create or save went through, with the server's row. */
  onSaved?: (row: WorkOrderRow) => void;
  /** The form's name, the prefix of its field ids: unique on the page (the list's form and the drawer's may both be mounted). */
  formName: string;
}

export function WorkOrderFormModal({ target, open, onClose, afterClose, onSaved, formName }: WorkOrderFormModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const create = useCreateWorkOrder();
  const update = useUpdateWorkOrder();
  const orgChoice = useOrgChoice();
  const [failure, setFailure] = useState<string | null>(null);
  // Each opening gets a fresh assignee picker, so it knows the current assignee's name.
  const [opening, setOpening] = useState(0);
  const titleRef = useRef<InputRef>(null);
  const orgId = Form.useWatch('orgId', form);
  useRevalidateOnLanguage(form);
  const creating = target?.mode === 'create';
  const editing = target?.mode === 'edit' ? target.row : null;

  // The form stays mounted (forceRender); each opening fills it.
  useEffect(() => {
    if (!open || !target) return;
    setOpening((n) => n + 1);
    form.resetFields();
    if (target.mode === 'create') form.setFieldsValue(NEW_ORDER);
    else {
      const r = target.row;
      form.setFieldsValue({ title: r.title, description: r.description, priority: r.priority, assigneeId: r.assignee?.id ?? null, dueAt: r.dueAt ? dayjs(r.dueAt) : null });
    }
  }, [open, target, form]);

  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    const fields = {
      title: values.title,
      description: values.description ?? '',
      priority: values.priority,
      assigneeId: values.assigneeId ?? null,
      dueAt: values.dueAt ? values.dueAt.toISOString() : null,
    };
    try {
      let row: WorkOrderRow;
      if (target.mode === 'create') {
        const parsed = workOrderCreateSchema.safeParse({ ...fields, orgId: values.orgId ?? null, alarmIds: [] });
        if (!parsed.success) throw parsed.error;
        row = await create.mutateAsync(parsed.data);
        void message.success(t('workOrder.form.created', { code: row.code }));
      } else {
        const parsed = workOrderUpdateSchema.safeParse(fields);
        if (!parsed.success) throw parsed.error;
        row = await update.mutateAsync({ id: target.row.id, body: parsed.data });
        void message.success(t('workOrder.form.saved'));
      }
      onClose();
      onSaved?.(row);
    } catch (error) {
      const code = apiErrorCode(error);
      if (code === 'WORK_ORDER_TITLE_REQUIRED' || code === 'WORK_ORDER_TITLE_TOO_LONG') form.setFields([{ name: 'title', errors: [errorText(code, lang)] }]);
      else if (code === 'ASSIGNEE_UNKNOWN') form.setFields([{ name: 'assigneeId', errors: [errorText(code, lang)] }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={open}
      title={creating ? t('workOrder.form.newTitle') : t('workOrder.form.editTitle')}
      className="wo-form-modal"
      width={640}
      okText={creating ? t('workOrder.form.create') : t('workOrder.form.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ ...{ 'data-testid': 'wo-form-submit' } }}
      confirmLoading={create.isPending || update.isPending}
      onOk={() => void submit()}
      onCancel={guardedClose}
      modalRender={guardedModalRender(keys)}
      afterOpenChange={(visible) => {
        if (visible) titleRef.current?.focus();
      }}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
        afterClose();
      }}
      forceRender
      zIndex={DIALOG_OVER_DRAWER_Z}
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="wo-form-error" className="wo-gap" /> : null}
      <Form<FormValues>
        form={form}
        name={formName}
        layout="vertical"
        onFinish={() => void submit()}
        onValuesChange={(changed: Partial<FormValues>) => {
          if (failure) setFailure(null);
          // Another organisation has other people: the assignee is picked again.
          if ('orgId' in changed) form.setFieldValue('assigneeId', null);
        }}
      >
        {creating && orgChoice ? (
          <Form.Item name="orgId" label={t('workOrder.form.org')}>
            <OrgSelect allowClear placeholder={t('workOrder.form.orgDefault')} />
          </Form.Item>
        ) : null}
        {editing ? (
          <Form.Item label={t('workOrder.col.code')}>
            <Input value={`${editing.code} · ${editing.orgName}`} disabled />
          </Form.Item>
        ) : null}
        <Form.Item name="title" label={t('workOrder.form.title')} required rules={[schemaRule(workOrderCreateSchema.shape.title, lang)]}>
          <Input ref={titleRef} maxLength={TITLE_MAX} showCount autoComplete="off" placeholder={t('workOrder.form.titlePlaceholder')} data-testid="wo-field-title" />
        </Form.Item>
        <div className="wo-form-grid">
          <Form.Item name="priority" label={t('workOrder.form.priority')} required>
            <Select data-testid="wo-field-priority" options={WORK_ORDER_PRIORITIES.map((p) => ({ value: p, label: t(`workOrder.priority.${p}`) }))} />
          </Form.Item>
          <Form.Item name="dueAt" label={t('workOrder.form.dueAt')}>
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format={DUE_FORMAT}
              disabledDate={beforeToday}
              placeholder={t('workOrder.form.duePlaceholder')}
              style={{ width: '100%' }}
              data-testid="wo-field-due"
            />
          </Form.Item>
        </div>
        <Form.Item name="assigneeId" label={t('workOrder.form.assignee')}>
          <AssigneeSelect key={opening} orgId={orgId} currentLabel={editing?.assignee ? personText(editing.assignee) : undefined} data-testid="wo-field-assignee" />
        </Form.Item>
        <Form.Item name="description" label={t('workOrder.form.description')}>
          <Input.TextArea rows={4} maxLength={DESCRIPTION_MAX} showCount placeholder={t('workOrder.form.descriptionPlaceholder')} data-testid="wo-field-description" />
        </Form.Item>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

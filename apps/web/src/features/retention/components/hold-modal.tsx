// Placing a legal hold: the kind of subject (organisation, device or transport task), the subject
// picked from the caller's tree, and the reason (required).
import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { legalHoldBodySchema, type LegalHoldKind } from '@iotc/shared/retention';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { OrgSelect } from '../../../components/org-select.tsx';
import { DevicePicker } from '../../../components/device-picker.tsx';
import { TaskPicker } from '../../../components/task-picker.tsx';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';
import { usePlaceLegalHold } from '../api/legal-hold-place.ts';

interface HoldFormValues {
  subjectKind: LegalHoldKind;
  subjectId?: string;
  reason: string;
}

export interface HoldModalProps {
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
  onPlaced: () => void;
}

export function HoldModal({ open, onClose, afterClose, onPlaced }: HoldModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<HoldFormValues>();
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const place = usePlaceLegalHold();
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);
  const kind = Form.useWatch('subjectKind', form);

  useEffect(() => {
    if (open) form.setFieldsValue({ subjectKind: 'org', subjectId: undefined, reason: '' });
  }, [open, form]);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v || !v.subjectId) return;
    setFailure(null);
    try {
      await place.mutateAsync({ subjectKind: v.subjectKind, subjectId: v.subjectId, reason: v.reason.trim() });
      onPlaced();
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  const required = [{ required: true, message: t('retention.hold.subjectRequired') }];
  return (
    <Modal
      open={open}
      title={t('retention.hold.placeTitle')}
      className="retention-hold-modal"
      okText={t('retention.hold.place')}
      cancelText={t('common.cancel')}
      okButtonProps={{ id: 'retention-hold-submit' }}
      confirmLoading={place.isPending}
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
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" style={{ marginBottom: 16 }} /> : null}
      <Form<HoldFormValues>
        form={form}
        layout="vertical"
        onValuesChange={(changed: Partial<HoldFormValues>) => {
          if (failure) setFailure(null);
          // Another kind of subject: the picked one no longer fits.
          if (changed.subjectKind) form.setFieldsValue({ subjectId: undefined });
        }}
      >
        <Form.Item name="subjectKind" label={t('retention.hold.subjectKind')} required>
          <Radio.Group
            data-testid="retention-hold-kind"
            options={[
              { value: 'org', label: t('retention.hold.kind.org') },
              { value: 'device', label: t('retention.hold.kind.device') },
              { value: 'task', label: t('retention.hold.kind.task') },
            ]}
          />
        </Form.Item>
        <Form.Item name="subjectId" label={t('retention.hold.subject')} required rules={required} key={kind}>
          {kind === 'device' ? (
            <DevicePicker placeholder={t('retention.hold.searchDevice')} data-testid="retention-hold-device" />
          ) : kind === 'task' ? (
            <TaskPicker placeholder={t('retention.hold.searchTask')} data-testid="retention-hold-task" />
          ) : (
            <OrgSelect placeholder={t('retention.hold.pickOrg')} />
          )}
        </Form.Item>
        <Form.Item name="reason" label={t('retention.hold.reason')} required rules={[schemaRule(legalHoldBodySchema.shape.reason, lang)]}>
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="retention-hold-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// A batch made or changed (number, goods, profile), or a batch added to a transport task (the task
// picked; a new number is made in the task's organisation). Checked with the shared schema.
import { useEffect, useState } from 'react';
import { Alert, App, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText, isErrorCode } from '@iotc/shared/errors';
import { batchBodySchema, type BatchRow } from '@iotc/shared/product';
import { TaskPicker } from '../../../components/task-picker.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useAddToTask, useSaveBatch } from '../api/batches.ts';
import { useProfileOptions } from '../api/profiles.ts';

export type BatchFormTarget = { mode: 'create' } | { mode: 'edit'; row: BatchRow } | { mode: 'task'; row?: BatchRow };

interface Values {
  taskId?: string;
  batchNo: string;
  goodsName: string;
  profileId?: string | null;
}

export function BatchFormModal({ target, open, onClose, afterClose }: { target: BatchFormTarget | null; open: boolean; onClose: () => void; afterClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSaveBatch();
  const add = useAddToTask();
  const profiles = useProfileOptions();
  const [failure, setFailure] = useState<string | null>(null);
  const row = target && target.mode !== 'create' ? (target.row ?? null) : null;

  useEffect(() => {
    if (!open || !target) return;
    setFailure(null);
    form.resetFields();
    form.setFieldsValue(row ? { batchNo: row.batchNo, goodsName: row.goodsName, profileId: row.profile?.id ?? null } : { batchNo: '', goodsName: '', profileId: null });
  }, [open, target, row, form]);

  const submit = async () => {
    const v = form.getFieldsValue(true) as Values;
    const parsed = batchBodySchema.safeParse({ batchNo: v.batchNo ?? '', goodsName: v.goodsName ?? '', profileId: v.profileId ?? null });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setFailure(isErrorCode(issue.message) ? errorText(issue.message, lang) : issue.message);
      return;
    }
    try {
      if (target?.mode === 'task') {
        if (!v.taskId) {
          setFailure(t('product.batch.taskRequired'));
          return;
        }
        await add.mutateAsync({ taskId: v.taskId, ...parsed.data });
        void message.success(t('product.batch.added', { batchNo: parsed.data.batchNo }));
      } else {
        await save.mutateAsync({ id: row?.id ?? null, body: parsed.data });
        void message.success(t('product.batch.saved', { batchNo: parsed.data.batchNo }));
      }
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  const title = target?.mode === 'task' ? t('product.batch.addToTask') : row ? t('product.batch.editTitle', { batchNo: row.batchNo }) : t('product.batch.newTitle');
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('product.save')}
      confirmLoading={save.isPending || add.isPending}
      afterOpenChange={(visible) => {
        if (!visible) afterClose();
      }}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'batch-submit' } as Record<`data-${string}`, string>}
      data-testid="batch-modal"
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="batch-error" style={{ marginBottom: 12 }} /> : null}
      <Form<Values> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
        {target?.mode === 'task' ? (
          <Form.Item name="taskId" label={t('product.batch.task')} required>
            <TaskPicker placeholder={t('product.batch.taskPlaceholder')} data-testid="batch-task" />
          </Form.Item>
        ) : null}
        <Form.Item name="batchNo" label={t('product.batch.batchNo')} required>
          <Input maxLength={64} autoComplete="off" disabled={target?.mode === 'task' && !!row} data-testid="batch-no" />
        </Form.Item>
        <Form.Item name="goodsName" label={t('product.batch.goods')}>
          <Input maxLength={100} autoComplete="off" data-testid="batch-goods" />
        </Form.Item>
        <Form.Item name="profileId" label={t('product.batch.profile')}>
          <Select
            allowClear
            loading={profiles.isLoading}
            placeholder={t('product.batch.profilePlaceholder')}
            options={(profiles.data?.rows ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.lowC} ~ ${p.highC} °C)` }))}
            data-testid="batch-profile"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

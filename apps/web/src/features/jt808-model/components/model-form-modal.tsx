// The create / edit form of a terminal model's item mapping: the model as the terminal registers
// it, a note, and one row per mapped item (item id, binary layout, byte offset, sensor channel,
// probe). Each problem the shared schema finds is shown on its field; Enter submits, Tab walks the
// rows, and a row is added or removed with a button.
import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Modal, Select } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorText, isErrorCode } from '@iotc/shared/errors';
import { ITEM_CHANNELS, ITEM_LAYOUTS, MAX_MODEL_ITEMS, modelBodySchema, type ModelInput, type ModelRow } from '@iotc/shared/jt808-models';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useSaveModel } from '../api/model-save.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

export type ModelFormTarget = { mode: 'create' } | { mode: 'edit'; row: ModelRow };

type FormValues = ModelInput;
const NEW_ITEM = { id: '0x51', layout: 'sm16/10', offset: 0, channel: 'temperature', probe: 1 } as const;

export interface ModelFormModalProps {
  target: ModelFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function ModelFormModal({ target, open, onClose, afterClose }: ModelFormModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<FormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const save = useSaveModel();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!open || !target) return;
    form.resetFields();
    if (target.mode === 'create') form.setFieldsValue({ model: '', description: '', items: [{ ...NEW_ITEM }] });
    else form.setFieldsValue({ model: target.row.model, description: target.row.description, items: target.row.items });
  }, [open, target, form]);

  /** Errors set from the schema stay until the next check: a changed value clears them. */
  const clearErrors = () => form.setFields(form.getFieldsError().filter((f) => f.errors.length).map((f) => ({ name: f.name, errors: [] })));

  const submit = async () => {
    if (!target) return;
    const values = form.getFieldsValue(true) as FormValues;
    setFailure(null);
    clearErrors();
    const parsed = modelBodySchema.safeParse(values);
    if (!parsed.success) {
      // Each problem on its field, in the user's language.
      form.setFields(
        parsed.error.issues.map((i) => ({ name: i.path as (string | number)[], errors: [isErrorCode(i.message) ? errorText(i.message, lang) : t('jt808Model.invalid')] })),
      );
      const top = parsed.error.issues.find((i) => i.path.length <= 1 && i.path[0] === 'items');
      if (top && isErrorCode(top.message)) setFailure(errorText(top.message, lang));
      return;
    }
    try {
      await save.mutateAsync({ id: target.mode === 'edit' ? target.row.id : undefined, body: parsed.data });
      onClose();
    } catch (error) {
      const code = apiErrorCode(error);
      if (code === 'JT808_MODEL_TAKEN') form.setFields([{ name: 'model', errors: [errorText(code, lang)] }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  const layoutOptions = ITEM_LAYOUTS.map((l) => ({ value: l, label: t(`jt808Model.layout.${l}`) }));
  const channelOptions = ITEM_CHANNELS.map((c) => ({ value: c, label: t(`sensor.${c}`) }));

  return (
    <Modal
      open={open}
      title={target?.mode === 'edit' ? t('jt808Model.editTitle') : t('jt808Model.newTitle')}
      width={880}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ ...{ 'data-testid': 'model-form-submit' } }}
      confirmLoading={save.isPending}
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
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" style={{ marginBottom: 12 }} /> : null}
      <Form<FormValues> form={form} name="jt808-model" layout="vertical" onFinish={() => void submit()} onValuesChange={() => {
          clearErrors();
          if (failure) setFailure(null);
        }}
      >
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 2fr', gap: '0 16px' }}>
          <Form.Item name="model" label={t('jt808Model.model')} required extra={t('jt808Model.modelHint')}>
            <Input maxLength={30} autoComplete="off" placeholder={t('filter.input')} data-testid="model-field-model" autoFocus />
          </Form.Item>
          <Form.Item name="description" label={t('jt808Model.description')}>
            <Input maxLength={200} autoComplete="off" placeholder={t('filter.input')} data-testid="model-field-description" />
          </Form.Item>
        </div>
        <div style={{ marginBottom: 8, color: 'rgba(0,0,0,0.45)' }}>{t('jt808Model.itemsHint')}</div>
        <Form.List name="items">
          {(rows, { add, remove }) => (
            <>
              {rows.map((row, i) => (
                <div key={row.key} data-testid="model-item-row" style={{ display: 'grid', gridTemplateColumns: '110px 1.6fr 90px 1.2fr 80px 32px', gap: '0 8px', alignItems: 'start' }}>
                  <Form.Item name={[row.name, 'id']} label={i === 0 ? t('jt808Model.itemId') : undefined} required>
                    <Input maxLength={4} autoComplete="off" placeholder="0x51" aria-label={t('jt808Model.itemId')} data-testid="model-item-id" />
                  </Form.Item>
                  <Form.Item name={[row.name, 'layout']} label={i === 0 ? t('jt808Model.layout') : undefined} required>
                    <Select options={layoutOptions} aria-label={t('jt808Model.layout')} data-testid="model-item-layout" />
                  </Form.Item>
                  <Form.Item name={[row.name, 'offset']} label={i === 0 ? t('jt808Model.offset') : undefined}>
                    <InputNumber min={0} max={254} precision={0} style={{ width: '100%' }} aria-label={t('jt808Model.offset')} />
                  </Form.Item>
                  <Form.Item name={[row.name, 'channel']} label={i === 0 ? t('jt808Model.channel') : undefined} required>
                    <Select options={channelOptions} aria-label={t('jt808Model.channel')} data-testid="model-item-channel" />
                  </Form.Item>
                  <Form.Item name={[row.name, 'probe']} label={i === 0 ? t('jt808Model.probe') : undefined}>
                    <InputNumber min={1} max={8} precision={0} style={{ width: '100%' }} aria-label={t('jt808Model.probe')} />
                  </Form.Item>
                  <Form.Item label={i === 0 ? ' ' : undefined}>
                    <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('jt808Model.removeItem')} onClick={() => remove(row.name)} disabled={rows.length === 1} />
                  </Form.Item>
                </div>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ ...NEW_ITEM, id: '' })} disabled={rows.length >= MAX_MODEL_ITEMS} data-testid="model-item-add">
                {t('jt808Model.addItem')}
              </Button>
            </>
          )}
        </Form.List>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

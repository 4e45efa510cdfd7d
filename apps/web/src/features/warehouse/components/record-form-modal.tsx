// Entering an inbound or outbound record, or changing a pending one: the place (a warehouse, or a
// cold room or refrigerator of it), goods, batch, quantity and unit, the time (now by default,
// never in the future), the handler and a remark. The server reads the temperature at hand-over
// from the room's sensor; a refusal is shown in the dialog, which stays open.
import { useEffect, useState } from 'react';
import { Alert, App, DatePicker, Form, Input, InputNumber, Modal, Radio, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { errorText } from '@iotc/shared/errors';
import type { RecordRow, WarehouseDirection } from '@iotc/shared/warehouse';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { DIALOG_OVER_DRAWER_Z } from '../../../lib/layers.ts';
import type { PlaceNode } from '../api/places.ts';
import { useSaveRecord } from '../api/record-save.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

export type RecordFormTarget = { mode: 'create'; direction: WarehouseDirection } | { mode: 'edit'; row: RecordRow };

interface Values {
  locationId?: string;
  direction: WarehouseDirection;
  goodsName: string;
  batchNo: string;
  quantity: number | null;
  unit: string;
  time: Dayjs | null;
  handler: string;
  remark: string;
}

function initial(target: RecordFormTarget): Values {
  if (target.mode === 'create') return { direction: target.direction, goodsName: '', batchNo: '', quantity: null, unit: '', time: dayjs(), handler: '', remark: '' };
  const r = target.row;
  return {
    locationId: r.roomId ?? r.warehouseId ?? undefined,
    direction: r.direction,
    goodsName: r.goodsName,
    batchNo: r.batchNo,
    quantity: r.quantity,
    unit: r.unit,
    time: dayjs(r.time),
    handler: r.handler,
    remark: r.remark,
  };
}

export function RecordFormModal({
  target,
  open,
  places,
  onClose,
  afterClose,
  onSaved,
}: {
  target: RecordFormTarget | null;
  open: boolean;
  places: PlaceNode[];
  onClose: () => void;
  afterClose: () => void;
  onSaved?: (row: RecordRow) => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const save = useSaveRecord();
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);

  useEffect(() => {
    if (open && target) form.setFieldsValue(initial(target));
  }, [open, target, form]);

  const submit = async () => {
    if (!target) return;
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setFailure(null);
    try {
      const saved = await save.mutateAsync({
        id: target.mode === 'edit' ? target.row.id : undefined,
        body: {
          locationId: v.locationId!,
          direction: v.direction,
          goodsName: v.goodsName.trim(),
          batchNo: (v.batchNo ?? '').trim(),
          quantity: v.quantity ?? 0,
          unit: (v.unit ?? '').trim(),
          time: (v.time ?? dayjs()).toISOString(),
          handler: v.handler.trim(),
          remark: (v.remark ?? '').trim(),
        },
      });
      void message.success(t('warehouse.form.saved'));
      onSaved?.(saved);
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  const direction = Form.useWatch('direction', form);
  const title = target?.mode === 'edit' ? t('warehouse.form.editTitle') : t(direction === 'out' ? 'warehouse.form.newOut' : 'warehouse.form.newIn');

  return (
    <Modal
      open={open}
      title={title}
      width={640}
      okText={t('warehouse.form.save')}
      okButtonProps={{ ...{ 'data-testid': 'wh-form-submit' } }}
      cancelText={t('common.cancel')}
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
      zIndex={DIALOG_OVER_DRAWER_Z}
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="wh-form-error" className="wh-gap" /> : null}
      <Form form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)} className="wh-form">
        <Form.Item name="direction" label={t('warehouse.col.direction')} required>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'in', label: t('warehouse.direction.in') },
              { value: 'out', label: t('warehouse.direction.out') },
            ]}
          />
        </Form.Item>
        <Form.Item name="locationId" label={t('warehouse.form.place')} tooltip={t('warehouse.form.placeHint')} rules={[{ required: true, message: errorText('WAREHOUSE_LOCATION_REQUIRED', lang) }]}>
          <TreeSelect id="wh-form-place" treeData={places} treeDefaultExpandAll showSearch treeNodeFilterProp="label" placeholder={t('warehouse.form.placePlaceholder')} />
        </Form.Item>
        <div className="wh-form-row">
          <Form.Item name="goodsName" label={t('warehouse.col.goods')} rules={[{ required: true, whitespace: true, message: errorText('WAREHOUSE_GOODS_REQUIRED', lang) }, { max: 100 }]}>
            <Input id="wh-form-goods" maxLength={100} />
          </Form.Item>
          <Form.Item name="batchNo" label={t('warehouse.col.batch')} rules={[{ max: 64 }]}>
            <Input id="wh-form-batch" maxLength={64} />
          </Form.Item>
        </div>
        <div className="wh-form-row">
          <Form.Item
            name="quantity"
            label={t('warehouse.col.quantity')}
            rules={[
              { required: true, message: errorText('WAREHOUSE_QUANTITY_POSITIVE', lang) },
              { validator: (_r, v: number | null) => (v === null || v === undefined || v > 0 ? Promise.resolve() : Promise.reject(new Error(errorText('WAREHOUSE_QUANTITY_POSITIVE', lang)))) },
            ]}
          >
            <InputNumber id="wh-form-quantity" min={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="unit" label={t('warehouse.form.unit')} rules={[{ max: 16 }]}>
            <Input id="wh-form-unit" maxLength={16} placeholder={t('warehouse.form.unitPlaceholder')} />
          </Form.Item>
        </div>
        <div className="wh-form-row">
          <Form.Item
            name="time"
            label={t('warehouse.col.time')}
            rules={[{ validator: (_r, v: Dayjs | null) => (v && v.isAfter(dayjs().add(1, 'minute')) ? Promise.reject(new Error(errorText('WAREHOUSE_TIME_FUTURE', lang))) : Promise.resolve()) }]}
          >
            <DatePicker id="wh-form-time" showTime format={DATETIME_FORMAT} disabledDate={(d) => d.isAfter(dayjs().endOf('day'))} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="handler" label={t('warehouse.col.handler')} rules={[{ required: true, whitespace: true, message: errorText('WAREHOUSE_HANDLER_REQUIRED', lang) }, { max: 64 }]}>
            <Input id="wh-form-handler" maxLength={64} />
          </Form.Item>
        </div>
        <Form.Item name="remark" label={t('warehouse.form.remark')} rules={[{ max: 500 }]}>
          <Input.TextArea id="wh-form-remark" rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

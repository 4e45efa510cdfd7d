// The create / edit form of any asset kind, built from the kind's declaration: code and name,
// its attributes, its temperature and humidity ranges. Every field is checked by the shared
// schema the server parses the body with (the range order too), so the form and the server's
// refusal read alike; a taken code is shown on its field. Enter submits.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Divider, Form, Input, InputNumber, Modal, Space, Typography, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { ASSET_ATTRS, assetBodySchema, type AssetBody, type AssetKind } from '@iotc/shared/asset';
import type { PlaceRow } from '@iotc/shared/place';
import { errorText, isErrorCode } from '@iotc/shared/errors';
import type { z } from 'zod';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLabel } from '../../../lib/label.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useSaveAsset } from '../api/asset-save.ts';
import { assetConfig, assetFormFields, type AssetView, type FormFieldDef } from './asset-kinds.ts';
import { OrgSelect, useOrgChoice } from '../../../components/org-select.tsx';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';
import { PlacePicker } from '../../../components/place-picker.tsx';

/** The asset a new one is created in (a cold room's warehouse). */
export interface AssetParent {
  id: string;
  code: string;
  name: string;
}

export type AssetFormTarget = { mode: 'create'; parent?: AssetParent } | { mode: 'edit'; row: AssetView };

type Value = string | number | null | undefined;
interface AssetFormValues {
  code?: string;
  name?: string;
  orgId?: string;
  attrs?: Record<string, Value>;
  tempMin?: number | null;
  tempMax?: number | null;
  humidityMin?: number | null;
  humidityMax?: number | null;
  /** A warehouse's place in the library. */
  placeId?: string | null;
}

/** The form's values of a stored asset. */
export function formValuesOf(row: AssetView): AssetFormValues {
  return {
    code: row.code,
    name: row.name,
    attrs: { ...row.attrs },
    tempMin: row.tempMin,
    tempMax: row.tempMax,
    humidityMin: row.humidityMin,
    humidityMax: row.humidityMax,
    placeId: row.placeId,
  };
}

/** The schema checking one field of a kind's body. */
function fieldSchema(kind: AssetKind, name: string[]): z.ZodType | undefined {
  if (name[0] === 'attrs') return (ASSET_ATTRS[kind].shape as Record<string, z.ZodType>)[name[1]!];
  return (assetBodySchema(kind).shape as Record<string, z.ZodType>)[name[0]!];
}

/** A maximum below its minimum: the shared schema's RANGE_ORDER, checked as the user types. */
function rangeOrderRule(minName: string, lang: 'zh' | 'en'): FormRule {
  return ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) => {
      const min: unknown = getFieldValue(minName);
      const bad = typeof value === 'number' && typeof min === 'number' && min > value;
      return bad ? Promise.reject(new Error(errorText('RANGE_ORDER', lang))) : Promise.resolve();
    },
  });
}

/** A warehouse's library place as a form control: its name, a picker and a way to take it away. */
function WarehousePlace({ value, onChange, name, onPicked }: { value?: string | null; onChange?: (id: string | null) => void; name: string | null; onPicked: (p: PlaceRow) => void }) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      <Typography.Text data-testid="asset-place-name">{value ? (name ?? '-') : t('asset.placeNone')}</Typography.Text>
      <PlacePicker
        data-testid="asset-place-pick"
        onPick={(p) => {
          onChange?.(p.id);
          onPicked(p);
        }}
      />
      {value ? (
        <Button onClick={() => onChange?.(null)} data-testid="asset-place-clear">
          {t('asset.placeClear')}
        </Button>
      ) : null}
    </Space>
  );
}

export interface AssetFormModalProps {
  kind: AssetKind;
  target: AssetFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function AssetFormModal({ kind, target, open, onClose, afterClose }: AssetFormModalProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const lang = useLang();
  const [form] = Form.useForm<AssetFormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const save = useSaveAsset();
  const [failure, setFailure] = useState<string | null>(null);
  const orgChoice = useOrgChoice();
  useRevalidateOnLanguage(form);
  const config = assetConfig(kind);
  const fields = useMemo(() => assetFormFields(kind), [kind]);
  const creating = target?.mode === 'create';
  // The warehouse's library place: its name is shown, its centre fills (and holds) the position.
  const placeId = Form.useWatch('placeId', form) ?? null;
  const [placeName, setPlaceName] = useState<string | null>(null);
  const parentText = target?.mode === 'create' ? (target.parent ? `${target.parent.code} · ${target.parent.name}` : null) : (target?.row.parentName ?? null);

  // The form stays mounted (forceRender), so its instance is always connected; each opening fills it.
  useEffect(() => {
    if (!open || !target) return;
    form.resetFields();
    setPlaceName(target.mode === 'edit' ? target.row.placeName : null);
    if (target.mode === 'edit') form.setFieldsValue(formValuesOf(target.row));
  }, [open, target, form]);

  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    const parentId = target.mode === 'create' ? (target.parent?.id ?? null) : target.row.parentId;
    const parsed = assetBodySchema(kind).safeParse({ ...values, attrs: values.attrs ?? {}, parentId, orgId: creating ? values.orgId : undefined });
    if (!parsed.success) {
      // Cross-field rules the field rules could not see; each issue lands on its field.
      form.setFields(
        parsed.error.issues.map((issue) => ({
          // A path of the body is a name path of the form: the fields mirror the body.
          name: issue.path.map(String) as ['attrs', string],
          errors: [errorText(isErrorCode(issue.message) ? issue.message : 'VALIDATION', lang)],
        })),
      );
      return;
    }
    const body: AssetBody = parsed.data;
    try {
      await save.mutateAsync({ kind, id: target.mode === 'edit' ? target.row.id : undefined, body });
      onClose();
    } catch (error) {
      const code = apiErrorCode(error);
      if (code === 'ASSET_CODE_TAKEN' || code === 'ASSET_CODE_REQUIRED') form.setFields([{ name: 'code', errors: [errorText(code, lang)] }]);
      else if (code === 'NAME_REQUIRED') form.setFields([{ name: 'name', errors: [errorText(code, lang)] }]);
      else if (code === 'ZIP_FORMAT') form.setFields([{ name: ['attrs', 'zip'], errors: [errorText(code, lang)] }]);
      else if (code === 'PLACE_UNKNOWN') form.setFields([{ name: 'placeId', errors: [errorText(code, lang)] }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  const item = (f: FormFieldDef) => {
    const key = f.name.join('.');
    const schema = fieldSchema(kind, f.name);
    const rules: FormRule[] = schema ? [schemaRule(schema, lang)] : [];
    if (key === 'tempMax') rules.push(rangeOrderRule('tempMin', lang));
    if (key === 'humidityMax') rules.push(rangeOrderRule('humidityMin', lang));
    const dependencies = key === 'tempMax' ? [['tempMin']] : key === 'humidityMax' ? [['humidityMin']] : undefined;
    return (
      <Form.Item key={key} name={f.name} label={label(f.label)} required={f.required} rules={rules} dependencies={dependencies}>
        {f.type === 'number' ? (
          <InputNumber min={f.min} max={f.max} style={{ width: '100%' }} disabled={placeId !== null && (key === 'attrs.lat' || key === 'attrs.lon')} data-testid={`asset-field-${key}`} />
        ) : (
          <Input maxLength={f.maxLength} autoComplete="off" data-testid={`asset-field-${key}`} />
        )}
      </Form.Item>
    );
  };

  const group = (g: FormFieldDef['group']) => fields.filter((f) => f.group === g).map(item);

  return (
    <Modal
      open={open}
      title={label(creating ? config.newLabel : config.editLabel)}
      className={`asset-form-modal asset-form-${kind}`}
      width={720}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      // A data attribute is no ButtonProps key; spread, it passes through to the button.
      okButtonProps={{ ...{ 'data-testid': 'asset-form-submit' } }}
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
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" className="asset-gap" /> : null}
      <Form<AssetFormValues> form={form} name={`asset-${kind}`} layout="vertical" onFinish={() => void submit()} onValuesChange={() => failure && setFailure(null)}>
        <div className="asset-form-grid">
          {group('main')}
          {parentText !== null ? (
            <Form.Item label={t('asset.parent')}>
              <Input value={parentText} disabled data-testid="asset-field-parent" />
            </Form.Item>
          ) : null}
          {creating && orgChoice ? (
            <Form.Item name="orgId" label={t('asset.org')}>
              <OrgSelect allowClear placeholder={t('asset.orgDefault')} />
            </Form.Item>
          ) : null}
          {target?.mode === 'edit' ? (
            <Form.Item label={t('asset.org')}>
              <Input value={target.row.orgName} disabled />
            </Form.Item>
          ) : null}
          {group('attrs')}
        </div>
        {kind === 'warehouse' ? (
          <Form.Item name="placeId" label={t('asset.place')} extra={t('asset.placeHint')}>
            <WarehousePlace
              name={placeName}
              onPicked={(p) => {
                setPlaceName(p.name);
                const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
                form.setFieldsValue({ attrs: { ...form.getFieldValue('attrs'), lat: round6(p.lat), lon: round6(p.lon) } });
              }}
            />
          </Form.Item>
        ) : null}
        {config.ranges ? (
          <>
            <Divider titlePlacement="start" className="asset-form-divider">
              {t('asset.ranges')}
            </Divider>
            <div className="asset-form-grid">{group('ranges')}</div>
          </>
        ) : null}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

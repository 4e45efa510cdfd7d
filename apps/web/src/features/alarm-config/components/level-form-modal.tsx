// The create / edit form of an alarm level: code, names in both languages, colour, priority,
// sound and (for a new level) organisation. Every field is checked by the shared schema the server
// parses the body with, so the form and the server's refusal read alike; a taken code is shown
// on its field. Enter submits.
import { useEffect, useState } from 'react';
import { Alert, ColorPicker, Form, Input, InputNumber, Modal, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { levelBodySchema, type LevelRow } from '@iotc/shared/alarm';
import { errorText } from '@iotc/shared/errors';
import { OrgSelect, useOrgChoice } from '../../../components/org-select.tsx';
import { apiErrorCode, apiErrorText } from '../../../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useSaveLevel } from '../api/level-save.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

export type LevelFormTarget = { mode: 'create'; orgId?: string } | { mode: 'edit'; row: LevelRow };

interface LevelFormValues {
  code: string;
  nameZh: string;
  nameEn: string;
  color: string;
  priority: number | null;
  sound: boolean;
  orgId?: string;
}

const fields = levelBodySchema.shape;
const NEW_LEVEL: LevelFormValues = { code: '', nameZh: '', nameEn: '', color: '#1677ff', priority: 5, sound: false };

/** antd's ColorPicker as a form field whose value is '#rrggbb'. */
function ColorField({ id, value, onChange }: { id?: string; value?: string; onChange?: (v: string) => void }) {
  return (
    <ColorPicker
      // Before the form is filled there is no value: an empty colour would read as transparent.
      value={value ?? NEW_LEVEL.color}
      disabledAlpha
      showText
      format="hex"
      onChange={(color) => onChange?.(color.toHexString().slice(0, 7))}
    >
      {/* The trigger is a real button, so Tab reaches it and Enter / Space open it. */}
      <button type="button" id={id} className="alarm-color-trigger" data-testid="level-field-color">
        <span className="alarm-color-swatch" style={{ background: value }} />
        <span>{value}</span>
      </button>
    </ColorPicker>
  );
}

export interface LevelFormModalProps {
  target: LevelFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function LevelFormModal({ target, open, onClose, afterClose }: LevelFormModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<LevelFormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const save = useSaveLevel();
  const orgChoice = useOrgChoice();
  const [failure, setFailure] = useState<string | null>(null);
  useRevalidateOnLanguage(form);
  const creating = target?.mode === 'create';

  // The form stays mounted (forceRender), so its instance is always connected; each opening fills it.
  useEffect(() => {
    if (!open || !target) return;
    form.resetFields();
    if (target.mode === 'create') form.setFieldsValue({ ...NEW_LEVEL, orgId: target.orgId });
    else {
      const r = target.row;
      form.setFieldsValue({ code: r.code, nameZh: r.nameZh, nameEn: r.nameEn, color: r.color, priority: r.priority, sound: r.sound });
    }
  }, [open, target, form]);

  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    const parsed = levelBodySchema.safeParse({ ...values, orgId: creating ? values.orgId : undefined });
    if (!parsed.success) {
      setFailure(apiErrorText(null, lang));
      return;
    }
    try {
      await save.mutateAsync({ id: target.mode === 'edit' ? target.row.id : undefined, body: parsed.data });
      onClose();
    } catch (error) {
      const code = apiErrorCode(error);
      if (code === 'LEVEL_CODE_TAKEN' || code === 'LEVEL_CODE_FORMAT') form.setFields([{ name: 'code', errors: [errorText(code, lang)] }]);
      else if (code === 'COLOR_FORMAT') form.setFields([{ name: 'color', errors: [errorText(code, lang)] }]);
      else setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={open}
      title={creating ? t('alarmConfig.level.newTitle') : t('alarmConfig.level.editTitle')}
      className="alarm-level-modal"
      width={640}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ ...{ 'data-testid': 'level-form-submit' } }}
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
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" className="alarm-gap" /> : null}
      <Form<LevelFormValues> form={form} name="level" layout="vertical" onFinish={() => void submit()} onValuesChange={() => failure && setFailure(null)}>
        <div className="alarm-form-grid">
          <Form.Item name="code" label={t('alarmConfig.level.code')} required extra={t('alarmConfig.level.codeHint')} rules={[schemaRule(fields.code, lang)]}>
            <Input maxLength={32} autoComplete="off" placeholder={t('filter.input')} data-testid="level-field-code" />
          </Form.Item>
          {creating && orgChoice ? (
            <Form.Item name="orgId" label={t('alarmConfig.org')}>
              <OrgSelect allowClear placeholder={t('alarmConfig.orgDefault')} />
            </Form.Item>
          ) : null}
          {target?.mode === 'edit' ? (
            <Form.Item label={t('alarmConfig.org')}>
              <Input value={target.row.orgName} disabled />
            </Form.Item>
          ) : null}
          <Form.Item name="nameZh" label={t('alarmConfig.level.nameZh')} required rules={[schemaRule(fields.nameZh, lang)]}>
            <Input maxLength={40} autoComplete="off" placeholder={t('filter.input')} data-testid="level-field-nameZh" />
          </Form.Item>
          <Form.Item name="nameEn" label={t('alarmConfig.level.nameEn')} required rules={[schemaRule(fields.nameEn, lang)]}>
            <Input maxLength={40} autoComplete="off" placeholder={t('filter.input')} data-testid="level-field-nameEn" />
          </Form.Item>
          <Form.Item name="color" label={t('alarmConfig.level.color')} required rules={[schemaRule(fields.color, lang)]}>
            <ColorField />
          </Form.Item>
          <Form.Item
            name="priority"
            label={t('alarmConfig.level.priority')}
            required
            extra={t('alarmConfig.level.priorityHint')}
            rules={[{ validator: (_r, v: unknown) => (fields.priority.safeParse(v).success ? Promise.resolve() : Promise.reject(new Error(t('alarmConfig.level.priorityRange')))) }]}
          >
            <InputNumber min={1} max={99} precision={0} style={{ width: '100%' }} data-testid="level-field-priority" />
          </Form.Item>
          <Form.Item name="sound" label={t('alarmConfig.level.sound')} valuePropName="checked">
            <Switch data-testid="level-field-sound" />
          </Form.Item>
        </div>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

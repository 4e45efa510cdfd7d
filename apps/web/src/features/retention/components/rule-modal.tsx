// Editing an organisation's retention rule: for rows and for packs, inherit (the platform
// organisation: the built-in default), a number of days, or forever; on the platform
// organisation the platform administrator also sets the floor for packs. The server's refusals
// (below the floor, rows longer than packs) are shown in the form in the user's language.
import { useEffect, useState } from 'react';
import { Alert, Form, InputNumber, Modal, Radio, Space, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_RETENTION_DAYS, type RetentionOrg } from '@iotc/shared/retention';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';
import { useSaveRetentionRule } from '../api/retention-rule-save.ts';
import { daysText, sourceText } from './rules-model.ts';

type Mode = 'inherit' | 'days' | 'forever';

interface RuleFormValues {
  rowsMode: Mode;
  rowsDays: number | null;
  packsMode: Mode;
  packsDays: number | null;
  floorMode: 'none' | 'days';
  floorDays: number | null;
}

const modeOf = (inherit: boolean, days: number | null): Mode => (inherit ? 'inherit' : days === null ? 'forever' : 'days');

export interface RuleModalProps {
  org: RetentionOrg | null;
  open: boolean;
  /** The platform floor (days) in force, shown beside the packs part. */
  floorDays: number | null;
  /** The platform administrator editing the platform organisation: the floor is shown too. */
  withFloor: boolean;
  onClose: () => void;
  afterClose: () => void;
  onSaved: () => void;
}

function Part({ form, name, label, isPlatform }: { form: FormInstance<RuleFormValues>; name: 'rows' | 'packs'; label: string; isPlatform: boolean }) {
  const { t } = useTranslation();
  const mode = Form.useWatch(`${name}Mode`, form);
  const min = 1;
  return (
    <Form.Item label={label} required>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Form.Item name={`${name}Mode`} noStyle>
          <Radio.Group
            data-testid={`retention-${name}-mode`}
            options={[
              { value: 'inherit', label: isPlatform ? t('retention.mode.builtIn') : t('retention.mode.inherit') },
              { value: 'days', label: t('retention.mode.days') },
              { value: 'forever', label: t('retention.mode.forever') },
            ]}
          />
        </Form.Item>
        {mode === 'days' ? (
          <Form.Item
            name={`${name}Days`}
            noStyle
            rules={[{ required: true, type: 'number', min, max: MAX_RETENTION_DAYS, message: t('retention.daysRange', { min, max: MAX_RETENTION_DAYS }) }]}
          >
            <InputNumber min={1} max={MAX_RETENTION_DAYS} precision={0} suffix={t('retention.daysUnit')} style={{ width: 200 }} data-testid={`retention-${name}-days`} aria-label={label} />
          </Form.Item>
        ) : null}
      </Space>
    </Form.Item>
  );
}

export function RuleModal({ org, open, floorDays, withFloor, onClose, afterClose, onSaved }: RuleModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<RuleFormValues>();
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const save = useSaveRetentionRule();
  const [failure, setFailure] = useState<string | null>(null);
  const floorMode = Form.useWatch('floorMode', form);
  const isPlatform = org?.kind === 'platform';

  useEffect(() => {
    if (open && org) {
      form.setFieldsValue({
        rowsMode: modeOf(org.own.rowsInherit, org.own.rowsDays),
        rowsDays: org.own.rowsDays,
        packsMode: modeOf(org.own.packsInherit, org.own.packsDays),
        packsDays: org.own.packsDays,
        floorMode: org.own.packsFloorDays === null ? 'none' : 'days',
        floorDays: org.own.packsFloorDays,
      });
    }
  }, [open, org, form]);

  const submit = async () => {
    if (!org) return;
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setFailure(null);
    try {
      await save.mutateAsync({
        orgId: org.orgId,
        rowsInherit: v.rowsMode === 'inherit',
        rowsDays: v.rowsMode === 'days' ? v.rowsDays : null,
        packsInherit: v.packsMode === 'inherit',
        packsDays: v.packsMode === 'days' ? v.packsDays : null,
        ...(withFloor ? { packsFloorDays: v.floorMode === 'days' ? v.floorDays : null } : {}),
      });
      onSaved();
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={open}
      title={org ? t('retention.editTitle', { name: org.name }) : ''}
      className="retention-rule-modal"
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ id: 'retention-rule-submit' }}
      confirmLoading={save.isPending}
      onOk={() => void submit()}
      onCancel={guardedClose}
      modalRender={guardedModalRender(keys)}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
        afterClose();
      }}
      width={560}
      forceRender
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" style={{ marginBottom: 16 }} /> : null}
      <Typography.Paragraph type="secondary">{t('retention.editHint')}</Typography.Paragraph>
      <Form<RuleFormValues> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
        <Part form={form} name="rows" label={t('retention.rows')} isPlatform={isPlatform} />
        <Part form={form} name="packs" label={t('retention.packs')} isPlatform={isPlatform} />
        {org && !withFloor && floorDays !== null ? (
          <Typography.Paragraph type="secondary" data-testid="retention-floor-note">
            {t('retention.floorNote', { days: daysText(t, floorDays) })}
          </Typography.Paragraph>
        ) : null}
        {withFloor ? (
          <Form.Item label={t('retention.floor')} extra={t('retention.floorHint')}>
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Form.Item name="floorMode" noStyle>
                <Radio.Group
                  data-testid="retention-floor-mode"
                  options={[
                    { value: 'none', label: t('retention.floorNone') },
                    { value: 'days', label: t('retention.mode.days') },
                  ]}
                />
              </Form.Item>
              {floorMode === 'days' ? (
                <Form.Item
                  name="floorDays"
                  noStyle
                  rules={[{ required: true, type: 'number', min: 1, max: MAX_RETENTION_DAYS, message: t('retention.daysRange', { min: 1, max: MAX_RETENTION_DAYS }) }]}
                >
                  <InputNumber min={1} max={MAX_RETENTION_DAYS} precision={0} suffix={t('retention.daysUnit')} style={{ width: 200 }} data-testid="retention-floor-days" aria-label={t('retention.floor')} />
                </Form.Item>
              ) : null}
            </Space>
          </Form.Item>
        ) : null}
        {org ? (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('retention.currentlyEffective', {
              rows: `${daysText(t, org.rows.days)} (${sourceText(t, org.rows)})`,
              packs: `${daysText(t, org.packs.days)} (${sourceText(t, org.packs)})`,
            })}
          </Typography.Paragraph>
        ) : null}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

// A policy's form in a wide drawer: name, description, organisation, on/off, what it applies to
// and its rules. The whole body is checked with the shared schema before anything is sent, and
// each problem is shown beside its field in the user's language; a refusal of the server is
// shown above the form. Enter in a text field submits.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Drawer, Form, Input, Radio, Select, Space, Switch } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ALARM_TYPES, MAX_RULES_PER_POLICY, POLICY_SCOPES, policyBodySchema, type AlarmType, type PolicyRow } from '@iotc/shared/alarm';
import { errorText } from '@iotc/shared/errors';
import type { Lang } from '@iotc/shared/i18n';
import { useAlarmLevels } from '../../../api/alarm-levels.ts';
import { useInfo } from '../../../api/info.ts';
import { formKeys, useGuardedClose } from '../../../components/form-guard.ts';
import { OrgSelect } from '../../../components/org-select.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useSavePolicy } from '../api/policy-save.ts';
import { buildPolicyBody, emptyPolicy, newRule, policyToForm, type FormIssue, type IssueText, type PolicyFormValues } from './policy-form-model.ts';
import { RuleCard } from './rule-card.tsx';
import { TargetPicker } from './target-picker.tsx';

export type PolicyFormTarget = { mode: 'create'; orgId?: string } | { mode: 'edit'; row: PolicyRow };

type Translate = (key: string, params?: Record<string, unknown>) => string;

export function issueMessage(text: IssueText, lang: Lang, t: Translate): string {
  return 'code' in text ? errorText(text.code, lang) : t(text.key, text.params);
}

export interface PolicyDrawerProps {
  target: PolicyFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function PolicyDrawer({ target, open, onClose, afterClose }: PolicyDrawerProps) {
  const { t } = useTranslation();
  const translate = t as unknown as Translate;
  const lang = useLang();
  const [form] = Form.useForm<PolicyFormValues>();
  const save = useSavePolicy();
  const { data: me } = useInfo();
  const levels = useAlarmLevels(open);
  const [failure, setFailure] = useState<string | null>(null);
  const [issues, setIssues] = useState<FormIssue[]>([]);
  const [addType, setAddType] = useState<AlarmType>('temp_high');
  const creating = target?.mode === 'create';
  // Esc, the mask, the close button or Cancel on a filled form ask first.
  const guardedClose = useGuardedClose(form, onClose, open);

  const scope = (Form.useWatch('scope', form) as PolicyFormValues['scope'] | undefined) ?? 'all';
  const watchedOrg = Form.useWatch('orgId', form) as string | undefined;
  const orgId = watchedOrg || (target?.mode === 'edit' ? target.row.orgId : me?.orgId);
  // A rule's level belongs to the policy's organisation.
  const orgLevels = useMemo(() => (levels.data ?? []).filter((l) => l.orgId === orgId), [levels.data, orgId]);
  const storedIds = target?.mode === 'edit' && target.row.scope === scope ? target.row.targets : [];

  // The form stays mounted (forceRender), so its instance is always connected; each opening fills it.
  useEffect(() => {
    if (!open || !target) return;
    form.resetFields();
    form.setFieldsValue(target.mode === 'edit' ? policyToForm(target.row) : emptyPolicy(target.orgId ?? me?.orgId));
    // The caller's organisation arriving later must not refill a form being typed in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, target, form]);

  // Problems are texts of the moment; after a language switch they are raised again in the new one.
  useEffect(() => {
    const shown = issues.filter((i) => i.name && form.getFieldError(i.name as never).length > 0);
    if (shown.length) form.setFields(shown.map((i) => ({ name: i.name as never, errors: [issueMessage(i.text, lang, translate)] })));
    // Only a language change re-raises them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lang]);

  const rulesIssue = issues.find((i) => i.name === null);

  const submit = async () => {
    if (!target) return;
    setFailure(null);
    const values = form.getFieldsValue(true) as PolicyFormValues;
    const built = buildPolicyBody(values, creating);
    if (!built.ok) {
      setIssues(built.issues);
      const onFields = built.issues.filter((i): i is FormIssue & { name: (string | number)[] } => i.name !== null);
      form.setFields(onFields.map((i) => ({ name: i.name as never, errors: [issueMessage(i.text, lang, translate)] })));
      if (onFields[0]) form.scrollToField(onFields[0].name as never, { block: 'center' });
      return;
    }
    setIssues([]);
    try {
      await save.mutateAsync({ id: target.mode === 'edit' ? target.row.id : undefined, body: built.body });
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  const onValuesChange = (changed: Partial<PolicyFormValues>, all: PolicyFormValues) => {
    if (failure) setFailure(null);
    // Another scope names other things.
    if ('scope' in changed) form.setFieldValue('targets', []);
    if ('orgId' in changed) {
      const own = (levels.data ?? []).filter((l) => l.orgId === (changed.orgId || me?.orgId));
      (all.rules ?? []).forEach((r, i) => {
        if (!own.some((l) => l.id === r.levelId)) form.setFieldValue(['rules', i, 'levelId'], own[0]?.id);
      });
    }
    if ('rules' in changed && rulesIssue) setIssues((list) => list.filter((i) => i.name !== null));
  };

  return (
    <Drawer
      open={open}
      size={960}
      title={creating ? t('alarmConfig.policy.newTitle') : t('alarmConfig.policy.editTitle')}
      className="alarm-policy-drawer"
      forceRender
      onClose={guardedClose}
      onKeyDown={formKeys(guardedClose)}
      afterOpenChange={(visible) => {
        if (visible) return;
        form.resetFields();
        setFailure(null);
        setIssues([]);
        afterClose();
      }}
      extra={
        <Space>
          <Button onClick={guardedClose} data-testid="policy-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="primary" data-testid="policy-submit" loading={save.isPending} onClick={() => void submit()}>
            {t('alarmConfig.save')}
          </Button>
        </Space>
      }
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" className="alarm-gap" /> : null}
      <Form<PolicyFormValues> form={form} name="policy" layout="vertical" onFinish={() => void submit()} onValuesChange={onValuesChange}>
        <div className="alarm-form-grid">
          <Form.Item name="name" label={t('alarmConfig.policy.name')} required rules={[schemaRule(policyBodySchema.shape.name, lang)]}>
            <Input maxLength={100} autoComplete="off" placeholder={t('filter.input')} data-testid="policy-name" />
          </Form.Item>
          <Form.Item name="orgId" label={t('alarmConfig.org')} extra={creating ? undefined : t('alarmConfig.policy.orgFixed')}>
            <OrgSelect disabled={!creating} />
          </Form.Item>
        </div>
        <Form.Item name="description" label={t('alarmConfig.policy.description')}>
          <Input.TextArea rows={2} maxLength={500} placeholder={t('filter.input')} data-testid="policy-description" />
        </Form.Item>
        <Form.Item name="enabled" label={t('alarmConfig.policy.enabled')} valuePropName="checked" className="alarm-inline-switch">
          <Switch data-testid="policy-enabled" />
        </Form.Item>
        <Form.Item name="scope" label={t('alarmConfig.scope.label')} required>
          <Radio.Group data-testid="policy-scope" options={POLICY_SCOPES.map((s) => ({ value: s, label: t(`alarmConfig.scope.${s}`) }))} />
        </Form.Item>
        {scope !== 'all' ? (
          <Form.Item name="targets" label={t(`alarmConfig.scope.targets.${scope}`)} required>
            <TargetPicker key={scope} scope={scope} storedIds={storedIds} />
          </Form.Item>
        ) : null}

        <Form.List name="rules">
          {(fields, { add, remove }) => (
            <>
              <div className="alarm-rules-head">
                <h4 className="alarm-section-title">{t('alarmConfig.rule.heading')}</h4>
                <Space.Compact>
                  <Select<AlarmType>
                    aria-label={t('alarmConfig.rule.addType')}
                    data-testid="rule-add-type"
                    value={addType}
                    onChange={setAddType}
                    options={ALARM_TYPES.map((v) => ({ value: v, label: t(`alarmConfig.type.${v}`) }))}
                    style={{ width: 180 }}
                  />
                  <Button
                    icon={<PlusOutlined />}
                    data-testid="rule-add"
                    disabled={fields.length >= MAX_RULES_PER_POLICY}
                    onClick={() => {
                      const ids = ((form.getFieldValue('rules') as { id: string }[] | undefined) ?? []).map((r) => r.id);
                      add(newRule(addType, ids, orgLevels[0]?.id));
                    }}
                  >
                    {t('alarmConfig.rule.add')}
                  </Button>
                </Space.Compact>
              </div>
              {rulesIssue ? <Alert type="error" showIcon title={issueMessage(rulesIssue.text, lang, translate)} data-testid="rules-error" className="alarm-gap" /> : null}
              {fields.length === 0 ? (
                <div className="alarm-muted alarm-rules-empty" data-testid="rules-empty">
                  {t('alarmConfig.rule.empty')}
                </div>
              ) : (
                <div className="alarm-rules">
                  {fields.map((field, i) => (
                    <RuleCard key={field.key} form={form} name={field.name} position={i + 1} levels={orgLevels} lang={lang} onRemove={() => remove(field.name)} />
                  ))}
                </div>
              )}
            </>
          )}
        </Form.List>
        <button type="submit" hidden />
      </Form>
    </Drawer>
  );
}

// A push rule's form in a wide drawer: name, organisation, on/off; which alarms it matches
// (policies, levels, types; empty: any) and on which events; the message (language, time zone,
// templates with their placeholders and a preview); and the escalation steps, the last one
// optionally repeating until someone acknowledges. The whole body is checked with the shared
// schema before anything is sent, each problem shown beside its field in the user's language; a
// refusal of the server is shown above the form. Enter in a text field submits.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Drawer, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ALARM_TYPES } from '@iotc/shared/alarm';
import { MAX_PUSH_STEPS, MAX_STEP_REPEATS, pushRuleBodySchema, type PushRuleRow } from '@iotc/shared/alarm-push';
import { errorText } from '@iotc/shared/errors';
import type { Lang } from '@iotc/shared/i18n';
import type { OrgNode } from '@iotc/shared/platform';
import { useInfo } from '../../../api/info.ts';
import { useOrgTree } from '../../../api/org-tree.ts';
import { OrgSelect } from '../../../components/org-select.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useLevelChoices } from '../api/level-choices.ts';
import { useSavePushRule } from '../api/push-rule-save.ts';
import { LevelPicker, PolicyPicker, useOrgScope } from './pickers.tsx';
import { buildPushBody, emptyRule, newStep, ruleToForm, storedWebhookUrls, type FormIssue, type IssueText, type PushFormValues, type StepValues } from './push-form-model.ts';
import { StepCard } from './step-card.tsx';
import { TemplateFields } from './template-fields.tsx';
import { formKeys, useGuardedClose } from '../../../components/form-guard.ts';

export type PushRuleTarget = { mode: 'create'; orgId?: string } | { mode: 'edit'; row: PushRuleRow };

type Translate = (key: string, params?: Record<string, unknown>) => string;

export function issueMessage(text: IssueText, lang: Lang, t: Translate): string {
  if ('code' in text) return text.item ? `${text.item}: ${errorText(text.code, lang)}` : errorText(text.code, lang);
  return t(text.key, text.params);
}

function findOrgName(nodes: OrgNode[], id: string | undefined): string | undefined {
  for (const n of nodes) {
    if (n.id === id) return n.name;
    const below = findOrgName(n.children, id);
    if (below) return below;
  }
  return undefined;
}

export interface PushRuleDrawerProps {
  target: PushRuleTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function PushRuleDrawer({ target, open, onClose, afterClose }: PushRuleDrawerProps) {
  const { t } = useTranslation();
  const translate = t as unknown as Translate;
  const lang = useLang();
  const [form] = Form.useForm<PushFormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const save = useSavePushRule();
  const { data: me } = useInfo();
  const { data: tree } = useOrgTree(usePermission()('org:read'));
  const levels = useLevelChoices(open);
  const [failure, setFailure] = useState<string | null>(null);
  const [issues, setIssues] = useState<FormIssue[]>([]);
  const creating = target?.mode === 'create';
  const row = target?.mode === 'edit' ? target.row : undefined;
  const storedUrls = useMemo(() => storedWebhookUrls(row), [row]);

  const watchedOrg = Form.useWatch('orgId', form) as string | undefined;
  const orgId = watchedOrg || row?.orgId || me?.orgId;
  const orgName = row?.orgName ?? findOrgName(tree ?? [], orgId) ?? (orgId === me?.orgId ? me?.orgName : undefined) ?? '';
  const scope = useOrgScope(orgId);
  const orgLevels = useMemo(() => (levels.data ?? []).filter((l) => scope.has(l.orgId)), [levels.data, scope]);
  const repeatOn = !!Form.useWatch('repeatOn', form);

  // The form stays mounted (forceRender), so its instance is always connected; each opening fills it.
  useEffect(() => {
    if (!open || !target) return;
    form.resetFields();
    form.setFieldsValue(target.mode === 'edit' ? ruleToForm(target.row) : emptyRule(target.orgId ?? me?.orgId, lang));
    // The caller's organisation or a language switch arriving later must not refill a form being typed in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, target, form]);

  // The caller's organisation arriving after the opening fills only the still empty organisation.
  const myOrg = me?.orgId;
  useEffect(() => {
    if (open && creating && myOrg && !form.getFieldValue('orgId')) form.setFieldValue('orgId', myOrg);
  }, [open, creating, myOrg, form]);

  // Problems are texts of the moment; after a language switch they are raised again in the new one.
  useEffect(() => {
    const shown = issues.filter((i) => i.name && form.getFieldError(i.name as never).length > 0);
    if (shown.length) form.setFields(shown.map((i) => ({ name: i.name as never, errors: [issueMessage(i.text, lang, translate)] })));
    // Only a language change re-raises them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lang]);

  const stepsIssue = issues.find((i) => i.name === null);

  const submit = async () => {
    if (!target) return;
    setFailure(null);
    const values = form.getFieldsValue(true) as PushFormValues;
    const built = buildPushBody(values, creating, storedUrls);
    if (!built.ok) {
      setIssues(built.issues);
      const onFields = built.issues.filter((i): i is FormIssue & { name: (string | number)[] } => i.name !== null);
      form.setFields(onFields.map((i) => ({ name: i.name as never, errors: [issueMessage(i.text, lang, translate)] })));
      if (onFields[0]) form.scrollToField(onFields[0].name as never, { block: 'center' });
      return;
    }
    setIssues([]);
    try {
      await save.mutateAsync({ id: row?.id, body: built.body });
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  const onValuesChange = (changed: Partial<PushFormValues>, all: PushFormValues) => {
    if (failure) setFailure(null);
    // What a rule names belongs to its organisation tree: another organisation starts them afresh.
    if ('orgId' in changed) {
      form.setFieldsValue({
        policyIds: [],
        levelIds: [],
        steps: (all.steps ?? []).map((s): StepValues => ({ ...s, userIds: [], roleIds: [] })),
      });
    }
    if ('steps' in changed) {
      // A step's channels and delay are checked against its recipients and its neighbours:
      // a change anywhere in the steps may settle them, so their old messages go.
      const stale = (all.steps ?? []).flatMap((_s, i) =>
        (['channels', 'afterMinutes'] as const).map((f) => ['steps', i, f]).filter((n) => form.getFieldError(n as never).length > 0),
      );
      if (stale.length) form.setFields(stale.map((n) => ({ name: n as never, errors: [] })));
      if (stepsIssue) setIssues((list) => list.filter((i) => i.name !== null));
    }
  };

  return (
    <Drawer
      open={open}
      size={980}
      title={creating ? t('alarmPush.rule.newTitle') : t('alarmPush.rule.editTitle')}
      className="push-rule-drawer"
      forceRender
      onClose={guardedClose}
      onKeyDown={keys}
      afterOpenChange={(visible) => {
        if (visible) return;
        form.resetFields();
        setFailure(null);
        setIssues([]);
        afterClose();
      }}
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" data-testid="push-rule-submit" loading={save.isPending} onClick={() => void submit()}>
            {t('alarmPush.save')}
          </Button>
        </Space>
      }
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="form-error" className="push-gap" /> : null}
      <Form<PushFormValues> form={form} name="push" layout="vertical" onFinish={() => void submit()} onValuesChange={onValuesChange}>
        <div className="push-form-grid">
          <Form.Item name="name" label={t('alarmPush.rule.name')} required rules={[schemaRule(pushRuleBodySchema.shape.name, lang)]}>
            <Input maxLength={100} autoComplete="off" placeholder={t('filter.input')} data-testid="push-name" />
          </Form.Item>
          <Form.Item name="orgId" label={t('alarmPush.rule.org')} extra={creating ? undefined : t('alarmPush.rule.orgFixed')}>
            <OrgSelect disabled={!creating} />
          </Form.Item>
        </div>
        <Form.Item name="enabled" label={t('alarmPush.rule.enabled')} valuePropName="checked" className="push-inline-switch">
          <Switch data-testid="push-enabled" />
        </Form.Item>

        <h4 className="push-section-title">{t('alarmPush.match.heading')}</h4>
        <div className="push-muted push-section-hint">{t('alarmPush.match.hint')}</div>
        <div className="push-form-grid push-form-grid-3">
          <Form.Item name="policyIds" label={t('alarmPush.match.policies')}>
            <PolicyPicker orgId={orgId} open={open} />
          </Form.Item>
          <Form.Item name="levelIds" label={t('alarmPush.match.levels')}>
            <LevelPicker orgId={orgId} open={open} lang={lang} />
          </Form.Item>
          <Form.Item name="types" label={t('alarmPush.match.types')}>
            <Select
              mode="multiple"
              allowClear
              data-testid="push-types"
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('alarmPush.match.any')}
              options={ALARM_TYPES.map((v) => ({ value: v, label: t(`alarm.type.${v}`) }))}
            />
          </Form.Item>
        </div>
        <Form.Item label={t('alarmPush.rule.events')} className="push-events">
          <Space size="large" wrap>
            <Checkbox checked disabled data-testid="push-event-opened">
              {t('alarmPush.event.opened')}
            </Checkbox>
            <Form.Item name="cleared" valuePropName="checked" noStyle>
              <Checkbox data-testid="push-event-cleared">{t('alarmPush.event.clearedToo')}</Checkbox>
            </Form.Item>
          </Space>
        </Form.Item>

        <h4 className="push-section-title">{t('alarmPush.template.heading')}</h4>
        <TemplateFields form={form} levels={orgLevels} orgName={orgName} />

        <Form.List name="steps">
          {(fields, { add, remove }) => (
            <>
              <div className="push-steps-head">
                <h4 className="push-section-title">{t('alarmPush.step.heading')}</h4>
                <Button
                  icon={<PlusOutlined />}
                  data-testid="push-step-add"
                  disabled={fields.length >= MAX_PUSH_STEPS}
                  onClick={() => {
                    const steps = (form.getFieldValue('steps') as StepValues[] | undefined) ?? [];
                    add(newStep(steps[steps.length - 1]));
                  }}
                >
                  {t('alarmPush.step.add', { max: MAX_PUSH_STEPS })}
                </Button>
              </div>
              <div className="push-muted push-section-hint">{t('alarmPush.step.hint')}</div>
              {stepsIssue ? <Alert type="error" showIcon title={issueMessage(stepsIssue.text, lang, translate)} data-testid="steps-error" className="push-gap" /> : null}
              <div className="push-steps">
                {fields.map((field) => (
                  <StepCard
                    key={field.key}
                    form={form}
                    name={field.name}
                    count={fields.length}
                    orgId={orgId}
                    open={open}
                    lang={lang}
                    storedUrls={storedUrls}
                    onRemove={() => remove(field.name)}
                  />
                ))}
              </div>
            </>
          )}
        </Form.List>

        <div className="push-repeat">
          <Form.Item name="repeatOn" valuePropName="checked" label={t('alarmPush.repeat.label')} className="push-inline-switch">
            <Switch data-testid="push-repeat-on" checkedChildren={t('alarmPush.repeat.on')} unCheckedChildren={t('alarmPush.repeat.off')} />
          </Form.Item>
          {repeatOn ? (
            <Form.Item name="repeatMinutes" label={t('alarmPush.repeat.every')} extra={t('alarmPush.repeat.hint', { max: MAX_STEP_REPEATS })} required>
              <InputNumber max={1440} precision={0} style={{ width: 200 }} suffix={t('alarmPush.step.minutes')} data-testid="push-repeat-minutes" />
            </Form.Item>
          ) : null}
        </div>
        <button type="submit" hidden />
      </Form>
    </Drawer>
  );
}

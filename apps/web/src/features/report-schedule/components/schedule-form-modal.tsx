// Create or edit a scheduled report in a modal: name, report, how often and at what local hour
// (weekly runs go on Mondays, monthly on the 1st), time zone (the browser's by default), language
// (the interface's by default), file format, subjects by report kind, recipients as e-mail tags,
// on or off. Enter in a text field submits; the checks are the shared schema's, and a refusal of
// the server is shown above the form.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Form, Input, Modal, Radio, Select, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '@iotc/shared/validation-text';
import {
  FILE_FORMATS,
  MAX_SCHEDULE_NAME,
  MAX_SCHEDULE_RECIPIENTS,
  SCHEDULE_FREQUENCIES,
  SCHEDULE_KINDS,
  type ScheduleKind,
  type ScheduleRow,
} from '@iotc/shared/ops-report';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useSaveSchedule } from '../api/schedule-save.ts';
import { useSubjectNames } from '../api/subject-names.ts';
import {
  badRecipients,
  bodyIssues,
  hourText,
  isFrequencyOffered,
  newValues,
  recipientsIssue,
  rowValues,
  scheduleBody,
  splitRecipients,
  SUBJECTS_OF_KIND,
  subjectsFor,
  timeZones,
  type ScheduleFormValues,
} from './schedule-model.ts';
import { SubjectField } from './subject-field.tsx';
import { formKeys, guardedModalRender, useGuardedClose } from '../../../components/form-guard.ts';

export type ScheduleFormTarget = { mode: 'create' } | { mode: 'edit'; row: ScheduleRow };

export interface ScheduleFormModalProps {
  target: ScheduleFormTarget | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const NO_IDS: string[] = [];

export function ScheduleFormModal({ target, open, onClose, afterClose }: ScheduleFormModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<ScheduleFormValues>();
  // Esc, the mask, the close button or Cancel on a changed form ask first (issue 22 item 6).
  const guardedClose = useGuardedClose(form, onClose, open);
  const keys = formKeys(guardedClose);
  const save = useSaveSchedule();
  const [failure, setFailure] = useState<string | null>(null);
  const kind = (Form.useWatch('kind', form) ?? 'alarm') as ScheduleKind;
  const lastKind = useRef<ScheduleKind>('alarm');
  const stored = target?.mode === 'edit' ? target.row : null;
  const rule = SUBJECTS_OF_KIND[stored?.kind ?? 'alarm'];
  const names = useSubjectNames(rule.mode === 'devices' ? null : rule.kinds, stored?.subjectIds ?? NO_IDS);
  const zones = useMemo(() => timeZones(newValues(lang).timezone, stored?.timezone ?? ''), [lang, stored]);

  useEffect(() => {
    if (!open || !target) return;
    const values = target.mode === 'edit' ? rowValues(target.row) : newValues(lang);
    lastKind.current = values.kind;
    form.setFieldsValue(values);
    // The interface language only sets the default of a new schedule.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, target, form]);

  const onValuesChange = (changed: Partial<ScheduleFormValues>) => {
    if (failure) setFailure(null);
    if (changed.kind && changed.kind !== lastKind.current) {
      const ids = (form.getFieldValue('subjectIds') as string[] | undefined) ?? [];
      form.setFieldValue('subjectIds', subjectsFor(lastKind.current, changed.kind, ids));
      lastKind.current = changed.kind;
      // A frequency the new report does not offer is shown refused at once, not changed silently.
      void form.validateFields(['frequency', 'subjectIds']).catch(() => undefined);
    }
    if (changed.recipients) {
      const split = splitRecipients(changed.recipients);
      if (split.length !== changed.recipients.length || split.some((v, i) => v !== changed.recipients![i])) form.setFieldValue('recipients', split);
    }
  };

  const submit = async () => {
    if (!target) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    // The shared schema has the last word: what it refuses, the server would refuse too.
    const issues = Object.keys(bodyIssues(values));
    if (issues.length) {
      // The fields by their labels in the user's language, not their names in the schema.
      setFailure(t('reportSchedule.form.invalid', { fields: issues.map((f) => fieldLabel([f], lang)).join(lang === 'zh' ? '、' : ', ') }));
      return;
    }
    setFailure(null);
    try {
      await save.mutateAsync({ id: target.mode === 'edit' ? target.row.id : undefined, body: scheduleBody(values) });
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  const kindName = (k: ScheduleKind) => t(`reportSchedule.kind.${k}`);

  return (
    <Modal
      open={open}
      title={target?.mode === 'edit' ? t('reportSchedule.form.editTitle') : t('reportSchedule.form.newTitle')}
      width={640}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ id: 'rs-form-submit', 'data-testid': 'rs-form-submit' } as Record<string, string>}
      confirmLoading={save.isPending}
      onOk={() => void submit()}
      onCancel={guardedClose}
      modalRender={guardedModalRender(keys)}
      // The modal is rendered ahead of time, so autoFocus would fire once at page load: focus on each opening.
      afterOpenChange={(visible) => {
        if (visible) document.getElementById('rs-name')?.focus();
      }}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
        afterClose();
      }}
      forceRender
      destroyOnHidden={false}
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="rs-form-error" style={{ marginBottom: 12 }} /> : null}
      <Form<ScheduleFormValues> form={form} layout="vertical" onFinish={() => void submit()} onValuesChange={onValuesChange} data-testid="rs-form">
        <Form.Item
          name="name"
          label={t('reportSchedule.form.name')}
          required
          rules={[
            { required: true, whitespace: true, message: t('reportSchedule.form.nameRequired') },
            { max: MAX_SCHEDULE_NAME, message: t('reportSchedule.form.nameTooLong', { max: MAX_SCHEDULE_NAME }) },
          ]}
        >
          <Input id="rs-name" maxLength={MAX_SCHEDULE_NAME} autoComplete="off" />
        </Form.Item>
        <Form.Item name="kind" label={t('reportSchedule.form.kind')} required>
          <Select<ScheduleKind> id="rs-kind" options={SCHEDULE_KINDS.map((k) => ({ value: k, label: kindName(k) }))} data-testid="rs-kind" />
        </Form.Item>
        <Form.Item
          name="frequency"
          label={t('reportSchedule.form.frequency')}
          required
          extra={t('reportSchedule.form.frequencyHint')}
          rules={[
            {
              // The kind is read from the form, not this render: a kind change validates before it re-renders.
              validator: (_r, v: ScheduleFormValues['frequency'] | undefined) => {
                const now = form.getFieldValue('kind') as ScheduleKind;
                return isFrequencyOffered(now, v)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('reportSchedule.form.frequencyNotOffered', { kind: kindName(now), frequency: v ? t(`reportSchedule.frequency.${v}`) : '' })));
              },
            },
          ]}
        >
          <Radio.Group
            id="rs-frequency"
            data-testid="rs-frequency"
            options={SCHEDULE_FREQUENCIES.map((f) => ({
              value: f,
              label: <span data-testid={`rs-frequency-${f}`}>{t(`reportSchedule.frequency.${f}`)}</span>,
              disabled: !isFrequencyOffered(kind, f),
            }))}
          />
        </Form.Item>
        <div className="rs-form-row">
          <Form.Item name="hour" label={t('reportSchedule.form.hour')} required className="rs-form-hour">
            <Select<number> id="rs-hour" options={HOURS.map((h) => ({ value: h, label: hourText(h) }))} />
          </Form.Item>
          <Form.Item name="timezone" label={t('reportSchedule.form.timezone')} required className="rs-form-tz">
            <Select<string> id="rs-timezone" showSearch options={zones.map((z) => ({ value: z, label: z }))} data-testid="rs-timezone" />
          </Form.Item>
        </div>
        <div className="rs-form-row">
          <Form.Item name="lang" label={t('reportSchedule.form.lang')} required>
            <Radio.Group
              id="rs-lang"
              options={[
                { value: 'zh', label: t('reportSchedule.lang.zh') },
                { value: 'en', label: t('reportSchedule.lang.en') },
              ]}
            />
          </Form.Item>
          <Form.Item name="format" label={t('reportSchedule.form.format')} required>
            <Radio.Group id="rs-format" options={FILE_FORMATS.map((f) => ({ value: f, label: t(`reportSchedule.format.${f}`) }))} />
          </Form.Item>
        </div>
        <Form.Item
          name="subjectIds"
          label={SUBJECTS_OF_KIND[kind].mode === 'devices' ? t('reportSchedule.form.devices') : SUBJECTS_OF_KIND[kind].mode === 'one-asset' ? t('reportSchedule.form.asset') : t('reportSchedule.form.assets')}
          required={kind === 'temperature'}
          extra={kind === 'temperature' ? undefined : t('reportSchedule.form.subjectsHint')}
          rules={[
            {
              validator: (_r, v: string[] | undefined) =>
                form.getFieldValue('kind') === 'temperature' && (v ?? []).length !== 1 ? Promise.reject(new Error(t('reportSchedule.form.assetRequired'))) : Promise.resolve(),
            },
          ]}
        >
          <SubjectField kind={kind} names={names.data ?? {}} />
        </Form.Item>
        <Form.Item
          name="recipients"
          label={t('reportSchedule.form.recipients')}
          required
          extra={t('reportSchedule.form.recipientsHint', { max: MAX_SCHEDULE_RECIPIENTS })}
          rules={[
            {
              validator: (_r, v: string[] | undefined) => {
                const issue = recipientsIssue(v ?? []);
                if (!issue) return Promise.resolve();
                const text =
                  issue.code === 'none'
                    ? t('reportSchedule.form.recipientsRequired')
                    : issue.code === 'tooMany'
                      ? t('reportSchedule.form.recipientsTooMany', { max: issue.max })
                      : t('reportSchedule.form.recipientsBad', { addresses: issue.addresses.join(', ') });
                return Promise.reject(new Error(text));
              },
            },
          ]}
        >
          <Select<string[]>
            id="rs-recipients"
            mode="tags"
            open={false}
            suffixIcon={null}
            tokenSeparators={[',', ';', ' ']}
            placeholder={t('reportSchedule.form.recipientsPlaceholder')}
            data-testid="rs-recipients"
            tagRender={({ label, value, closable, onClose }) => {
              const bad = badRecipients([String(value)]).length > 0;
              return (
                <Tag color={bad ? 'error' : undefined} closable={closable} onClose={onClose} style={{ marginInlineEnd: 4 }} data-testid={bad ? 'rs-recipient-bad' : 'rs-recipient'}>
                  {label}
                </Tag>
              );
            }}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('reportSchedule.form.enabled')} valuePropName="checked">
          <Switch id="rs-enabled" />
        </Form.Item>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

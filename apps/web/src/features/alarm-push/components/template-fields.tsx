// The message of a push rule: its language and time zone, the subject and body templates (one
// pair per rule, written in the rule's language, as the contract has it; blank: the language's
// default, shown as the placeholder), the placeholders a template may use (a
// click puts one at the cursor of the template last in focus), and a preview of what the rule
// would send for a sample alarm, on opening and, when asked for, on clearing.
import { useMemo, useState } from 'react';
import { Button, Form, Input, InputNumber, Radio, Select, Space, Tooltip, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALARM_TYPES, DEFAULT_LEVELS, type AlarmType, type LevelRow } from '@iotc/shared/alarm';
import { DEFAULT_TEMPLATES, MAX_DIGEST_MINUTES, MIN_DIGEST_MINUTES, PUSH_PLACEHOLDERS, type PushEvent, type PushPlaceholder } from '@iotc/shared/alarm-push';
import type { Lang } from '@iotc/shared/i18n';
import { useLanguageTexts } from '../../../lib/language.ts';
import { DEFAULT_TIMEZONE, type PushFormValues } from './push-form-model.ts';
import { renderPreview, samplePolicyName, sampleValues } from './template-preview.ts';

type TemplateField = 'subject' | 'body';

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

function timeZones(current: string | undefined): string[] {
  let all: string[] = [];
  try {
    all = Intl.supportedValuesOf('timeZone');
  } catch {
    // An older browser lists none: the rule's zone, the default, the browser's and UTC are still offered.
  }
  const extra = [...new Set([current, DEFAULT_TIMEZONE, browserTimeZone(), 'UTC'])].filter((z): z is string => !!z && !all.includes(z));
  return [...extra, ...all];
}

export function TimeZoneSelect({ id, value, onChange }: { id?: string; value?: string; onChange?: (v: string) => void }) {
  const { t } = useTranslation();
  const options = useMemo(() => timeZones(value).map((z) => ({ value: z, label: z })), [value]);
  return (
    <Select
      id={id}
      value={value}
      onChange={onChange}
      options={options}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('filter.select')}
      data-testid="push-timezone"
      style={{ width: '100%' }}
    />
  );
}

export interface TemplateFieldsProps {
  form: FormInstance<PushFormValues>;
  levels: LevelRow[];
  orgName: string;
}

export function TemplateFields({ form, levels, orgName }: TemplateFieldsProps) {
  const { t } = useTranslation();
  const [focused, setFocused] = useState<TemplateField>('body');
  const [startedAt] = useState(() => new Date());
  const lang = (Form.useWatch('language', form) as Lang | undefined) ?? 'zh';
  // The sample names its type and status in the rule's language: fetched if not the screen's.
  useLanguageTexts(lang);
  const timezone = (Form.useWatch('timezone', form) as string | undefined) ?? DEFAULT_TIMEZONE;
  const subject = (Form.useWatch('subject', form) as string | undefined) ?? '';
  const body = (Form.useWatch('body', form) as string | undefined) ?? '';
  const cleared = !!Form.useWatch('cleared', form);
  const types = (Form.useWatch('types', form) as AlarmType[] | undefined) ?? [];
  const levelIds = (Form.useWatch('levelIds', form) as string[] | undefined) ?? [];

  // The sample alarm speaks the rule's language, whatever the screen's.
  const type = types[0] ?? ALARM_TYPES[0];
  const level = levels.find((l) => l.id === levelIds[0]) ?? DEFAULT_LEVELS[0]!;
  const values = sampleValues(lang, timezone, {
    levelName: lang === 'zh' ? level.nameZh : level.nameEn,
    type,
    typeName: t(`alarm.type.${type}`, { lng: lang }),
    statusName: t('alarm.status.active', { lng: lang }),
    policyName: samplePolicyName(lang),
    orgName,
    startedAt,
  });
  const events: PushEvent[] = cleared ? ['opened', 'cleared'] : ['opened'];

  const insert = (placeholder: PushPlaceholder) => {
    const token = `{${placeholder}}`;
    const el = document.getElementById(`push_${focused}`) as HTMLInputElement | HTMLTextAreaElement | null;
    const current = (form.getFieldValue(focused) as string | undefined) ?? '';
    const start = el?.selectionStart ?? current.length;
    const end = el?.selectionEnd ?? current.length;
    form.setFieldValue(focused, current.slice(0, start) + token + current.slice(end));
    // Back to the template, the cursor after what was put in.
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <>
      <div className="push-form-grid">
        <Form.Item name="language" label={t('alarmPush.rule.language')} extra={t('alarmPush.rule.languageHint')}>
          <Radio.Group
            data-testid="push-language"
            optionType="button"
            options={[
              { value: 'zh', label: t('alarmPush.rule.lang.zh') },
              { value: 'en', label: t('alarmPush.rule.lang.en') },
            ]}
          />
        </Form.Item>
        <Form.Item name="timezone" label={t('alarmPush.rule.timezone')} extra={t('alarmPush.rule.timezoneHint')}>
          <TimeZoneSelect />
        </Form.Item>
      </div>
      <div className="push-form-grid">
        <Form.Item label={t('alarmPush.rule.quiet')} extra={t('alarmPush.rule.quietHint')}>
          <Space.Compact block>
            <Form.Item name="quietFrom" noStyle>
              <Input placeholder="22:00" maxLength={5} autoComplete="off" aria-label={t('alarmPush.rule.quietFrom')} data-testid="push-quiet-from" />
            </Form.Item>
            <Form.Item name="quietTo" noStyle>
              <Input placeholder="07:00" maxLength={5} autoComplete="off" aria-label={t('alarmPush.rule.quietTo')} data-testid="push-quiet-to" />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="digestMinutes" label={t('alarmPush.rule.digest')} extra={t('alarmPush.rule.digestHint')}>
          <InputNumber min={MIN_DIGEST_MINUTES} max={MAX_DIGEST_MINUTES} precision={0} placeholder={t('alarmPush.rule.digestNone')} addonAfter={t('alarmPush.step.minutes')} style={{ width: '100%' }} data-testid="push-digest" />
        </Form.Item>
      </div>
      <Form.Item name="subject" label={t('alarmPush.template.subject')} extra={t('alarmPush.template.defaultHint')}>
        <Input maxLength={200} placeholder={DEFAULT_TEMPLATES[lang].subject} autoComplete="off" data-testid="push-subject" onFocus={() => setFocused('subject')} />
      </Form.Item>
      <Form.Item name="body" label={t('alarmPush.template.body')}>
        <Input.TextArea rows={3} maxLength={2000} placeholder={DEFAULT_TEMPLATES[lang].body} data-testid="push-body" onFocus={() => setFocused('body')} />
      </Form.Item>
      <div className="push-placeholders" data-testid="push-placeholders">
        <span className="push-muted">{t('alarmPush.template.placeholders')}</span>
        {PUSH_PLACEHOLDERS.map((p) => (
          <Tooltip key={p} title={t(`alarmPush.placeholder.${p}`)}>
            <Button size="small" type="dashed" className="push-placeholder" data-testid={`push-placeholder-${p}`} onClick={() => insert(p)}>
              {`{${p}}`}
            </Button>
          </Tooltip>
        ))}
      </div>
      <div className="push-preview" data-testid="push-preview" aria-live="polite">
        <Typography.Text strong>{t('alarmPush.template.preview')}</Typography.Text>
        {events.map((event) => {
          const shown = renderPreview({ subject, body }, lang, event, values);
          return (
            <div key={event} className="push-preview-message" data-testid={`push-preview-${event}`}>
              <div className="push-muted">{t(`alarmPush.event.${event}`)}</div>
              <div className="push-preview-subject" data-testid="push-preview-subject">
                {shown.subject}
              </div>
              <div className="push-preview-body" data-testid="push-preview-body">
                {shown.body}
              </div>
            </div>
          );
        })}
      </div>
    </>
  );
}

// One escalation step of a push rule as a card: when it is sent (minutes after the alarm
// opened; the first step at once), over which channels, and to whom: users and roles (in-app,
// and e-mail / SMS to their address and phone), further e-mail addresses and phone numbers
// (typed, Enter or a comma adds one), and webhooks (address and HMAC secret; a stored secret is
// kept while its field stays blank).
import { Button, Card, Checkbox, Form, Input, InputNumber, Select, Space, Tooltip, type FormInstance } from 'antd';
import { DeleteOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PUSH_CHANNELS } from '@iotc/shared/alarm-push';
import type { Lang } from '@iotc/shared/i18n';
import { RolePicker, UserPicker } from './pickers.tsx';
import { randomSecret, type WebhookValues } from './push-form-model.ts';

/** Most webhooks of one step (the schema's bound). */
export const MAX_WEBHOOKS = 10;
const MAX_DELAY_MINUTES = 7 * 1440;
const SEPARATORS = [',', ';', ' ', '，', '；', '\n'];

interface ListInputProps {
  id?: string;
  value?: string[];
  onChange?: (v: string[]) => void;
  placeholder: string;
  testId: string;
}

/** A free list of texts (addresses, numbers): typed, Enter or a separator adds one. */
function ListInput({ id, value = [], onChange, placeholder, testId }: ListInputProps) {
  return (
    <Select<string[]>
      id={id}
      mode="tags"
      data-testid={testId}
      value={value}
      onChange={(v) => onChange?.(v.map((s) => s.trim()).filter(Boolean))}
      tokenSeparators={SEPARATORS}
      open={false}
      suffixIcon={null}
      placeholder={placeholder}
      style={{ width: '100%' }}
    />
  );
}

/** The secret field with a button that fills in a fresh random secret. */
function SecretInput({ id, value, onChange, placeholder }: { id?: string; value?: string; onChange?: (v: string) => void; placeholder: string }) {
  const { t } = useTranslation();
  return (
    <Space.Compact block>
      <Input.Password id={id} value={value} onChange={(e) => onChange?.(e.target.value)} autoComplete="new-password" placeholder={placeholder} data-testid="push-webhook-secret" />
      <Tooltip title={t('alarmPush.webhook.generate')}>
        <Button icon={<KeyOutlined />} aria-label={t('alarmPush.webhook.generate')} data-testid="push-webhook-generate" onClick={() => onChange?.(randomSecret())} />
      </Tooltip>
    </Space.Compact>
  );
}

function WebhookRow({ form, step, name, storedUrls, onRemove }: { form: FormInstance; step: number; name: number; storedUrls: ReadonlySet<string>; onRemove: () => void }) {
  const { t } = useTranslation();
  const full = ['steps', step, 'webhooks', name];
  const hook = Form.useWatch(full, form) as WebhookValues | undefined;
  const kept = !!hook && !hook.secret && storedUrls.has((hook.url ?? '').trim());
  return (
    <div className="push-webhook-row" data-testid="push-webhook">
      <Form.Item name={[name, 'url']} label={t('alarmPush.webhook.url')} className="push-webhook-url">
        <Input placeholder="https://hooks.example.com/alarms" autoComplete="off" data-testid="push-webhook-url" />
      </Form.Item>
      <Form.Item
        name={[name, 'secret']}
        label={t('alarmPush.webhook.secret')}
        className="push-webhook-secret"
        extra={kept ? <span data-testid="push-webhook-kept">{t('alarmPush.webhook.kept')}</span> : t('alarmPush.webhook.secretHint')}
      >
        <SecretInput placeholder={kept ? t('alarmPush.webhook.keptPlaceholder') : t('alarmPush.webhook.secretPlaceholder')} />
      </Form.Item>
      <Tooltip title={t('alarmPush.webhook.remove')}>
        <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('alarmPush.webhook.remove')} className="push-webhook-remove" onClick={onRemove} />
      </Tooltip>
    </div>
  );
}

export interface StepCardProps {
  form: FormInstance;
  /** The step's index in the steps list. */
  name: number;
  /** How many steps the rule has (the last one may repeat). */
  count: number;
  orgId: string | undefined;
  open: boolean;
  lang: Lang;
  storedUrls: ReadonlySet<string>;
  onRemove: () => void;
}

export function StepCard({ form, name, count, orgId, open, lang, storedUrls, onRemove }: StepCardProps) {
  const { t } = useTranslation();
  const first = name === 0;
  return (
    <Card
      size="small"
      className="push-step-card"
      data-testid="push-step"
      title={
        <span>
          {t('alarmPush.step.title', { n: name + 1 })}
          {name === count - 1 && count > 1 ? <span className="push-muted"> · {t('alarmPush.step.last')}</span> : null}
        </span>
      }
      extra={
        <Tooltip title={t('alarmPush.step.remove')}>
          <Button type="text" danger size="small" icon={<DeleteOutlined />} aria-label={t('alarmPush.step.remove')} data-testid="push-step-remove" disabled={count <= 1} onClick={onRemove} />
        </Tooltip>
      }
    >
      <div className="push-form-grid">
        <Form.Item name={[name, 'afterMinutes']} label={t('alarmPush.step.after')} required extra={first ? t('alarmPush.step.afterFirstHint') : t('alarmPush.step.afterHint')}>
          {/* No min: a negative or first-step delay is refused with the shared rule's text, not silently clamped. */}
          <InputNumber max={MAX_DELAY_MINUTES} precision={0} style={{ width: '100%' }} suffix={t('alarmPush.step.minutes')} data-testid="push-step-after" />
        </Form.Item>
        <Form.Item name={[name, 'channels']} label={t('alarmPush.step.channels')} required>
          <Checkbox.Group data-testid="push-step-channels" options={PUSH_CHANNELS.map((c) => ({ value: c, label: t(`alarm.channel.${c}`) }))} />
        </Form.Item>
        <Form.Item name={[name, 'userIds']} label={t('alarmPush.recipient.users')}>
          <UserPicker orgId={orgId} open={open} testId="push-step-users" />
        </Form.Item>
        <Form.Item name={[name, 'roleIds']} label={t('alarmPush.recipient.roles')}>
          <RolePicker orgId={orgId} open={open} lang={lang} testId="push-step-roles" />
        </Form.Item>
        <Form.Item name={[name, 'emails']} label={t('alarmPush.recipient.emails')}>
          <ListInput placeholder={t('alarmPush.recipient.emailsPlaceholder')} testId="push-step-emails" />
        </Form.Item>
        <Form.Item name={[name, 'phones']} label={t('alarmPush.recipient.phones')}>
          <ListInput placeholder={t('alarmPush.recipient.phonesPlaceholder')} testId="push-step-phones" />
        </Form.Item>
      </div>
      <div className="push-muted push-step-hint">{t('alarmPush.recipient.hint')}</div>
      <Form.List name={[name, 'webhooks']}>
        {(fields, { add, remove }) => (
          <div className="push-webhooks">
            {fields.map((field) => (
              <WebhookRow key={field.key} form={form} step={name} name={field.name} storedUrls={storedUrls} onRemove={() => remove(field.name)} />
            ))}
            <Button size="small" icon={<PlusOutlined />} data-testid="push-webhook-add" disabled={fields.length >= MAX_WEBHOOKS} onClick={() => add({ url: '', secret: '' })}>
              {t('alarmPush.webhook.add')}
            </Button>
          </div>
        )}
      </Form.List>
    </Card>
  );
}

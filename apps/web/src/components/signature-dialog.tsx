// The electronic signature of an action (approving, rejecting, closing, signing a document): the
// meaning (a select of what this action may mean), the signer's password again, and optionally a
// reason or note. Enter in the password field signs. A refusal (a wrong password, two signatures
// by one person) is shown inline in the user's language and the dialog stays open, with the
// password cleared and focused again. Kept mounted (forceRender) and stacked above drawers.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Form, Input, Modal, Select, type FormRule, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SignatureMeaning } from '@iotc/shared/signature';
import { apiErrorText } from '../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../lib/form.ts';
import { useLang } from '../lib/language.ts';
import { DIALOG_OVER_DRAWER_Z } from '../lib/layers.ts';
import './reason-dialog.css';

export interface SignatureValues {
  meaning: SignatureMeaning;
  password: string;
  /** The trimmed reason or note ('' without the field). */
  reason: string;
}

export interface SignatureReason {
  label: string;
  placeholder?: string;
  required?: boolean;
  /** The rule's message when a required reason is blank. */
  requiredText?: string;
  maxLength: number;
}

export interface SignatureDialogProps {
  open: boolean;
  title: ReactNode;
  /** What this signature may mean; the first is chosen at first. */
  meanings: readonly SignatureMeaning[];
  /** The submit button's text (Approve, Reject, Close, Sign). */
  okText: string;
  /** A reason or note asked with the signature. */
  reason?: SignatureReason;
  /** A throw is shown in the dialog as the server's refusal. */
  onSubmit: (values: SignatureValues) => Promise<void>;
  onClose: () => void;
  afterClose?: () => void;
  /** Test ids `<testId>`, `<testId>-meaning`, `<testId>-password`, `<testId>-submit`, `<testId>-error`. */
  testId: string;
  danger?: boolean;
  className?: string;
  /** Above the fields: the record being signed. */
  children?: ReactNode;
}

interface FormValues {
  meaning?: SignatureMeaning;
  password?: string;
  reason?: string;
}

export function SignatureDialog({ open, title, meanings, okText, reason, onSubmit, onClose, afterClose, testId, danger, className, children }: SignatureDialogProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<FormValues>();
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const password = useRef<InputRef>(null);
  useRevalidateOnLanguage(form);

  useEffect(() => {
    if (open) form.setFieldsValue({ meaning: meanings[0], password: '', reason: '' });
  }, [open, form, meanings]);

  const submit = async () => {
    if (pending) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    setPending(true);
    try {
      await onSubmit({ meaning: values.meaning ?? meanings[0]!, password: values.password ?? '', reason: (values.reason ?? '').trim() });
    } catch (error) {
      setFailure(apiErrorText(error, lang));
      form.setFieldsValue({ password: '' });
      password.current?.focus();
    } finally {
      setPending(false);
    }
  };

  const reasonRules: FormRule[] = reason
    ? [...(reason.required ? [{ required: true, whitespace: true, message: reason.requiredText }] : []), { max: reason.maxLength, message: t('signature.tooLong', { max: reason.maxLength }) }]
    : [];

  return (
    <Modal
      open={open}
      title={title}
      className={className}
      okText={okText}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger, ...{ 'data-testid': `${testId}-submit` } }}
      confirmLoading={pending}
      onOk={() => void submit()}
      onCancel={onClose}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
        afterClose?.();
      }}
      forceRender
      zIndex={DIALOG_OVER_DRAWER_Z}
      data-testid={testId}
    >
      {children}
      <Alert type="info" showIcon className="reason-dialog-gap" title={t('signature.notice')} />
      {failure ? <Alert type="error" showIcon title={failure} data-testid={`${testId}-error`} className="reason-dialog-gap" role="alert" /> : null}
      <Form<FormValues> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)} onFinish={() => void submit()}>
        {reason ? (
          <Form.Item name="reason" label={reason.label} required={reason.required} rules={reasonRules}>
            <Input.TextArea id={`${testId}-reason`} rows={3} maxLength={reason.maxLength} showCount placeholder={reason.placeholder} />
          </Form.Item>
        ) : null}
        <Form.Item name="meaning" label={t('signature.meaning')} rules={[{ required: true, message: t('signature.meaningRequired') }]}>
          <Select
            id={`${testId}-meaning`}
            data-testid={`${testId}-meaning`}
            options={meanings.map((m) => ({ value: m, label: t(`signature.meaning.${m}`) }))}
            disabled={meanings.length === 1}
          />
        </Form.Item>
        <Form.Item name="password" label={t('signature.password')} rules={[{ required: true, message: t('signature.passwordRequired') }]}>
          <Input.Password
            ref={password}
            id={`${testId}-password`}
            data-testid={`${testId}-password`}
            autoComplete="current-password"
            autoFocus={!reason}
            onPressEnter={() => void submit()}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

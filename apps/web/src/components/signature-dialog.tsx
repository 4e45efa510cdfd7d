// The electronic signature of an action (approving, rejecting, closing, signing a document): the
// meaning (a select of what this action may mean), the signer's password again, and optionally a
// reason or note. Enter in the password field signs. A refusal (a wrong password, two signatures
// by one person) is shown inline in the user's language and the dialog stays open, with the
// password cleared and focused again. Kept mounted (forceRender) and stacked above drawers.
// Where external sign-in is configured, the signer may prove who they are by signing in again at
// the provider instead (a window of its own, pages/reauth-done of features/auth at its end; the
// proof it sends back replaces the password, once).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Modal, Select, type FormRule, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import { SSO_REAUTH_MESSAGE } from '@iotc/shared/account-api';
import { errorText, isErrorCode } from '@iotc/shared/errors';
import type { SignatureMeaning, SignatureProof } from '@iotc/shared/signature';
import { startSsoReauth, useSsoConfig } from '../api/sso.ts';
import { apiErrorText } from '../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../lib/form.ts';
import { useLang } from '../lib/language.ts';
import { DIALOG_OVER_DRAWER_Z } from '../lib/layers.ts';
import './reason-dialog.css';

export interface SignatureValues {
  meaning: SignatureMeaning;
  /** The password again, or the proof of a sign-in again at the external provider: what the request body carries. */
  proof: SignatureProof;
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
  /** Test ids `<testId>`, `<testId>-meaning`, `<testId>-password`, `<testId>-submit`, `<testId>-error`, `<testId>-sso`, `<testId>-sso-verified`. */
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
  const sso = useSsoConfig(open);
  // The proof of a sign-in again at the provider, single use: dropped after each attempt.
  const [ssoProof, setSsoProof] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  useRevalidateOnLanguage(form);

  useEffect(() => {
    if (open) form.setFieldsValue({ meaning: meanings[0], password: '', reason: '' });
  }, [open, form, meanings]);

  // The provider's window answers here (a BroadcastChannel reaches this origin's windows only) with the proof or the refusal's code.
  useEffect(() => {
    if (!verifying) return;
    const channel = new BroadcastChannel(SSO_REAUTH_MESSAGE);
    channel.onmessage = (e: MessageEvent<{ proof?: string; error?: string }>) => {
      setVerifying(false);
      if (e.data?.proof) {
        setSsoProof(e.data.proof);
        setFailure(null);
      } else setFailure(errorText(isErrorCode(e.data?.error) ? e.data.error : 'SSO_FAILED', lang));
    };
    return () => channel.close();
  }, [verifying, lang]);

  const verifyAtProvider = async () => {
    setFailure(null);
    // Opened at the click (a window opened after an await is blocked), pointed at the provider once known.
    const popup = window.open('about:blank', 'iotc-sso-reauth', 'popup,width=520,height=680');
    if (!popup) {
      setFailure(t('signature.ssoPopupBlocked'));
      return;
    }
    try {
      const { url } = await startSsoReauth();
      popup.location.href = url;
      setVerifying(true);
    } catch (error) {
      popup.close();
      setFailure(apiErrorText(error, lang));
    }
  };

  const submit = async () => {
    if (pending) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    setPending(true);
    const proof: SignatureProof = ssoProof ? { ssoProof } : { password: values.password ?? '' };
    try {
      await onSubmit({ meaning: values.meaning ?? meanings[0]!, proof, reason: (values.reason ?? '').trim() });
    } catch (error) {
      setFailure(apiErrorText(error, lang));
      form.setFieldsValue({ password: '' });
      // A proof is taken by the attempt, whatever its outcome: the next one needs the password or a new sign-in.
      setSsoProof(null);
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
        setSsoProof(null);
        setVerifying(false);
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
        {ssoProof ? (
          <Alert
            type="success"
            showIcon
            className="reason-dialog-gap"
            data-testid={`${testId}-sso-verified`}
            title={t('signature.ssoVerified', { name: sso.data?.name ?? '' })}
            action={
              <Button size="small" type="link" onClick={() => setSsoProof(null)}>
                {t('signature.usePassword')}
              </Button>
            }
          />
        ) : (
          <Form.Item
            name="password"
            label={t('signature.password')}
            rules={[{ required: true, message: t('signature.passwordRequired') }]}
            extra={
              sso.data?.enabled ? (
                <Button type="link" size="small" className="signature-sso" loading={verifying} onClick={() => void verifyAtProvider()} data-testid={`${testId}-sso`}>
                  {t('signature.ssoVerify', { name: sso.data.name ?? '' })}
                </Button>
              ) : null
            }
          >
            <Input.Password
              ref={password}
              id={`${testId}-password`}
              data-testid={`${testId}-password`}
              autoComplete="current-password"
              autoFocus={!reason}
              onPressEnter={() => void submit()}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

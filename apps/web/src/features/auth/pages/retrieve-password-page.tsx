// The retrieve-password screen (/view/login/retrievepasswordPage), the spec's password flow:
// account, then a four-digit code sent by e-mail or SMS, then the new password, then the success
// page. The verified code yields a short-lived ticket; when it runs out the user verifies again.
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input, Radio, Steps, type InputRef } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { userModelBodySchema, type CodeChannel, type SendCodeData, type UserModelData } from '@iotc/shared/account';
import { CODE_RESEND_MS } from '@iotc/shared/constants';
import { errorText } from '@iotc/shared/errors';
import { verificationCodeSchema } from '@iotc/shared/validation';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { useForgot } from '../api/forgot.ts';
import { useVerifyCode } from '../api/mail-verify.ts';
import { useSendCode } from '../api/send-mail.ts';
import { useUserModel } from '../api/sys-user-model.ts';
import { AccountFrame } from '../components/account-frame.tsx';
import { FormFailure, failureOf, type Failure } from '../components/form-failure.tsx';
import { confirmCheck, newPasswordCheck, schemaCheck, useCodeRule, type Check } from '../components/form-rules.ts';
import { useSecondsLeft } from '../components/use-seconds-left.ts';

type Step = 0 | 1 | 2;

const accountCheck = schemaCheck(userModelBodySchema.shape.account);
const codeSchemaCheck = schemaCheck(verificationCodeSchema);
const codeCheck: Check = (value) => codeSchemaCheck(typeof value === 'string' ? value.trim() : value);

/** The channel offered first: e-mail when bound (the spec's default), else SMS. */
function firstChannel(model: UserModelData): CodeChannel | undefined {
  if (model.email) return 'email';
  if (model.phone) return 'sms';
  return undefined;
}

export default function RetrievePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>(0);
  const [model, setModel] = useState<UserModelData | null>(null);
  const [ticket, setTicket] = useState<string | null>(null);
  // Kept here, not in the verify step: coming back to verify again must not allow an early resend.
  const [resendUntil, setResendUntil] = useState<number | null>(null);
  const [sent, setSent] = useState<SendCodeData | null>(null);

  const onAccount = (next: UserModelData) => {
    if (next.account !== model?.account) {
      setResendUntil(null);
      setSent(null);
    }
    setModel(next);
    setStep(1);
  };

  return (
    <AccountFrame testId="retrieve-page" data={{ 'data-step': String(step) }}>
      <Card className="login-card account-card retrieve-card">
        <div className="account-card-head">
          <h2 className="login-heading">{t('retrieve.heading')}</h2>
          <Link to="/login" data-testid="retrieve-back" className="account-back">
            <ArrowLeftOutlined /> {t('retrieve.back')}
          </Link>
        </div>
        <Steps
          className="retrieve-steps"
          size="small"
          titlePlacement="vertical"
          current={step}
          items={[
            { title: t('retrieve.step.account') },
            { title: t('retrieve.step.verify') },
            { title: t('retrieve.step.password') },
            { title: t('retrieve.step.done') },
          ]}
        />
        {step === 0 && <AccountStep initial={model?.account} onDone={onAccount} />}
        {step === 1 && model && (
          <VerifyStep
            model={model}
            resendUntil={resendUntil}
            sent={sent}
            onSent={(data) => {
              setSent(data);
              setResendUntil(Date.now() + (data.resendAfter > 0 ? data.resendAfter * 1000 : CODE_RESEND_MS));
            }}
            onWait={() => setResendUntil(Date.now() + CODE_RESEND_MS)}
            onCodeGone={() => setSent(null)}
            onBack={() => setStep(0)}
            onVerified={(next) => {
              setTicket(next);
              setSent(null);
              setStep(2);
            }}
          />
        )}
        {step === 2 && model && ticket && (
          <PasswordStep
            account={model.account}
            ticket={ticket}
            onDone={() => void navigate('/view/login/successPage?kind=reset', { replace: true })}
            onVerifyAgain={() => {
              setTicket(null);
              setStep(1);
            }}
          />
        )}
      </Card>
    </AccountFrame>
  );
}

/** (a) The account whose password is retrieved. */
function AccountStep({ initial, onDone }: { initial?: string; onDone: (model: UserModelData) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ account: string }>();
  const rule = useCodeRule();
  const lookup = useUserModel();
  const [failure, setFailure] = useState<Failure | null>(null);
  useRevalidateOnLanguage(form);

  const onFinish = async ({ account }: { account: string }) => {
    setFailure(null);
    try {
      onDone(await lookup.mutateAsync(account.trim()));
    } catch (error) {
      setFailure(failureOf(error));
    }
  };

  return (
    <>
      {failure && <FormFailure failure={failure} fallback="ACCOUNT_DEACTIVATED" />}
      <Form<{ account: string }>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        validateTrigger="onBlur"
        initialValues={{ account: initial ?? '' }}
        onFinish={onFinish}
        onValuesChange={() => failure && setFailure(null)}
      >
        <Form.Item name="account" label={t('retrieve.account')} extra={t('retrieve.accountHint')} rules={[rule(accountCheck)]}>
          <Input autoFocus autoComplete="username" placeholder={t('retrieve.accountPlaceholder')} maxLength={64} />
        </Form.Item>
        <Form.Item style={{ marginTop: 16, marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" block loading={lookup.isPending} data-testid="retrieve-next">
            {t('retrieve.next')}
          </Button>
        </Form.Item>
      </Form>
    </>
  );
}

interface VerifyForm {
  channel: CodeChannel;
  code: string;
}

/** (b) Security verification: a code sent by the chosen channel, typed back. */
function VerifyStep({
  model,
  resendUntil,
  sent,
  onSent,
  onWait,
  onCodeGone,
  onBack,
  onVerified,
}: {
  model: UserModelData;
  resendUntil: number | null;
  sent: SendCodeData | null;
  onSent: (data: SendCodeData) => void;
  onWait: () => void;
  onCodeGone: () => void;
  onBack: () => void;
  onVerified: (ticket: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<VerifyForm>();
  const rule = useCodeRule();
  const send = useSendCode();
  const verify = useVerifyCode();
  const [failure, setFailure] = useState<Failure | null>(null);
  const codeInput = useRef<InputRef>(null);
  const secondsLeft = useSecondsLeft(resendUntil);
  const initialChannel = sent?.channel ?? firstChannel(model);
  const channel = Form.useWatch('channel', form) ?? initialChannel;
  useRevalidateOnLanguage(form);

  // Once a code is on its way the next thing to do is typing it.
  const sentTo = sent?.to;
  useEffect(() => {
    if (sentTo) codeInput.current?.focus();
  }, [sentTo]);

  const onSend = async () => {
    if (!channel) return;
    setFailure(null);
    try {
      onSent(await send.mutateAsync({ account: model.account, channel }));
    } catch (error) {
      const f = failureOf(error);
      setFailure(f);
      if (f.code === 'CODE_RESEND_WAIT') onWait();
    }
  };

  const onFinish = async (values: VerifyForm) => {
    setFailure(null);
    try {
      const data = await verify.mutateAsync({ account: model.account, channel: values.channel, code: values.code.trim() });
      onVerified(data.ticket);
    } catch (error) {
      const f = failureOf(error);
      setFailure(f);
      form.resetFields(['code']);
      // An expired or used-up code cannot be tried again: a new one has to be asked for.
      if (f.code === 'CODE_EXPIRED' || f.code === 'CODE_TOO_MANY_ATTEMPTS') onCodeGone();
      codeInput.current?.focus();
    }
  };

  const option = (value: CodeChannel, masked: string | null) => (
    <Radio value={value} disabled={!masked} data-testid={`channel-${value}`}>
      <span className="channel-name">{t(value === 'email' ? 'retrieve.byEmail' : 'retrieve.bySms')}</span>
      <span className="channel-to" data-testid={`channel-${value}-to`}>
        {masked ?? t('retrieve.unbound')}
      </span>
    </Radio>
  );

  const sendLabel =
    secondsLeft > 0 ? t('retrieve.resendIn', { seconds: secondsLeft }) : sent ? t('retrieve.resend') : t('retrieve.getCode');

  return (
    <>
      {!initialChannel && (
        <Alert type="warning" showIcon title={t('retrieve.noChannel')} data-testid="no-channel" style={{ marginBottom: 20 }} />
      )}
      {failure && <FormFailure failure={failure} fallback="CODE_ERROR" />}
      <Form<VerifyForm>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        validateTrigger="onBlur"
        initialValues={{ channel: initialChannel, code: '' }}
        onFinish={onFinish}
        onValuesChange={(changed: Partial<VerifyForm>) => {
          if (failure && 'code' in changed) setFailure(null);
        }}
      >
        <div className="retrieve-account">
          {t('retrieve.accountLabel')}
          <strong data-testid="retrieve-account">{model.account}</strong>
        </div>
        <Form.Item name="channel" label={t('retrieve.channel')}>
          <Radio.Group className="channel-group" disabled={!initialChannel}>
            {option('email', model.email)}
            {option('sms', model.phone)}
          </Radio.Group>
        </Form.Item>
        <Form.Item
          label={t('retrieve.code')}
          htmlFor="code"
          extra={
            sent ? (
              <span data-testid="code-sent">
                {t(sent.channel === 'email' ? 'retrieve.sentEmail' : 'retrieve.sentSms', { to: sent.to })}
              </span>
            ) : undefined
          }
        >
          <div className="code-row">
            <Form.Item name="code" noStyle rules={[rule(codeCheck)]}>
              <Input
                id="code"
                ref={codeInput}
                inputMode="numeric"
                autoComplete="one-time-code"
                placeholder={t('retrieve.codePlaceholder')}
                maxLength={4}
              />
            </Form.Item>
            <Button
              className="send-code"
              data-testid="send-code"
              // Keyboard users start here: Enter asks for the code, then the code field takes over.
              autoFocus
              disabled={!channel || secondsLeft > 0}
              loading={send.isPending}
              onClick={() => void onSend()}
            >
              {sendLabel}
            </Button>
          </div>
        </Form.Item>
        <div className="step-actions">
          <Button onClick={onBack} data-testid="retrieve-prev">
            {t('retrieve.prev')}
          </Button>
          <Button type="primary" htmlType="submit" loading={verify.isPending} data-testid="verify-code">
            {t('retrieve.next')}
          </Button>
        </div>
      </Form>
    </>
  );
}

interface PasswordForm {
  password: string;
  confirmPassword: string;
}

/** (c) The new password, authorised by the ticket of the verified code. */
function PasswordStep({
  account,
  ticket,
  onDone,
  onVerifyAgain,
}: {
  account: string;
  ticket: string;
  onDone: () => void;
  onVerifyAgain: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<PasswordForm>();
  const rule = useCodeRule();
  const forgot = useForgot();
  const [failure, setFailure] = useState<Failure | null>(null);
  useRevalidateOnLanguage(form);

  const onFinish = async (values: PasswordForm) => {
    setFailure(null);
    try {
      await forgot.mutateAsync({ account, ticket, password: values.password, confirmPassword: values.confirmPassword });
      onDone();
    } catch (error) {
      setFailure(failureOf(error));
    }
  };

  const expired = failure?.code === 'RESET_EXPIRED';

  return (
    <>
      {failure && (
        <FormFailure
          failure={failure}
          fallback="CHANGE_FAILED"
          action={
            expired ? (
              <Button size="small" type="primary" data-testid="verify-again" onClick={onVerifyAgain}>
                {t('retrieve.verifyAgain')}
              </Button>
            ) : undefined
          }
        />
      )}
      <Form<PasswordForm>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        validateTrigger="onBlur"
        onFinish={onFinish}
        onValuesChange={() => failure && !expired && setFailure(null)}
      >
        <input type="text" name="username" autoComplete="username" value={account} readOnly hidden />
        <Form.Item
          name="password"
          label={t('retrieve.newPassword')}
          extra={<span data-testid="password-hint">{t('changePassword.newPasswordHint')}</span>}
          rules={[rule(newPasswordCheck)]}
        >
          <Input.Password autoFocus autoComplete="new-password" placeholder={t('retrieve.newPasswordPlaceholder')} maxLength={128} />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('retrieve.confirmPassword')}
          dependencies={['password']}
          rules={[rule(confirmCheck(() => form.getFieldValue('password')))]}
        >
          <Input.Password autoComplete="new-password" placeholder={t('retrieve.confirmPasswordPlaceholder')} maxLength={128} />
        </Form.Item>
        <Form.Item style={{ marginTop: 16, marginBottom: 0 }}>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={forgot.isPending}
            disabled={expired}
            title={expired ? errorText('RESET_EXPIRED', lang) : undefined}
            data-testid="reset-submit"
          >
            {t('retrieve.submit')}
          </Button>
        </Form.Item>
      </Form>
    </>
  );
}

// The change-password screen (/view/login/confirmPassword, the spec's 'update password'):
// account, original password, new password, confirmation and a picture captcha. Works signed in
// (account fixed to the stored user) and signed out (a new user changing the initial password).
import { useState } from 'react';
import { Alert, Button, Card, Form, Input, type FormRule } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import { errorText, isErrorCode, type ErrorCode } from '@iotc/shared/errors';
import { isValidPassword } from '@iotc/shared/validation';
import { ApiError } from '../../../api/client.ts';
import { useResetPassword } from '../../../api/reset-password.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { getToken, getUserinfo } from '../../../lib/session.ts';
import { AccountFrame } from '../components/account-frame.tsx';
import { CaptchaField, captchaCheck, useFormCaptcha } from '../components/captcha-field.tsx';

interface ChangePasswordForm {
  account: string;
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
  captcha: string;
}

type Field = keyof ChangePasswordForm;

interface Failure {
  code: string | null;
  message: string | null;
}

/** The spec's section 5 rules, worded by the shared error codes the server answers with too. */
function issue(field: Field, v: Partial<ChangePasswordForm>): ErrorCode | undefined {
  switch (field) {
    case 'account':
      return v.account?.trim() ? undefined : 'ACCOUNT_REQUIRED';
    case 'oldPassword':
      return v.oldPassword ? undefined : 'PASSWORD_REQUIRED';
    case 'newPassword':
      if (!v.newPassword) return 'PASSWORD_REQUIRED';
      if (!isValidPassword(v.newPassword)) return 'PASSWORD_FORMAT';
      return v.newPassword === v.oldPassword ? 'PASSWORD_SAME_AS_OLD' : undefined;
    case 'confirmPassword':
      if (!v.confirmPassword) return 'PASSWORD_REQUIRED';
      return v.confirmPassword === v.newPassword ? undefined : 'PASSWORD_CONFIRM_MISMATCH';
    case 'captcha':
      return captchaCheck(v.captcha);
  }
}

export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const [form] = Form.useForm<ChangePasswordForm>();
  const captchaState = useFormCaptcha(form);
  const { id: captchaId, renew: newCaptcha } = captchaState;
  const change = useResetPassword();
  const [failure, setFailure] = useState<Failure | null>(null);
  // Read once: a signed-in user changes their own password, so the account is not editable.
  const [signedIn] = useState(() => Boolean(getToken()));
  const [ownAccount] = useState(() => (signedIn ? getUserinfo()?.account : undefined));

  useRevalidateOnLanguage(form);

  const rule = (field: Field): FormRule => ({
    validator: () => {
      const code = issue(field, form.getFieldsValue());
      return code ? Promise.reject(new Error(errorText(code, lang))) : Promise.resolve();
    },
  });

  const onFinish = async (values: ChangePasswordForm) => {
    setFailure(null);
    if (!captchaId) {
      setFailure({ code: 'CAPTCHA_ERROR', message: null });
      newCaptcha();
      return;
    }
    try {
      await change.mutateAsync({
        account: values.account.trim(),
        oldPassword: values.oldPassword,
        newPassword: values.newPassword,
        confirmPassword: values.confirmPassword,
        captchaId,
        captcha: values.captcha.trim(),
      });
      void navigate('/view/login/successPage?kind=modified', { replace: true });
    } catch (error) {
      setFailure(
        error instanceof ApiError ? { code: error.errorcode, message: error.errormsg } : { code: null, message: null },
      );
      // Any failed attempt uses the captcha up on the server.
      newCaptcha();
    }
  };

  const failureText = (f: Failure): string => {
    if (isErrorCode(f.code)) return errorText(f.code, lang);
    if (f.code === 'TIMEOUT') return t('error.timeout');
    if (f.code === 'NETWORK') return t('error.network');
    return f.message ?? errorText('CHANGE_FAILED', lang);
  };

  return (
    <AccountFrame testId="change-password-page">
      <Card className="login-card account-card">
        <div className="account-card-head">
          <h2 className="login-heading">{t('changePassword.heading')}</h2>
          <Link to={signedIn ? DEFAULT_LANDING : '/login'} data-testid="change-back" className="account-back">
            <ArrowLeftOutlined /> {t('changePassword.back')}
          </Link>
        </div>
        {failure && (
          <Alert
            type="error"
            showIcon
            title={failureText(failure)}
            data-testid="change-error"
            data-errorcode={failure.code ?? undefined}
            style={{ marginBottom: 20 }}
          />
        )}
        <Form<ChangePasswordForm>
          form={form}
          layout="vertical"
          size="large"
          requiredMark={false}
          validateTrigger="onBlur"
          initialValues={{ account: ownAccount ?? '' }}
          onFinish={onFinish}
          onValuesChange={() => failure && setFailure(null)}
        >
          <Form.Item name="account" label={t('changePassword.account')} rules={[rule('account')]}>
            <Input
              autoFocus={!ownAccount}
              readOnly={Boolean(ownAccount)}
              variant={ownAccount ? 'filled' : 'outlined'}
              autoComplete="username"
              placeholder={t('changePassword.accountPlaceholder')}
              maxLength={64}
            />
          </Form.Item>
          <Form.Item name="oldPassword" label={t('changePassword.oldPassword')} rules={[rule('oldPassword')]}>
            <Input.Password
              autoFocus={Boolean(ownAccount)}
              autoComplete="current-password"
              placeholder={t('changePassword.oldPasswordPlaceholder')}
              maxLength={128}
            />
          </Form.Item>
          <Form.Item
            name="newPassword"
            label={t('changePassword.newPassword')}
            extra={<span data-testid="new-password-hint">{t('changePassword.newPasswordHint')}</span>}
            dependencies={['oldPassword']}
            rules={[rule('newPassword')]}
          >
            <Input.Password
              autoComplete="new-password"
              placeholder={t('changePassword.newPasswordPlaceholder')}
              maxLength={128}
            />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('changePassword.confirmPassword')}
            dependencies={['newPassword']}
            rules={[rule('confirmPassword')]}
          >
            <Input.Password
              autoComplete="new-password"
              placeholder={t('changePassword.confirmPasswordPlaceholder')}
              maxLength={128}
            />
          </Form.Item>
          <CaptchaField state={captchaState} rule={rule('captcha')} />
          <Form.Item style={{ marginTop: 16, marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block loading={change.isPending} id="change-submit">
              {t('changePassword.submit')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </AccountFrame>
  );
}

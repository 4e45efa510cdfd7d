// The bind-user screen (/view/login/bindUserPage?openid=<pending id>): after an external sign-in
// that no account is bound to yet, the user proves an existing account with its password; the
// identity is bound and the user is signed in as after a login. Without a pending sign-in the
// page says why: external sign-in is not configured at all, or the pending one has expired.
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, Result, Spin } from 'antd';
import { ArrowLeftOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { bindUserQuerySchema } from '@iotc/shared/account';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import { errorText } from '@iotc/shared/errors';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useLang } from '../../../lib/language.ts';
import { startSession } from '../../../lib/session.ts';
import { useBindUser } from '../api/bind-user.ts';
import { ssoConfigQueryOptions } from '../../../api/sso.ts';
import { AccountFrame } from '../components/account-frame.tsx';
import { GoToLogin } from '../components/go-to-login.tsx';
import { MustChangePasswordModal } from '../components/must-change-password-modal.tsx';
import { FormFailure, failureOf, type Failure } from '../components/form-failure.tsx';
import { schemaCheck, useCodeRule } from '../components/form-rules.ts';

/** How long the success message stays before the console opens. */
export const BIND_REDIRECT_MS = 1_000;

interface BindForm {
  account: string;
  password: string;
}

const accountCheck = schemaCheck(bindUserQuerySchema.shape.userCode);
const passwordCheck = schemaCheck(bindUserQuerySchema.shape.password);

export default function BindUserPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const openid = search.get('openid')?.trim() ?? '';
  const [form] = Form.useForm<BindForm>();
  const rule = useCodeRule();
  const bind = useBindUser();
  // Asked only when there is no pending sign-in to bind: it tells why.
  const sso = useQuery({ ...ssoConfigQueryOptions, enabled: !openid });
  const [failure, setFailure] = useState<Failure | null>(null);
  const [bound, setBound] = useState(false);
  // An account still on its initial password is offered the change, as after any sign-in.
  const [mustChange, setMustChange] = useState(false);
  useRevalidateOnLanguage(form);

  useEffect(() => {
    if (!bound || mustChange) return;
    const timer = setTimeout(() => void navigate(DEFAULT_LANDING, { replace: true }), BIND_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [bound, mustChange, navigate]);

  const onFinish = async (values: BindForm) => {
    setFailure(null);
    try {
      const data = await bind.mutateAsync({ openid, userCode: values.account.trim(), password: values.password });
      startSession(data);
      setMustChange(data.mustChangePassword);
      setBound(true);
    } catch (error) {
      setFailure(failureOf(error));
    }
  };

  if (!openid) {
    // Whether external sign-in is configured decides the reason; an unanswered check says expired.
    if (sso.isPending) {
      return (
        <AccountFrame testId="bind-page" data={{ 'data-state': 'checking' }}>
          <Card className="login-card account-card">
            <Spin />
          </Card>
        </AccountFrame>
      );
    }
    const disabled = sso.data?.enabled === false;
    return (
      <AccountFrame testId="bind-page" data={{ 'data-state': disabled ? 'disabled' : 'expired' }}>
        <Card className="login-card account-card">
          <Result
            status="warning"
            title={
              disabled ? (
                <span data-testid="bind-not-configured">{errorText('SSO_DISABLED', lang)}</span>
              ) : (
                <span data-testid="bind-expired">{errorText('BIND_EXPIRED', lang)}</span>
              )
            }
            extra={
              <GoToLogin primary testId="bind-to-login">
                {t('bind.toLogin')}
              </GoToLogin>
            }
          />
        </Card>
      </AccountFrame>
    );
  }

  return (
    <AccountFrame testId="bind-page" data={{ 'data-state': bound ? 'bound' : 'form' }}>
      <Card className="login-card account-card">
        <div className="account-card-head">
          <h2 className="login-heading">{t('bind.heading')}</h2>
          <Link to="/login" data-testid="bind-back" className="account-back">
            <ArrowLeftOutlined /> {t('bind.back')}
          </Link>
        </div>
        <p className="account-intro">{t('bind.intro')}</p>
        {bound && (
          <Alert type="success" showIcon title={t('bind.success')} data-testid="bind-success" role="status" style={{ marginBottom: 20 }} />
        )}
        {failure && <FormFailure failure={failure} fallback="LOGIN_FAILED" />}
        <Form<BindForm>
          form={form}
          layout="vertical"
          size="large"
          requiredMark={false}
          disabled={bound}
          onFinish={onFinish}
          onValuesChange={() => failure && setFailure(null)}
        >
          <Form.Item name="account" label={t('bind.account')} rules={[rule(accountCheck)]}>
            <Input autoFocus autoComplete="username" prefix={<UserOutlined />} placeholder={t('bind.accountPlaceholder')} maxLength={64} />
          </Form.Item>
          <Form.Item name="password" label={t('bind.password')} rules={[rule(passwordCheck)]}>
            <Input.Password
              autoComplete="current-password"
              prefix={<LockOutlined />}
              placeholder={t('bind.passwordPlaceholder')}
              maxLength={128}
            />
          </Form.Item>
          <Form.Item style={{ marginTop: 16, marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block loading={bind.isPending} data-testid="bind-submit">
              {t('bind.submit')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <MustChangePasswordModal open={bound && mustChange} landing={DEFAULT_LANDING} />
    </AccountFrame>
  );
}

// The login screen (/login): account, password, stay-logged-in-for-a-week, register and
// forgot-password links, language switch; server refusals shown inline; the initial-password
// prompt after login; external sign-in when the server has a provider, and its failure
// (`?ssoError=<code>`, set by the server's callback) shown above the form.
import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Divider, Form } from 'antd';
// The field components themselves: antd's Input module brings TextArea, Search, OTP and Group too.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, LoginOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { DEFAULT_LANDING, LOGIN_PERIOD_DAYS } from '@iotc/shared/constants';
import { useLogin } from '../../../api/login.ts';
import { ApiError } from '../../../api/client.ts';
import { useLang } from '../../../lib/language.ts';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { safeRedirect } from '../../../lib/navigation.ts';
import { startSession } from '../../../lib/session.ts';
import { useSsoConfig } from '../../../api/sso.ts';
import type * as Errors from '@iotc/shared/errors';
import { AccountFrame } from '../components/account-frame.tsx';
import { AccountCard } from '../components/account-card.tsx';
import { lazyPart } from '../../../components/lazy-part.tsx';

// The initial-password prompt (an antd Modal) is fetched when a sign-in needs it.
const MustChangePasswordModal = lazyPart(() => import('../components/must-change-password-modal.tsx').then((m) => m.MustChangePasswordModal));

interface LoginForm {
  account: string;
  password: string;
  period?: boolean;
}

interface Failure {
  code: string | null;
  message: string | null;
}

// The error catalogue (every API error in both languages, 11 KB gzip) is fetched when a failure
// may need it, with the sign-in request or for a provider's refusal in the address, not with the
// page: it is worded only once it is here.
type Catalogue = typeof Errors;
const loadCatalogue = (): Promise<Catalogue | null> => import('@iotc/shared/errors').catch(() => null);

// Server error codes are worded from the shared catalogue, so a language switch re-words the error.
export default function LoginPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [form] = Form.useForm<LoginForm>();
  const login = useLogin();
  const [failure, setFailure] = useState<Failure | null>(null);
  const [mustChange, setMustChange] = useState(false);
  const sso = useSsoConfig();
  const ssoError = search.get('ssoError');
  const [catalogue, setCatalogue] = useState<Catalogue | null>(null);

  useEffect(() => {
    if (ssoError === null) return;
    let live = true;
    void loadCatalogue().then((c) => live && setCatalogue(c));
    return () => {
      live = false;
    };
  }, [ssoError]);

  const target = safeRedirect(search.get('redirect'));
  const landing = target && !target.startsWith('/login') ? target : DEFAULT_LANDING;

  useRevalidateOnLanguage(form);

  const onFinish = async (values: LoginForm) => {
    setFailure(null);
    const wording = loadCatalogue();
    try {
      const data = await login.mutateAsync({
        account: values.account.trim(),
        password: values.password,
        ...(values.period ? { period: LOGIN_PERIOD_DAYS as 7 } : {}),
      });
      startSession(data);
      if (data.mustChangePassword) setMustChange(true);
      else void navigate(landing, { replace: true });
    } catch (error) {
      const loaded = await wording;
      if (loaded) setCatalogue(loaded);
      setFailure(
        error instanceof ApiError ? { code: error.errorcode, message: error.errormsg } : { code: null, message: null },
      );
    }
  };

  const failureText = (f: Failure): string => {
    // Without the catalogue (its chunk did not load either) the network is what failed.
    if (!catalogue || f.code === 'NETWORK') return t('error.network');
    if (catalogue.isErrorCode(f.code)) return catalogue.errorText(f.code, lang);
    if (f.code === 'TIMEOUT') return catalogue.errorText('LOGIN_TIMEOUT', lang);
    return f.message ?? catalogue.errorText('LOGIN_FAILED', lang);
  };

  return (
    <AccountFrame testId="login-page">
      <AccountCard className="login-card">
        <h2 className="login-heading">{t('login.heading')}</h2>
        {ssoError !== null && catalogue && !failure && (
          <Alert
            type="error"
            showIcon
            title={catalogue.errorText(catalogue.isErrorCode(ssoError) ? ssoError : 'SSO_FAILED', lang)}
            data-testid="sso-error"
            data-errorcode={ssoError}
            style={{ marginBottom: 20 }}
          />
        )}
        {failure && (
          <Alert
            type="error"
            showIcon
            title={failureText(failure)}
            data-testid="login-error"
            data-errorcode={failure.code ?? undefined}
            style={{ marginBottom: 20 }}
          />
        )}
        <Form<LoginForm>
          form={form}
          layout="vertical"
          size="large"
          requiredMark={false}
          initialValues={{ period: false }}
          onFinish={onFinish}
          onValuesChange={() => failure && setFailure(null)}
        >
          <Form.Item
            name="account"
            label={t('login.account')}
            rules={[{ required: true, whitespace: true, message: t('login.accountRequired') }]}
          >
            <Input
              autoFocus
              autoComplete="username"
              prefix={<UserOutlined />}
              placeholder={t('login.accountPlaceholder')}
              maxLength={64}
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.password')}
            rules={[{ required: true, message: t('login.passwordRequired') }]}
          >
            <Password
              autoComplete="current-password"
              prefix={<LockOutlined />}
              placeholder={t('login.passwordPlaceholder')}
              maxLength={128}
            />
          </Form.Item>
          <div className="login-options">
            <Form.Item name="period" valuePropName="checked" noStyle>
              <Checkbox>{t('login.period')}</Checkbox>
            </Form.Item>
            <span className="login-links">
              <Link to="/view/login/newUser" id="register-link">
                {t('register.link')}
              </Link>
              <Link to="/view/login/retrievepasswordPage" id="forgot-password">
                {t('login.forgot')}
              </Link>
            </span>
          </div>
          <Form.Item style={{ marginTop: 24, marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block loading={login.isPending} id="login-submit">
              {t('login.submit')}
            </Button>
          </Form.Item>
        </Form>
        {sso.data?.enabled && (
          <>
            <Divider plain className="login-divider">
              {t('sso.or')}
            </Divider>
            <Button
              block
              size="large"
              icon={<LoginOutlined />}
              data-testid="sso-login"
              onClick={() => {
                // A full navigation: the server answers with a redirect to the provider; the
                // console then lands on real-time monitoring (the spec's token-in-address rule).
                window.location.href = new URL(sso.data.startUrl, window.location.origin).toString();
              }}
            >
              {t('sso.signIn', { name: sso.data.name ?? t('sso.defaultName') })}
            </Button>
          </>
        )}
      </AccountCard>

      <MustChangePasswordModal when={mustChange} open={mustChange} landing={landing} />
    </AccountFrame>
  );
}

// The register screen (/view/login/newUser): a new account together with its own new
// organisation, confirmed by the picture captcha. The fields follow the shared register schema,
// so the form and the server refuse the same input with the same words.
import { useState } from 'react';
import { Button, Card, Col, Form, Input, Row } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { registerBodySchema } from '@iotc/shared/account';
import { useRevalidateOnLanguage } from '../../../lib/form.ts';
import { useRegister } from '../api/register.ts';
import { AccountFrame } from '../components/account-frame.tsx';
import { CaptchaField, captchaCheck, useFormCaptcha } from '../components/captcha-field.tsx';
import { FormFailure, failureOf, type Failure } from '../components/form-failure.tsx';
import { confirmCheck, newPasswordCheck, schemaCheck, useCodeRule } from '../components/form-rules.ts';

interface RegisterForm {
  account: string;
  name: string;
  orgName: string;
  email: string;
  phone?: string;
  password: string;
  confirmPassword: string;
  captcha: string;
}

const field = registerBodySchema.shape;
const checks = {
  account: schemaCheck(field.account),
  name: schemaCheck(field.name),
  orgName: schemaCheck(field.orgName),
  email: schemaCheck(field.email),
  phone: schemaCheck(field.phone),
};

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterForm>();
  const captcha = useFormCaptcha(form);
  const submit = useRegister();
  const rule = useCodeRule();
  const [failure, setFailure] = useState<Failure | null>(null);

  useRevalidateOnLanguage(form);

  const onFinish = async (values: RegisterForm) => {
    setFailure(null);
    if (!captcha.id) {
      setFailure({ code: 'CAPTCHA_ERROR', message: null });
      captcha.renew();
      return;
    }
    try {
      const data = await submit.mutateAsync({
        account: values.account.trim(),
        name: values.name.trim(),
        orgName: values.orgName.trim(),
        email: values.email.trim(),
        phone: values.phone?.trim() || undefined,
        password: values.password,
        confirmPassword: values.confirmPassword,
        captchaId: captcha.id,
        captcha: values.captcha.trim(),
      });
      void navigate('/view/login/successPage?kind=registered', { replace: true, state: data });
    } catch (error) {
      setFailure(failureOf(error));
      // Any failed attempt uses the captcha up on the server.
      captcha.renew();
    }
  };

  return (
    <AccountFrame testId="register-page">
      <Card className="login-card account-card register-card">
        <div className="account-card-head">
          <h2 className="login-heading">{t('register.heading')}</h2>
          <Link to="/login" data-testid="register-back" className="account-back">
            <ArrowLeftOutlined /> {t('register.back')}
          </Link>
        </div>
        {failure && <FormFailure failure={failure} fallback="INTERNAL" />}
        <Form<RegisterForm>
          form={form}
          layout="vertical"
          size="large"
          requiredMark={false}
          validateTrigger="onBlur"
          onFinish={onFinish}
          onValuesChange={() => failure && setFailure(null)}
        >
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="account" label={t('register.account')} rules={[rule(checks.account)]}>
                <Input autoFocus autoComplete="username" placeholder={t('register.accountPlaceholder')} maxLength={32} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="name" label={t('register.name')} rules={[rule(checks.name)]}>
                <Input autoComplete="name" placeholder={t('register.namePlaceholder')} maxLength={64} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="orgName" label={t('register.orgName')} rules={[rule(checks.orgName)]}>
                <Input autoComplete="organization" placeholder={t('register.orgNamePlaceholder')} maxLength={100} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="email" label={t('register.email')} rules={[rule(checks.email)]}>
                <Input type="email" autoComplete="email" placeholder={t('register.emailPlaceholder')} maxLength={254} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="phone" label={t('register.phone')} rules={[rule(checks.phone)]}>
                <Input type="tel" autoComplete="tel" placeholder={t('register.phonePlaceholder')} maxLength={11} />
              </Form.Item>
            </Col>
            <Col span={24} className="register-password-pair">
              <Row gutter={16}>
                <Col span={12}>
                  <Form.Item name="password" label={t('register.password')} rules={[rule(newPasswordCheck)]}>
                    <Input.Password autoComplete="new-password" placeholder={t('register.passwordPlaceholder')} maxLength={128} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item
                    name="confirmPassword"
                    label={t('register.confirmPassword')}
                    dependencies={['password']}
                    rules={[rule(confirmCheck(() => form.getFieldValue('password')))]}
                  >
                    <Input.Password
                      autoComplete="new-password"
                      placeholder={t('register.confirmPasswordPlaceholder')}
                      maxLength={128}
                    />
                  </Form.Item>
                </Col>
              </Row>
              {/* One rule for both password fields: said once, under the pair. */}
              <div className="register-password-rule" data-testid="password-hint">
                {t('changePassword.newPasswordHint')}
              </div>
            </Col>
            <Col span={24}>
              <CaptchaField state={captcha} rule={rule(captchaCheck)} />
            </Col>
          </Row>
          <Form.Item style={{ marginTop: 8, marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block loading={submit.isPending} data-testid="register-submit">
              {t('register.submit')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </AccountFrame>
  );
}

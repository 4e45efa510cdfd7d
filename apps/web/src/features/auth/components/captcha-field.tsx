// The picture captcha of the account forms (change password, register): the server's
// single-use picture, a field for its characters, and a way to get another picture.
import { useEffect } from 'react';
import { Button, Form, Input, Spin, type FormInstance, type FormRule } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCaptcha } from '../../../api/captcha.ts';
import type { Check } from './form-rules.ts';

/** The server's picture captcha has this many characters. */
export const CAPTCHA_LENGTH = 4;

export const captchaCheck: Check = (value) => {
  const code = typeof value === 'string' ? value.trim() : '';
  if (!code) return 'CAPTCHA_REQUIRED';
  // A wrong length cannot match; catching it here keeps the captcha from being used up.
  return code.length === CAPTCHA_LENGTH ? undefined : 'CAPTCHA_ERROR';
};

/**
 * The captcha of a form whose field is named `captcha`: a typed code belongs to the picture it
 * was read from, so a new picture (refresh, expiry, after a failed attempt) starts it empty.
 */
export function useFormCaptcha(form: FormInstance) {
  const captcha = useCaptcha();
  const id = captcha.data?.id;
  useEffect(() => {
    form.resetFields(['captcha']);
  }, [id, form]);
  const renew = () => {
    form.resetFields(['captcha']);
    void captcha.refetch();
  };
  return { captcha, id, renew };
}

export function CaptchaField({ state, rule }: { state: ReturnType<typeof useFormCaptcha>; rule: FormRule }) {
  const { t } = useTranslation();
  const { captcha, renew } = state;

  const image = captcha.data ? (
    <img src={captcha.data.image} alt={t('changePassword.captchaAlt')} data-testid="captcha-image" data-captcha-id={captcha.data.id} />
  ) : (
    <span className="captcha-placeholder">{captcha.isError ? t('changePassword.captchaFailed') : ''}</span>
  );

  return (
    <Form.Item
      label={t('changePassword.captcha')}
      htmlFor="captcha"
      extra={
        <Button
          type="link"
          size="small"
          className="captcha-refresh"
          icon={<ReloadOutlined />}
          data-testid="captcha-refresh"
          disabled={captcha.isFetching}
          onClick={renew}
        >
          {t('changePassword.captchaRefresh')}
        </Button>
      }
    >
      <div className="captcha-row">
        <Form.Item name="captcha" noStyle rules={[rule]}>
          <Input id="captcha" autoComplete="off" placeholder={t('changePassword.captchaPlaceholder')} maxLength={CAPTCHA_LENGTH} />
        </Form.Item>
        <Spin spinning={captcha.isFetching} size="small">
          <button
            type="button"
            className="captcha-image"
            data-testid="captcha-box"
            aria-busy={captcha.isFetching}
            title={t('changePassword.captchaAlt')}
            disabled={captcha.isFetching}
            onClick={renew}
          >
            {image}
          </button>
        </Spin>
      </div>
    </Form.Item>
  );
}

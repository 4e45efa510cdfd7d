// The frame of the account pages (login, change password, success): language switch, product
// title and footer around the page's own card, all of it the page's main landmark.
import type { ReactNode } from 'react';
import { CloudServerOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../../components/language-switch.tsx';

export function AccountFrame({ testId, data, children }: { testId: string; data?: Record<`data-${string}`, string>; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="login-page" data-testid={testId} {...data}>
      <div className="login-lang">
        <LanguageSwitch />
      </div>
      <div className="login-brand">
        <CloudServerOutlined className="login-brand-logo" />
        <h1 className="login-brand-title" data-testid="product-title">
          {t('app.title')}
        </h1>
        <div className="login-brand-subtitle">{t('app.subtitle')}</div>
      </div>
      {children}
      <div className="login-footer">{t('login.footer')}</div>
    </main>
  );
}

// The account success page (/view/login/successPage): the password was modified (`kind=modified`)
// or reset (`kind=reset`); a go-to-login link, and a way back to the console when signed in.
import { useState } from 'react';
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import { getToken } from '../../../lib/session.ts';
import { AccountFrame } from '../components/account-frame.tsx';

export default function SuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [signedIn] = useState(() => Boolean(getToken()));
  const kind = search.get('kind') === 'reset' ? 'reset' : 'modified';

  const actions = [
    <Button
      key="login"
      type={signedIn ? 'default' : 'primary'}
      href="/login"
      data-testid="go-to-login"
      onClick={(e) => {
        // A real link (copyable, opens in a new tab with a modifier), followed inside the app on a plain click.
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        void navigate('/login');
      }}
    >
      {t('success.goToLogin')}
    </Button>,
  ];
  if (signedIn) {
    actions.unshift(
      <Button key="console" type="primary" data-testid="back-to-console" onClick={() => void navigate(DEFAULT_LANDING)}>
        {t('success.backToConsole')}
      </Button>,
    );
  }

  return (
    <AccountFrame testId="success-page" data={{ 'data-kind': kind }}>
      <Card className="login-card account-card">
        <Result
          status="success"
          title={<span data-testid="success-title">{t(kind === 'reset' ? 'success.reset' : 'success.modified')}</span>}
          subTitle={t('success.hint')}
          extra={actions}
        />
      </Card>
    </AccountFrame>
  );
}

// The account success page (/view/login/successPage): the password was modified (`kind=modified`)
// or reset (`kind=reset`), or a new account was registered (`kind=registered`); a go-to-login
// link, and a way back to the console when signed in.
import { useState } from 'react';
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { RegisterData } from '@iotc/shared/account';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import { getToken } from '../../../lib/session.ts';
import { AccountFrame } from '../components/account-frame.tsx';
import { GoToLogin } from '../components/go-to-login.tsx';

const KINDS = ['modified', 'reset', 'registered'] as const;
type Kind = (typeof KINDS)[number];

function isKind(value: string | null): value is Kind {
  return (KINDS as readonly (string | null)[]).includes(value);
}

/** The registration's answer, handed over in the navigation state (absent after a reload). */
function registered(state: unknown): RegisterData | undefined {
  const v = state as Partial<RegisterData> | null;
  return v && typeof v.account === 'string' && typeof v.orgName === 'string' ? { account: v.account, orgName: v.orgName } : undefined;
}

export default function SuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const location = useLocation();
  const [signedIn] = useState(() => Boolean(getToken()));
  const requested = search.get('kind');
  const kind: Kind = isKind(requested) ? requested : 'modified';
  const account = kind === 'registered' ? registered(location.state) : undefined;
  const title = { modified: t('success.modified'), reset: t('success.reset'), registered: t('success.registered') }[kind];
  const hint =
    kind !== 'registered'
      ? t('success.hint')
      : account
        ? t('success.registeredHintAccount', account)
        : t('success.registeredHint');

  const actions = [
    <GoToLogin key="login" primary={!signedIn} testId="go-to-login">
      {t('success.goToLogin')}
    </GoToLogin>,
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
          title={<span data-testid="success-title">{title}</span>}
          subTitle={<span data-testid="success-hint">{hint}</span>}
          extra={actions}
        />
      </Card>
    </AccountFrame>
  );
}

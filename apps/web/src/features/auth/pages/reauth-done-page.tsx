// Where the provider's answer to a sign-in again lands (/view/login/reauthDone, in the window the
// signature dialog opened): the proof or the refusal's code comes in the fragment and goes to the
// console's windows of this origin by a BroadcastChannel (the console's Cross-Origin-Opener-Policy
// cuts this window off from its opener once it has been to the provider, so there is no opener to
// post to), and this window closes. Where it cannot close, it says what happened.
import { useEffect, useState } from 'react';
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { SSO_REAUTH_MESSAGE } from '@iotc/shared/account-api';
import { errorText, isErrorCode } from '@iotc/shared/errors';
import { useLang } from '../../../lib/language.ts';
import { AccountFrame } from '../components/account-frame.tsx';

function answer(): { proof?: string; error?: string } {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const proof = params.get('proof');
  if (proof) return { proof };
  return { error: params.get('error') ?? 'SSO_FAILED' };
}

export default function ReauthDonePage() {
  const { t } = useTranslation();
  const lang = useLang();
  // Read once: the fragment is dropped from the address at once, so the proof is not kept in the history.
  const [result] = useState(answer);

  useEffect(() => {
    window.history.replaceState(null, '', window.location.pathname);
    const channel = new BroadcastChannel(SSO_REAUTH_MESSAGE);
    channel.postMessage(result);
    channel.close();
    window.close();
  }, [result]);

  const failed = !result.proof;
  return (
    <AccountFrame testId="reauth-done-page" data={{ 'data-result': failed ? 'failed' : 'ok' }}>
      <Card className="login-card account-card">
        <Result
          status={failed ? 'error' : 'success'}
          title={<span data-testid="reauth-done-title">{failed ? t('reauthDone.failed') : t('reauthDone.title')}</span>}
          subTitle={<span data-testid="reauth-done-hint">{failed ? errorText(isErrorCode(result.error) ? result.error : 'SSO_FAILED', lang) : t('reauthDone.ok')}</span>}
          extra={[
            <Button key="close" onClick={() => window.close()}>
              {t('reauthDone.close')}
            </Button>,
          ]}
        />
      </Card>
    </AccountFrame>
  );
}

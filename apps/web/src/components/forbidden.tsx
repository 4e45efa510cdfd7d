// The 403 page: shown in place of a screen the user's menu does not grant, with a way back to
// the default landing, which everyone may open.
import { Button } from 'antd';
import { LazyResult } from './lazy-result.tsx';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import { errorText } from '@iotc/shared/errors';
import { useLang } from '../lib/language.ts';

export function Forbidden() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  return (
    <LazyResult
      data-testid="forbidden-page"
      status="403"
      title={<span data-testid="forbidden-title">{errorText('NO_PERMISSION', lang)}</span>}
      subTitle={t('forbidden.subtitle')}
      extra={
        <Button type="primary" data-testid="forbidden-back" onClick={() => void navigate(DEFAULT_LANDING)}>
          {t('forbidden.back')}
        </Button>
      }
    />
  );
}

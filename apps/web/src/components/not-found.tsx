// The not-found page: shown for unknown addresses, unknown screen names and unbuilt screens.
import { Button } from 'antd';
import { LazyResult } from './lazy-result.tsx';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export function NotFound({ standalone = false }: { standalone?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <LazyResult
      boxClassName={standalone ? 'page-center' : undefined}
      data-testid="not-found"
      status="404"
      title={t('notFound.title')}
      subTitle={t('notFound.subtitle')}
      extra={
        <Button type="primary" data-testid="not-found-home" onClick={() => navigate('/')}>
          {t('notFound.back')}
        </Button>
      }
    />
  );
}

/** The page of an unknown address outside the console, loaded on demand (app/routes/screens.ts). */
export default function StandaloneNotFound() {
  return <NotFound standalone />;
}

// Fallback for errors that escape a route (a loader or layout that threw).
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { NotFound } from '../../components/not-found.tsx';

export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound standalone />;
  console.error('[route]', error);
  return (
    <div className="page-center" data-testid="route-error">
      <Result
        status="error"
        title={t('routeError.title')}
        subTitle={t('routeError.subtitle')}
        extra={
          <Button type="primary" onClick={() => window.location.assign('/')}>
            {t('notFound.back')}
          </Button>
        }
      />
    </div>
  );
}

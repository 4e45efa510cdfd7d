// Fallback for errors that escape a route (a loader or layout that threw).
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Outcome } from '../../components/outcome.tsx';
import { ScreenLoader } from './screen-loader.tsx';
import { NOT_FOUND_SCREEN } from './screens.ts';

export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) return <ScreenLoader name="notFound" importer={NOT_FOUND_SCREEN} fullPage />;
  console.error('[route]', error);
  return (
    <div className="page-center" data-testid="route-error">
      <Outcome
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

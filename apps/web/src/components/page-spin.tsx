// The waiting indicator while a screen's code or the first route data loads.
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function PageSpin({ fullPage = false }: { fullPage?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={fullPage ? 'page-center' : 'content-center'} data-testid="page-loading">
      <Spin size="large" description={t('app.loading')} />
    </div>
  );
}

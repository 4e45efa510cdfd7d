// Breadcrumb bar: the product title first, then the menu trail of the current screen, with
// optional right-hand text supplied by the screen.
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { MenuItem } from '@iotc/shared/auth';

export function BreadcrumbBar({ trail, extra }: { trail: MenuItem[]; extra: string | null }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // The Index screen is not a menu entry, so it names itself.
  const atIndex = trail.length === 0 && /^\/view\/home\/?$/i.test(pathname);
  // Nor is the inbox (the header's bell leads to it).
  const atInbox = trail.length === 0 && /^\/view\/inbox\/?$/i.test(pathname);
  return (
    <div className="breadcrumb-bar">
      <Breadcrumb
        aria-label={t('layout.breadcrumb')}
        data-testid="breadcrumb"
        items={[
          { key: 'home', title: <Link to="/view/home">{t('app.title')}</Link> },
          ...(atIndex ? [{ key: 'index', title: t('layout.home') }] : []),
          ...(atInbox ? [{ key: 'inbox', title: t('inbox.title') }] : []),
          ...trail.map((item) => ({ key: item.id, title: item.name })),
        ]}
      />
      {extra ? (
        <span className="breadcrumb-extra" data-testid="breadcrumb-extra">
          {extra}
        </span>
      ) : null}
    </div>
  );
}

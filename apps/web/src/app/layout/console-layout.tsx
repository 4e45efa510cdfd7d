// The console frame around every screen of the view host and /view/home: left navigation,
// header, the platform's active alarms (platform administrators only), breadcrumb bar and the
// screen itself; and, for users who may read alarms, the alarm notifications. Its first
// focusable element is a link past the navigation to the screen (the main landmark), shown only
// while it has the keyboard focus. The screen's name (the menu trail's last entry) opens the
// main landmark as the page's one h1, for screen readers only: the breadcrumb shows it already.
import { useState, type MouseEvent } from 'react';
import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { useDicts } from '../../api/dict-all.ts';
import { BreadcrumbExtraContext } from '../../components/breadcrumb-extra.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { AlarmNotifier } from './alarm-notifier.tsx';
import { SideNav, useMenuTrail } from './side-nav.tsx';
import { HeaderBar } from './header-bar.tsx';
import { BreadcrumbBar } from './breadcrumb-bar.tsx';
import { PlatformAlarmBanner } from './platform-alarm-banner.tsx';
import { LiveProvider } from '../../lib/live-provider.tsx';

export const MAIN_ID = 'main-content';

/** Moves the focus to the screen: the address keeps no '#', so the router and back button are unaffected. */
function skipToMain(e: MouseEvent<HTMLAnchorElement>): void {
  const main = document.getElementById(MAIN_ID);
  if (!main) return;
  e.preventDefault();
  main.focus();
  main.scrollIntoView?.({ block: 'start' });
}

export function ConsoleLayout() {
  const { t } = useTranslation();
  const [collapsed, setCollapsed] = useState(false);
  const [extra, setExtra] = useState<string | null>(null);
  const { trail } = useMenuTrail();
  const { pathname } = useLocation();
  // The Index screen is not a menu entry (the breadcrumb names it so too).
  const title = trail[trail.length - 1]?.name ?? (/^\/view\/home\/?$/i.test(pathname) ? t('layout.home') : t('app.title'));
  const alarms = usePermission()('alarm:read');
  // Dictionaries are wanted by most screens; loading them with the frame fills the cache early.
  useDicts();
  return (
    // The tab's one live connection, for the screens of the frame (not on the login page's first load).
    <LiveProvider>
      <Layout className="console-layout" data-testid="console-layout">
        <a className="skip-link" href={`#${MAIN_ID}`} data-testid="skip-link" onClick={skipToMain}>
          {t('layout.skipToMain')}
        </a>
        <SideNav collapsed={collapsed} />
        <Layout className="console-main">
          <HeaderBar collapsed={collapsed} onToggle={() => setCollapsed((c) => !c)} />
          <PlatformAlarmBanner />
          <BreadcrumbBar trail={trail} extra={extra} />
          <Layout.Content className="console-content" id={MAIN_ID} tabIndex={-1}>
            <h1 className="sr-only" data-testid="page-title">
              {title}
            </h1>
            <BreadcrumbExtraContext.Provider value={setExtra}>
              <Outlet />
            </BreadcrumbExtraContext.Provider>
          </Layout.Content>
        </Layout>
        {alarms ? <AlarmNotifier /> : null}
      </Layout>
    </LiveProvider>
  );
}

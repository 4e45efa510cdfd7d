// The console frame around every screen of the view host and /view/home: left navigation,
// header, breadcrumb bar and the screen itself; and, for users who may read alarms, the alarm
// notifications.
import { useState } from 'react';
import { Layout } from 'antd';
import { Outlet } from 'react-router-dom';
import { useDicts } from '../../api/dict-all.ts';
import { BreadcrumbExtraContext } from '../../components/breadcrumb-extra.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { AlarmNotifier } from './alarm-notifier.tsx';
import { SideNav, useMenuTrail } from './side-nav.tsx';
import { HeaderBar } from './header-bar.tsx';
import { BreadcrumbBar } from './breadcrumb-bar.tsx';

export function ConsoleLayout() {
  const [collapsed, setCollapsed] = useState(false);
  const [extra, setExtra] = useState<string | null>(null);
  const { trail } = useMenuTrail();
  const alarms = usePermission()('alarm:read');
  // Dictionaries are wanted by most screens; loading them with the frame fills the cache early.
  useDicts();
  return (
    <Layout className="console-layout" data-testid="console-layout">
      <SideNav collapsed={collapsed} />
      <Layout className="console-main">
        <HeaderBar collapsed={collapsed} onToggle={() => setCollapsed((c) => !c)} />
        <BreadcrumbBar trail={trail} extra={extra} />
        <Layout.Content className="console-content">
          <BreadcrumbExtraContext.Provider value={setExtra}>
            <Outlet />
          </BreadcrumbExtraContext.Provider>
        </Layout.Content>
      </Layout>
      {alarms ? <AlarmNotifier /> : null}
    </Layout>
  );
}

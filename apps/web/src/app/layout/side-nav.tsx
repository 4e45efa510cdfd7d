// Left navigation: the user's three-level menu from loadMenu, the user and organisation names,
// collapsible; a leaf opens its url with the item's pid as a query value.
import { useMemo, useState } from 'react';
import { Avatar, Layout, Menu, Skeleton, Tooltip, Typography, type MenuProps } from 'antd';
import { CloudServerOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { MenuItem } from '@iotc/shared/auth';
import { useMenu } from '../../api/load-menu.ts';
import { useInfo } from '../../api/info.ts';
import { MenuIcon } from '../../components/menu-icon.tsx';
import { findTrail, openMenuItem } from '../../lib/menu.ts';
import { getRouterItem } from '../../lib/session.ts';

type AntItems = NonNullable<MenuProps['items']>;

function toAntItems(items: MenuItem[], depth = 0): AntItems {
  return items.map((item) => ({
    key: item.id,
    icon: depth === 0 ? <MenuIcon name={item.icon} /> : undefined,
    label: item.name,
    title: item.name,
    children: item.children?.length ? toAntItems(item.children, depth + 1) : undefined,
  }));
}

function indexById(items: MenuItem[], into = new Map<string, MenuItem>()): Map<string, MenuItem> {
  for (const item of items) {
    into.set(item.id, item);
    indexById(item.children ?? [], into);
  }
  return into;
}

/** The current screen's menu trail, shared by the navigation and the breadcrumb bar. */
export function useMenuTrail(): { menu: MenuItem[]; trail: MenuItem[]; isPending: boolean } {
  const { data: menu = [], isPending } = useMenu();
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const pid = search.get('pid');
  const trail = useMemo(() => findTrail(menu, pathname, [pid, getRouterItem()?.id]), [menu, pathname, pid]);
  return { menu, trail, isPending };
}

export function SideNav({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { menu, trail, isPending } = useMenuTrail();
  const { data: user } = useInfo();
  const items = useMemo(() => toAntItems(menu), [menu]);
  const byId = useMemo(() => indexById(menu), [menu]);

  const trailKey = trail.map((i) => i.id).join('/');
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  const [openedFor, setOpenedFor] = useState('');
  // Opening the groups of the current screen whenever the screen changes, while keeping the
  // groups the user opened by hand (state adjusted during render, no effect round trip).
  if (openedFor !== trailKey) {
    setOpenedFor(trailKey);
    const ancestors = trail.slice(0, -1).map((i) => i.id);
    setOpenKeys((keys) => Array.from(new Set([...keys, ...ancestors])));
  }

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = byId.get(String(key));
    if (item?.url) openMenuItem(item, navigate);
  };

  const selected = trail[trail.length - 1]?.id;

  return (
    <Layout.Sider
      className="side-nav"
      width={240}
      collapsedWidth={64}
      collapsed={collapsed}
      trigger={null}
      data-testid="side-nav"
      data-collapsed={collapsed}
    >
      <Link to="/view/home" className="side-nav-brand" data-testid="nav-brand">
        <CloudServerOutlined className="side-nav-logo" />
        {!collapsed && <span className="side-nav-title">{t('app.title')}</span>}
      </Link>
      <div className="side-nav-user">
        <Tooltip title={collapsed ? `${user?.name ?? ''} · ${user?.orgName ?? ''}` : undefined} placement="right">
          <Avatar size={collapsed ? 32 : 40} icon={<UserOutlined />} className="side-nav-avatar" />
        </Tooltip>
        {!collapsed && (
          <div className="side-nav-user-text">
            <Typography.Text className="side-nav-user-name" ellipsis data-testid="nav-user-name">
              {user?.name ?? ''}
            </Typography.Text>
            <Typography.Text className="side-nav-org-name" ellipsis data-testid="nav-org-name">
              {user?.orgName ?? ''}
            </Typography.Text>
          </div>
        )}
      </div>
      <nav className="side-nav-menu" aria-label={t('layout.navigation')}>
        {isPending ? (
          <Skeleton active paragraph={{ rows: 6 }} title={false} className="side-nav-skeleton" />
        ) : menu.length === 0 ? (
          <Typography.Text className="side-nav-empty">{t('layout.menuEmpty')}</Typography.Text>
        ) : (
          <Menu
            theme="dark"
            mode="inline"
            data-testid="nav-menu"
            items={items}
            selectedKeys={selected ? [selected] : []}
            {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
            onClick={onClick}
          />
        )}
      </nav>
    </Layout.Sider>
  );
}

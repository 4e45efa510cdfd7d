// Console header: navigation toggle, the inbox bell, the alarm sound's mute switch (for users who
// may read alarms), theme and language switches, and the user menu with My Services, change password
// and logout.
import { Avatar, Button, Dropdown, Space, Tooltip } from 'antd';
import { AppstoreOutlined, DownOutlined, KeyOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useInfo } from '../../api/info.ts';
import { useConfirmLogout } from '../../components/use-confirm-logout.ts';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { ThemeSwitch } from '../../components/theme-switch.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { InboxBell } from '../../features/inbox/components/inbox-bell.tsx';
import { AlarmMuteButton } from './alarm-mute-button.tsx';

interface HeaderBarProps {
  collapsed: boolean;
  onToggle: () => void;
}

export function HeaderBar({ collapsed, onToggle }: HeaderBarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useInfo();

  const confirmLogout = useConfirmLogout();
  const alarms = usePermission()('alarm:read');

  const toggleLabel = collapsed ? t('layout.expandNav') : t('layout.collapseNav');

  return (
    // Inside antd's layout section a header is no banner landmark by itself.
    <header className="header-bar" role="banner">
      <Tooltip title={toggleLabel}>
        <Button
          type="text"
          className="nav-toggle"
          aria-label={toggleLabel}
          data-testid="nav-toggle"
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggle}
        />
      </Tooltip>
      <Space size="middle" className="header-actions">
        <InboxBell />
        {alarms ? <AlarmMuteButton /> : null}
        <ThemeSwitch size="small" />
        <LanguageSwitch size="small" />
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              {
                key: 'myServices',
                icon: <AppstoreOutlined />,
                label: <span data-testid="my-services">{t('layout.myServices')}</span>,
                onClick: () => void navigate('/view/login/productService'),
              },
              {
                key: 'changePassword',
                icon: <KeyOutlined />,
                label: <span data-testid="change-password">{t('layout.changePassword')}</span>,
                onClick: () => void navigate('/view/login/confirmPassword'),
              },
              {
                key: 'logout',
                icon: <LogoutOutlined />,
                label: <span data-testid="logout">{t('layout.logout')}</span>,
                onClick: confirmLogout,
              },
            ],
          }}
        >
          <Button type="text" className="user-menu" data-testid="user-menu">
            <Avatar size="small" icon={<UserOutlined />} />
            <span className="user-menu-name">{user?.name ?? ''}</span>
            <DownOutlined />
          </Button>
        </Dropdown>
      </Space>
    </header>
  );
}

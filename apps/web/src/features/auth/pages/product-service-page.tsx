// /view/login/productService: 'My Services'. Each service the user may use opens in a new
// window with its scenario `type` query, signed in; platform management sits beside them for
// administrators; a way back to the console; and logout.
import { Button, Card, Empty, Space, Spin } from 'antd';
import { ArrowLeftOutlined, CarOutlined, ContainerOutlined, DesktopOutlined, HomeOutlined, LogoutOutlined, SettingOutlined, TruckOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ServiceKey } from '@iotc/shared/auth';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import { useMyServices } from '../../../api/my-services.ts';
import { useConfirmLogout } from '../../../components/use-confirm-logout.ts';
import { getTabToken } from '../../../lib/session.ts';
import { AccountFrame } from '../components/account-frame.tsx';

const ICONS: Record<ServiceKey, ReactNode> = {
  warehouse: <HomeOutlined />,
  transport: <TruckOutlined />,
  device: <DesktopOutlined />,
  container: <ContainerOutlined />,
  vehicle: <CarOutlined />,
};

/**
 * Opens a service the way the spec's menu items do: a new window, with the scenario type in the
 * query. A login kept in this tab's session storage does not reach a `noopener` window, so its
 * token goes along as the spec's token query, which the new window takes off its address before
 * anything reads it; a week's login is in the cookie every window reads, and stays out of the address.
 */
function openService(url: string, type: number) {
  const query = new URLSearchParams({ type: String(type) });
  const token = getTabToken();
  if (token) query.set('token', token);
  window.open(`/${url}?${query.toString()}`, '_blank', 'noopener');
}

export default function ProductServicePage() {
  const { t } = useTranslation();
  const services = useMyServices();
  const navigate = useNavigate();

  const confirmLogout = useConfirmLogout();

  const data = services.data;
  return (
    <AccountFrame testId="product-service-page">
      <Card
        className="login-card service-card"
        title={<span data-testid="screen-title">{t('services.title')}</span>}
        extra={
          <Space size={4}>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void navigate(DEFAULT_LANDING)} data-testid="services-back">
              {t('services.backToConsole')}
            </Button>
            <Button type="text" icon={<LogoutOutlined />} onClick={confirmLogout} data-testid="services-logout">
              {t('layout.logout')}
            </Button>
          </Space>
        }
      >
        {services.isPending ? (
          <Spin />
        ) : !data || data.services.length === 0 ? (
          <Empty description={t('services.none')} />
        ) : (
          <div className="service-grid">
            {data.services.map((s) => (
              <button key={s.key} type="button" className="service-tile" data-testid={`service-${s.key}`} onClick={() => openService(s.url, s.type)}>
                <span className="service-icon">{ICONS[s.key]}</span>
                <span className="service-name">{t(`services.${s.key}`)}</span>
              </button>
            ))}
            {data.platformManagement && (
              <button
                type="button"
                className="service-tile service-platform"
                data-testid="service-platform"
                onClick={() => openService(data.platformManagement!.url, data.platformManagement!.type)}
              >
                <span className="service-icon">
                  <SettingOutlined />
                </span>
                <span className="service-name">{t('services.platform')}</span>
              </button>
            )}
          </div>
        )}
      </Card>
    </AccountFrame>
  );
}

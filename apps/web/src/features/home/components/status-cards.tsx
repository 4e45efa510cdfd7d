// The row of vehicle counts by status (spec: unused, shutdown, offline, parked, driving, all), in
// the status colours the map and tables use; a card opens real-time monitoring filtered by it.
import type { ReactNode } from 'react';
import { Button, Card, Col, Progress, Row, Skeleton } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { AppstoreOutlined, CarOutlined, DisconnectOutlined, InboxOutlined, PauseCircleOutlined, PoweroffOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEVICE_STATUSES, STATUS_COLORS, type DeviceStatus, type StatusCounts } from '@iotc/shared/live';

export type StatusCardKey = 'all' | DeviceStatus;

/** "All" first, then the statuses in the console's order. */
export const STATUS_CARD_KEYS: readonly StatusCardKey[] = ['all', ...DEVICE_STATUSES];

/** "All" is no status, so it has a colour of its own, apart from every status colour. */
export const ALL_COLOR = '#722ed1';

const ICONS: Record<StatusCardKey, ReactNode> = {
  all: <AppstoreOutlined />,
  unused: <InboxOutlined />,
  shutdown: <PoweroffOutlined />,
  offline: <DisconnectOutlined />,
  parked: <PauseCircleOutlined />,
  driving: <CarOutlined />,
};

export function statusColor(key: StatusCardKey): string {
  return key === 'all' ? ALL_COLOR : STATUS_COLORS[key];
}

/** Share of all vehicles in percent, one decimal; 0 when there are none. */
export function sharePercent(count: number, all: number): number {
  return all > 0 ? Math.round((count / all) * 1000) / 10 : 0;
}

interface StatusCardsProps {
  counts?: StatusCounts;
  loading: boolean;
  error: boolean;
  onRetry: () => void;
  onOpen: (key: StatusCardKey) => void;
}

export function StatusCards({ counts, loading, error, onRetry, onOpen }: StatusCardsProps) {
  const { t } = useTranslation();
  if (error && !counts) {
    return (
      <Outcome
        status="warning"
        className="home-status-error"
        data-testid="home-status-error"
        title={t('home.loadFailed')}
        extra={
          <Button onClick={onRetry} data-testid="home-status-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  return (
    <Row gutter={[16, 16]} className="home-status-row" data-testid="home-status-cards">
      {STATUS_CARD_KEYS.map((key) => {
        const color = statusColor(key);
        const count = counts?.[key];
        const label = t(`home.status.${key}`);
        return (
          <Col key={key} span={4}>
            <Card
              hoverable
              size="small"
              className="home-status-card"
              style={{ borderTop: `3px solid ${color}` }}
              data-testid={`home-status-${key}`}
              role="button"
              tabIndex={0}
              onClick={() => onOpen(key)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onOpen(key);
                }
              }}
            >
              <div className="home-status-head">
                <span className="home-status-icon" style={{ color, background: `${color}1a` }}>
                  {ICONS[key]}
                </span>
                <span className="home-status-label">{label}</span>
              </div>
              {loading && counts === undefined ? (
                <Skeleton.Input active size="small" className="home-status-skeleton" />
              ) : (
                <>
                  <div className="home-status-count" data-testid={`home-status-${key}-count`}>
                    {count ?? 0}
                  </div>
                  <Progress
                    percent={key === 'all' ? 100 : sharePercent(count ?? 0, counts?.all ?? 0)}
                    showInfo={false}
                    size="small"
                    strokeColor={color}
                    className="home-status-share"
                    aria-label={label}
                  />
                  <div className="home-status-foot">
                    {key === 'all' ? t('home.status.allVehicles') : t('home.status.share', { percent: sharePercent(count ?? 0, counts?.all ?? 0) })}
                  </div>
                </>
              )}
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}

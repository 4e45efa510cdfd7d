// home/home: the transport scenario's home (spec: 'high-value product transport scenario'):
// vehicle counts by status, refreshed every 15 s, each opening the vehicle scenario's real-time
// monitoring filtered by it; message alerts read off the devices' latest states, optionally of
// a window within the last week (the spec's 'lastweekdate'); platform notifications.
import { useCallback, useMemo, useState } from 'react';
import { Card, Col, DatePicker, Flex, Row, Typography } from 'antd';
import { AlertOutlined, NotificationOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import type { HomeAlert, Notice } from '@iotc/shared/live';
import { lastWeekDisabledDate } from '../../../components/filter-bar.tsx';
import { useLang } from '../../../lib/language.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useHomeAlerts, type AlertWindow } from '../api/home-alerts.ts';
import { useNotices } from '../api/notices.ts';
import { STATUS_SUMMARY_REFRESH_MS, useStatusSummary } from '../api/status-summary.ts';
import { AlertItem } from '../components/alert-item.tsx';
import { FeedPanel, type FeedState } from '../components/feed-panel.tsx';
import { NoticeItem, NoticeModal } from '../components/notice-item.tsx';
import { StatusCards, type StatusCardKey } from '../components/status-cards.tsx';
import '../components/home.css';

/** Where an alert's 'view details' leads: any device, so the device scenario's monitoring. */
export const MONITORING_PATH = '/view/deviceManage/realTimeMonitoring';
/** Where a status card leads: the vehicle scenario's monitoring, which lists the vehicles counted. */
export const VEHICLE_MONITORING_PATH = '/view/scenario_vehicle/deviceManage/realTimeMonitoring';

export function monitoringLink(query: Record<string, string>, path = MONITORING_PATH): string {
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}

type RangeValue = [Dayjs | null, Dayjs | null] | null;

function windowOf(range: RangeValue): AlertWindow {
  return { from: range?.[0]?.toISOString(), to: range?.[1]?.toISOString() };
}

function useFeed<T>(query: UseInfiniteQueryResult<InfiniteData<Page<T>>>): FeedState<T> {
  const { data, isPending, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch } = query;
  const items = useMemo(() => data?.pages.flatMap((p) => p.rows) ?? [], [data]);
  return { items, isPending, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch };
}

export default function HomePage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const summary = useStatusSummary();
  const [range, setRange] = useState<RangeValue>(null);
  const alertWindow = useMemo(() => windowOf(range), [range]);
  const alerts = useFeed(useHomeAlerts(alertWindow));
  const notices = useFeed(useNotices(lang));
  const notice = useDialog<Notice>();

  const openStatus = useCallback(
    (key: StatusCardKey) => navigate(monitoringLink(key === 'all' ? {} : { status: key }, VEHICLE_MONITORING_PATH)),
    [navigate],
  );
  const openAlert = useCallback((a: HomeAlert) => navigate(monitoringLink({ device: a.device })), [navigate]);

  const updated = summary.dataUpdatedAt ? dayjs(summary.dataUpdatedAt).format('HH:mm:ss') : null;

  return (
    <Card
      className="home-page"
      data-testid="home-page"
      title={<span data-testid="screen-title">{t('home.title')}</span>}
      extra={
        updated && (
          <Typography.Text type="secondary" className="home-updated" data-testid="home-updated">
            <SyncOutlined spin={summary.isFetching} /> {t('home.updated', { time: updated, seconds: STATUS_SUMMARY_REFRESH_MS / 1000 })}
          </Typography.Text>
        )
      }
    >
      <Flex vertical gap={20}>
        <section>
          <Typography.Title level={5} className="home-section-title">
            {t('home.statusTitle')}
          </Typography.Title>
          <StatusCards
            counts={summary.data}
            loading={summary.isPending}
            error={summary.isError}
            onRetry={() => void summary.refetch()}
            onOpen={openStatus}
          />
        </section>
        <Row gutter={16}>
          <Col span={14}>
            <FeedPanel
              testId="home-alerts"
              title={
                <span className="home-feed-heading">
                  <AlertOutlined /> {t('home.alerts.title')}
                </span>
              }
              extra={
                <span data-testid="home-alerts-window" className="home-alerts-window">
                  <DatePicker.RangePicker
                    size="small"
                    showTime
                    format={DATETIME_FORMAT}
                    disabledDate={(d) => lastWeekDisabledDate(d)}
                    placeholder={[t('filter.startDate'), t('filter.endDate')]}
                    separator={<span className="iotc-filter-separator">{t('filter.to')}</span>}
                    value={range}
                    onChange={(next) => setRange(next as RangeValue)}
                  />
                </span>
              }
              feed={alerts}
              itemKey={(a, i) => `${a.device}-${a.kind}-${a.time}-${i}`}
              renderItem={(a) => <AlertItem alert={a} t={t} onOpen={openAlert} />}
              emptyText={t('home.alerts.empty')}
            />
          </Col>
          <Col span={10}>
            <FeedPanel
              testId="home-notices"
              title={
                <span className="home-feed-heading">
                  <NotificationOutlined /> {t('home.notices.title')}
                </span>
              }
              feed={notices}
              itemKey={(n) => n.id}
              renderItem={(n) => <NoticeItem notice={n} onOpen={notice.show} />}
              emptyText={t('home.notices.empty')}
            />
          </Col>
        </Row>
      </Flex>
      <NoticeModal notice={notice.target} open={notice.open} onClose={notice.hide} afterClose={notice.afterClose} />
    </Card>
  );
}

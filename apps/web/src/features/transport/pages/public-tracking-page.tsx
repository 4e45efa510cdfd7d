// /track/:token, without login: a consignee's tracking link of one transport task. Its status,
// the times, the estimated arrival, the latest position on the map (the shared base map, offline
// layer: the tile settings need a login) with the destination, and the temperature curve of the
// task's period against its agreed range, asked again every 30 s. An expired, a revoked and an
// unknown link each say so. Nothing here loads a console screen.
import { useMemo } from 'react';
import { Alert, Button, Card, Col, Descriptions, Result, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { ClockCircleOutlined, EnvironmentOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { PublicTracking } from '@iotc/shared/transport-tracking';
import { ApiError } from '../../../api/client.ts';
import { EChart, type EChartOption } from '../../../components/chart/echart.tsx';
import '../../../components/chart/marks.ts';
import { LanguageSwitch } from '../../../components/language-switch.tsx';
import { PlaceMap } from '../components/place-map.tsx';
import { STATUS_TAG_COLORS } from '../components/task-model.ts';
import { usePublicTracking } from '../api/tracking-links.ts';
import './public-tracking.css';

const at = (iso: string | null) => (iso ? dayjs(iso).format(DATETIME_FORMAT) : '-');

/** Why a link shows nothing: it ended (expired, revoked) or never existed; null for another failure. */
export function endedReason(error: unknown): 'expired' | 'revoked' | 'invalid' | null {
  if (!(error instanceof ApiError)) return null;
  if (error.errorcode === 'TRACKING_LINK_EXPIRED') return 'expired';
  if (error.errorcode === 'TRACKING_LINK_REVOKED') return 'revoked';
  return error.status === 404 || error.status === 400 || error.status === 410 ? 'invalid' : null;
}

const ENDED_ICON = { expired: <ClockCircleOutlined />, revoked: <StopOutlined />, invalid: undefined };

function Curve({ view }: { view: PublicTracking }) {
  const { t } = useTranslation();
  const { times, values } = view.temperature;
  const { tempMin, tempMax } = view.task;
  const option = useMemo<EChartOption>(
    () => ({
      grid: { left: 48, right: 24, top: 24, bottom: 40 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'time' },
      // The agreed range stays in view, its lines drawn even when every reading is inside it.
      yAxis: {
        type: 'value',
        name: '°C',
        min: (e: { min: number }) => Math.floor(Math.min(e.min, tempMin ?? e.min) - 1),
        max: (e: { max: number }) => Math.ceil(Math.max(e.max, tempMax ?? e.max) + 1),
      },
      series: [
        {
          type: 'line',
          name: t('tracking.public.temperature'),
          showSymbol: false,
          data: times.map((time, i) => [time, values[i] ?? null]),
          markLine:
            tempMin !== null || tempMax !== null
              ? {
                  symbol: 'none',
                  lineStyle: { type: 'dashed', color: '#f5222d' },
                  data: [tempMin, tempMax].filter((v): v is number => v !== null).map((v) => ({ yAxis: v })),
                }
              : undefined,
        },
      ],
    }),
    [times, values, tempMin, tempMax, t],
  );
  if (times.length === 0) return <Typography.Text type="secondary" data-testid="tracking-curve-empty">{t('tracking.public.noCurve')}</Typography.Text>;
  return <EChart option={option} height={280} data-testid="tracking-curve" />;
}

function Content({ token }: { token: string }) {
  const { t } = useTranslation();
  const query = usePublicTracking(token);

  if (query.isError) {
    const reason = endedReason(query.error);
    return reason ? (
      <Card>
        <Result status="warning" icon={ENDED_ICON[reason]} title={t(`tracking.public.${reason}`)} subTitle={t(`tracking.public.${reason}Hint`)} data-testid="tracking-ended" data-reason={reason} />
      </Card>
    ) : (
      <Alert
        type="error"
        showIcon
        title={t('tracking.public.loadFailed')}
        description={query.error instanceof ApiError ? query.error.errormsg : null}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
        data-testid="tracking-error"
      />
    );
  }
  const v = query.data;
  if (!v) {
    return (
      <Card data-testid="tracking-loading">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  const task = v.task;
  return (
    <>
      <Card size="small">
        <Space orientation="vertical" size={4} style={{ width: '100%' }}>
          <Space wrap align="center">
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="tracking-subject">
              {t('tracking.public.subject', { code: task.code, goods: task.goodsName })}
            </Typography.Title>
            <Tag color={STATUS_TAG_COLORS[task.status]} data-testid="tracking-status" data-status={task.status}>
              {t(`transport.status.${task.status}`)}
            </Tag>
          </Space>
          <Typography.Text>
            <EnvironmentOutlined /> {task.originName} → {task.destinationName}
          </Typography.Text>
          <Typography.Text type="secondary" data-testid="tracking-checked">
            {t('tracking.public.checked', { time: at(v.checkedAt) })} · {t('tracking.public.expires', { time: at(v.expiresAt) })}
          </Typography.Text>
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Card size="small" title={t('tracking.public.facts')}>
            <Descriptions
              column={1}
              size="small"
              data-testid="tracking-facts"
              items={[
                { key: 'eta', label: t('tracking.public.eta'), children: <span data-testid="tracking-eta">{at(v.eta)}</span> },
                { key: 'remaining', label: t('tracking.public.remaining'), children: v.remainingM !== null ? `${(v.remainingM / 1000).toFixed(1)} km` : '-' },
                { key: 'plannedStart', label: t('tracking.public.plannedStart'), children: at(task.plannedStart) },
                { key: 'plannedArrival', label: t('tracking.public.plannedArrival'), children: at(task.plannedArrival) },
                { key: 'startedAt', label: t('tracking.public.startedAt'), children: at(task.startedAt) },
                { key: 'arrivedAt', label: t('tracking.public.arrivedAt'), children: at(task.arrivedAt) },
                { key: 'position', label: t('tracking.public.position'), children: v.position ? `${v.position.lat.toFixed(5)}, ${v.position.lon.toFixed(5)}` : '-' },
                { key: 'positionAt', label: t('tracking.public.positionAt'), children: at(v.position?.time ?? null) },
                { key: 'speed', label: t('tracking.public.speed'), children: v.position?.speed != null ? `${v.position.speed} km/h` : '-' },
                { key: 'temp', label: t('tracking.public.temp'), children: <span data-testid="tracking-temp">{v.temp !== null ? `${v.temp} °C` : '-'}</span> },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('tracking.public.map')} styles={{ body: { padding: 0 } }}>
            <PlaceMap
              config={v.map}
              origin={null}
              destination={{ ...task.destination, radiusM: 0 }}
              route={[]}
              current={v.position ? { lat: v.position.lat, lon: v.position.lon } : null}
              height={320}
              testId="tracking-map"
            />
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('tracking.public.curve')}>
        {task.tempMin !== null || task.tempMax !== null ? (
          <Typography.Paragraph type="secondary">{t('tracking.public.range', { min: task.tempMin ?? '-', max: task.tempMax ?? '-' })}</Typography.Paragraph>
        ) : null}
        <Curve view={v} />
      </Card>
    </>
  );
}

export default function PublicTrackingPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  return (
    <div className="tracking-public" data-testid="tracking-public-page">
      <header className="tracking-public-head">
        <div>
          <h1 data-testid="screen-title">{t('tracking.public.title')}</h1>
          <Typography.Text type="secondary">
            {t('app.title')} · {t('tracking.public.subtitle')}
          </Typography.Text>
        </div>
        <LanguageSwitch />
      </header>
      <main className="tracking-public-main">
        <Content token={token} />
      </main>
    </div>
  );
}

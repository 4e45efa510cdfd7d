// The details panel of the selected device: a drawer on the right that leaves the map usable,
// with the latest readings (kept current by the live channel through the latest-state cache),
// status, position and bound asset, a 24-hour curve per sensor and a link to the full history.
import { lazy, memo, Suspense, useMemo, useState } from 'react';
import { Button, Descriptions, Drawer, Empty, Segmented, Skeleton, Tag, Typography } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { LineChartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { STATUS_COLORS, type DeviceState } from '@iotc/shared/live';
import { SENSOR_FIELDS, type SensorField } from '@iotc/shared/sensors';
import { ScreenErrorBoundary } from '../../../components/chunk-error.tsx';
import { importWithTimeout } from '../../../lib/chunk.ts';
import { useLabel } from '../../../lib/label.ts';
import { useLatest } from '../../../api/device-latest.ts';
import { useSeries, type SeriesWindow } from '../../../api/telemetry-series.ts';
import { detailCurveOption, pickCurve, presentCurves, type CurveKey } from './detail-curve.ts';
import { formatTime, isAlarming, limitsOf, rangeText, rounded } from './monitor-model.ts';

/** Points of a curve the server thins to: enough for a panel-wide chart. */
const SERIES_MAX_POINTS = 500;

export const DETAIL_WIDTH = 460;
// One lazy component for the whole app: once loaded, later panels draw at once.
let curveChart = lazy(() => importWithTimeout(() => import('./curve-chart.tsx'), 'curve-chart'));
const CURVE_HEIGHT = 220;
/** Where the full sensor history of a device opens. */
export const SENSOR_HISTORY_PATH = '/view/deviceManage/sensors';

interface DetailDrawerProps {
  /** The selected device's row id; null closes the panel. */
  id: string | null;
  onClose: () => void;
}

/** A sensor value as the panel shows it: value and unit, door as Open/Closed, '-' for none. */
export function sensorText(field: Pick<SensorField, 'key' | 'unit' | 'precision'>, value: unknown, doorText: (v: string) => string): string {
  if (field.key === 'door') return typeof value === 'string' ? doorText(value) : '-';
  const v = rounded(value, field.precision);
  return v === null ? '-' : `${v}${field.unit ? ` ${field.unit}` : ''}`;
}

function Readings({ state }: { state: DeviceState }) {
  const { t } = useTranslation();
  const label = useLabel();
  const door = (v: string) => (v === 'open' ? t('sensor.door.open') : v === 'closed' ? t('sensor.door.closed') : v);
  return (
    <div className="monitor-readings">
      {SENSOR_FIELDS.map((f) => {
        const value = state.sensors[f.key];
        const alarm = isAlarming(f.key, value, state.asset);
        return (
          <div key={f.key} className={alarm ? 'monitor-reading monitor-reading-alarm' : 'monitor-reading'}>
            <div className="monitor-reading-label">{label(f.label)}</div>
            <div className="monitor-reading-value" data-testid={`monitor-detail-${f.key}`} data-alarm={alarm ? 'true' : undefined}>
              {sensorText(f, value, door)}
            </div>
          </div>
        );
      })}
    </div>
  );
}

function Curve({ state, window }: { state: DeviceState; window: SeriesWindow }) {
  const { t } = useTranslation();
  const label = useLabel();
  const series = useSeries(window, SERIES_MAX_POINTS);
  const present = useMemo(() => presentCurves(series.data), [series.data]);
  const [wanted, setWanted] = useState<CurveKey | undefined>();
  const field = pickCurve(present, wanted);
  const texts = useMemo(
    () => ({ upper: t('monitor.detail.upper'), lower: t('monitor.detail.lower'), doorOpen: t('sensor.door.open'), doorClosed: t('sensor.door.closed') }),
    [t],
  );
  const asset = state.asset;
  const option = useMemo(
    () =>
      field && series.data
        ? detailCurveOption({
            field,
            series: series.data,
            limits: limitsOf(field.key, asset),
            from: Date.parse(window.from),
            to: Date.parse(window.to),
            texts: { ...texts, name: label(field.label) },
          })
        : null,
    [field, series.data, asset, window, texts, label],
  );

  if (series.isPending) return <Skeleton active paragraph={{ rows: 5 }} data-testid="monitor-curve-loading" />;
  if (series.isError && !series.data) {
    return (
      <Outcome
        status="warning"
        title={t('monitor.detail.curveFailed')}
        data-testid="monitor-curve-error"
        extra={
          <Button onClick={() => void series.refetch()} data-testid="monitor-curve-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  if (!field || !option) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitor.detail.noReadings')} data-testid="monitor-curve-empty" />;
  const limits = limitsOf(field.key, asset);
  return (
    <div data-testid="monitor-curve" data-curve={field.key}>
      <Segmented
        size="small"
        className="monitor-curve-pick"
        value={field.key}
        onChange={(v) => setWanted(v as CurveKey)}
        options={present.map((f) => ({ value: f.key, label: label(f.label) }))}
        data-testid="monitor-curve-pick"
      />
      <div className="monitor-curve-head">
        <Typography.Text strong>
          {label(field.label)}
          {field.unit ? ` (${field.unit})` : ''}
        </Typography.Text>
        {limits ? (
          <Typography.Text type="secondary" data-testid="monitor-curve-limits">
            {t('monitor.detail.range', { range: rangeText(limits), unit: field.unit })}
          </Typography.Text>
        ) : null}
      </div>
      <ChartSlot option={option} />
    </div>
  );
}

function ChartSlot({ option }: { option: NonNullable<ReturnType<typeof detailCurveOption>> }) {
  const [attempt, setAttempt] = useState(0);
  const Chart = curveChart;
  const retry = () => {
    // A rejected lazy component stays rejected: a new one imports again.
    curveChart = lazy(() => importWithTimeout(() => import('./curve-chart.tsx'), 'curve-chart'));
    setAttempt((n) => n + 1);
  };
  return (
    <ScreenErrorBoundary key={attempt} onRetry={retry}>
      <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: CURVE_HEIGHT }} />}>
        <Chart option={option} height={CURVE_HEIGHT} />
      </Suspense>
    </ScreenErrorBoundary>
  );
}

function Body({ state, window }: { state: DeviceState; window: SeriesWindow }) {
  const { t } = useTranslation();
  const asset = state.asset;
  const temp = rangeText(limitsOf('temperature', asset));
  const humidity = rangeText(limitsOf('humidity', asset));
  const position = state.lat !== null && state.lon !== null ? `${state.lat.toFixed(6)}, ${state.lon.toFixed(6)}` : '-';
  const link = [state.positioning, state.network].filter(Boolean).join(' / ') || '-';
  const speed = rounded(state.speed, 1);
  return (
    <>
      <div className="monitor-detail-head">
        <Tag color={STATUS_COLORS[state.status]} className="monitor-status-tag" data-testid="monitor-detail-status" data-status={state.status}>
          {t(`monitor.status.${state.status}`)}
        </Tag>
        <Typography.Text type="secondary">
          {t('monitor.col.lastSeen')}: <span data-testid="monitor-detail-last-seen">{formatTime(state.lastSeenAt) ?? '-'}</span>
        </Typography.Text>
      </div>

      <section className="monitor-detail-section">
        <Typography.Title level={5}>{t('monitor.detail.readings')}</Typography.Title>
        <Readings state={state} />
      </section>

      <section className="monitor-detail-section">
        <Typography.Title level={5}>
          <LineChartOutlined /> {t('monitor.detail.curve')}
        </Typography.Title>
        <Curve key={state.id} state={state} window={window} />
      </section>

      <section className="monitor-detail-section">
        <Typography.Title level={5}>{t('monitor.detail.info')}</Typography.Title>
        <Descriptions
          size="small"
          column={1}
          bordered
          styles={{ label: { width: 150 } }}
          items={[
            { key: 'deviceId', label: t('monitor.col.deviceId'), children: state.deviceId },
            { key: 'org', label: t('monitor.col.org'), children: state.orgName },
            {
              key: 'asset',
              label: t('monitor.col.asset'),
              children: asset ? <span data-testid="monitor-detail-asset">{asset.name && asset.name !== asset.code ? `${asset.code} ${asset.name}` : asset.code}</span> : t('monitor.detail.noAsset'),
            },
            ...(asset
              ? [
                  { key: 'tempRange', label: t('monitor.col.tempRange'), children: temp ? `${temp} °C` : '-' },
                  { key: 'humidityRange', label: t('monitor.col.humidityRange'), children: humidity ? `${humidity} %` : '-' },
                ]
              : []),
            { key: 'position', label: t('monitor.detail.position'), children: <span data-testid="monitor-detail-position">{position}</span> },
            { key: 'link', label: t('monitor.detail.positioning'), children: link },
            { key: 'speed', label: t('sensor.speed'), children: <span data-testid="monitor-detail-speed">{speed === null ? '-' : `${speed} km/h`}</span> },
            { key: 'course', label: t('monitor.detail.course'), children: state.course === null ? '-' : `${state.course}°` },
            { key: 'acc', label: t('monitor.detail.acc'), children: state.acc === null ? '-' : state.acc ? t('monitor.detail.accOn') : t('monitor.detail.accOff') },
            { key: 'time', label: t('monitor.detail.deviceTime'), children: formatTime(state.time) ?? '-' },
          ]}
        />
      </section>
    </>
  );
}

function DeviceDetailDrawerInner({ id, onClose }: DetailDrawerProps) {
  const { t } = useTranslation();
  const latest = useLatest(id);
  // The curve window is fixed when a device is opened: the last 24 hours up to then.
  const window = useMemo<SeriesWindow | null>(() => {
    if (!id) return null;
    const to = new Date();
    return { device: id, from: new Date(to.getTime() - 24 * 3600_000).toISOString(), to: to.toISOString() };
  }, [id]);
  const state = latest.data;

  let body;
  if (!id || !window) body = null;
  else if (latest.isPending) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else if (!state)
    body = (
      <Outcome
        status="warning"
        title={t('monitor.detail.loadFailed')}
        data-testid="monitor-detail-error"
        extra={
          <Button onClick={() => void latest.refetch()} data-testid="monitor-detail-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  else body = <Body state={state} window={window} />;

  return (
    <Drawer
      open={!!id}
      size={DETAIL_WIDTH}
      mask={false}
      title={state ? `${state.name}` : t('monitor.detail.title')}
      className="monitor-detail-drawer"
      data-testid="monitor-detail"
      onClose={onClose}
      extra={
        id ? (
          <Link to={`${SENSOR_HISTORY_PATH}?device=${encodeURIComponent(id)}`} data-testid="monitor-detail-history">
            {t('monitor.detail.history')}
          </Link>
        ) : null
      }
    >
      {body}
    </Drawer>
  );
}

/** Drawn again only when its own props change, not on every live update of the table. */
export const DeviceDetailDrawer = memo(DeviceDetailDrawerInner);

// One message alert of the home screen: an icon in the colour of its kind, a sentence in the
// user's language ("Temperature 9.3 °C above the upper limit 8 °C"), the device, the time and a
// link to the device on real-time monitoring.
import type { ReactNode } from 'react';
import { Button } from 'antd';
import { CloudOutlined, DisconnectOutlined, FallOutlined, FireOutlined, ThunderboltOutlined, UnlockOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { HomeAlert, HomeAlertKind } from '@iotc/shared/live';
import { SENSOR_FIELDS, type SensorKey } from '@iotc/shared/sensors';

const KIND_STYLE: Record<HomeAlertKind, { icon: ReactNode; color: string }> = {
  offline: { icon: <DisconnectOutlined />, color: '#8c8c8c' },
  lowBattery: { icon: <ThunderboltOutlined />, color: '#fa8c16' },
  tempHigh: { icon: <FireOutlined />, color: '#f5222d' },
  tempLow: { icon: <FallOutlined />, color: '#2f54eb' },
  humidityHigh: { icon: <CloudOutlined />, color: '#13c2c2' },
  humidityLow: { icon: <CloudOutlined />, color: '#d48806' },
  doorOpen: { icon: <UnlockOutlined />, color: '#eb2f96' },
};

/** The sensor whose precision a kind's numbers are shown with. */
const KIND_SENSOR: Partial<Record<HomeAlertKind, SensorKey>> = {
  lowBattery: 'battery',
  tempHigh: 'temperature',
  tempLow: 'temperature',
  humidityHigh: 'humidity',
  humidityLow: 'humidity',
};

/** A reading as shown: at most the sensor's decimals, no trailing zeros (9.30 -> 9.3, 8.0 -> 8). */
export function formatReading(value: number, sensor: SensorKey | undefined): string {
  const precision = SENSOR_FIELDS.find((f) => f.key === sensor)?.precision ?? 1;
  return String(Number(value.toFixed(precision)));
}

/** The alert as a sentence in the current language; without its numbers, the kind's name. */
export function alertSentence(alert: HomeAlert, t: TFunction): string {
  const sensor = KIND_SENSOR[alert.kind];
  if (!sensor) return t(`home.alert.${alert.kind}`);
  if (alert.value === null || alert.limit === null) return t(`home.alertKind.${alert.kind}`);
  return t(`home.alert.${alert.kind}`, { value: formatReading(alert.value, sensor), limit: formatReading(alert.limit, sensor) });
}

export function formatTime(iso: string): string {
  const d = dayjs(iso);
  return d.isValid() ? d.format(DATETIME_FORMAT) : iso;
}

export function AlertItem({ alert, t, onOpen }: { alert: HomeAlert; t: TFunction; onOpen: (alert: HomeAlert) => void }) {
  const style = KIND_STYLE[alert.kind] ?? KIND_STYLE.offline;
  return (
    <div className="home-alert" data-kind={alert.kind}>
      <span className="home-feed-icon" style={{ color: style.color, background: `${style.color}1a` }} aria-label={t(`home.alertKind.${alert.kind}`)}>
        {style.icon}
      </span>
      <div className="home-feed-main">
        <div className="home-feed-title" data-testid="home-alert-text">
          {alertSentence(alert, t)}
        </div>
        <div className="home-feed-meta">
          <span className="home-alert-device">
            {alert.name} <span className="home-alert-device-id">({alert.deviceId})</span>
          </span>
          <span className="home-feed-time">{formatTime(alert.time)}</span>
        </div>
      </div>
      <Button type="link" size="small" className="home-feed-link" data-testid="home-alert-details" onClick={() => onOpen(alert)}>
        {t('home.viewDetails')}
      </Button>
    </div>
  );
}

// What the faults screen shows, worked out without React: kind and status colours, times in the
// user's zone, what the detector saw in the user's language, and a row as the table shows it.
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { FAULT_THRESHOLDS, type FaultKind, type FaultRow, type FaultStatus, type RepairResult } from '@iotc/shared/fault';
import { PATTERNS } from '@iotc/shared/validation';

export const KIND_COLORS: Record<FaultKind, string> = {
  sensor_failure: '#722ed1',
  gps_failure: '#13c2c2',
  low_battery: '#fa8c16',
  offline_repeatedly: '#595959',
  bad_reports: '#eb2f96',
};

export const STATUS_COLORS: Record<FaultStatus, string> = {
  open: '#f5222d',
  repairing: '#1677ff',
  resolved: '#52c41a',
};

export const RESULT_COLORS: Record<RepairResult, string> = {
  in_progress: 'processing',
  repaired: 'success',
  replaced: 'success',
  no_fault_found: 'default',
};

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(DATETIME_FORMAT) : '';
}

/** A uuid from the address, else null (an address is user input). */
export function uuidOrNull(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v && PATTERNS.uuid.test(v) ? v : null;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * What the detector saw, in the user's language: `detail.reason` is an English text for the log,
 * so the kind and the numbers of `detail` (the detector's own thresholds where it names none)
 * make the sentence. Sensor failures say which reading failed when `detail` tells.
 */
export function seenText(row: Pick<FaultRow, 'kind' | 'detail'>, t: TFunction): string {
  const d = row.detail;
  switch (row.kind) {
    case 'sensor_failure': {
      const reports = num(d.reports) ?? FAULT_THRESHOLDS.sensorFailureReports;
      const humidity = num(d.humidity);
      if (humidity !== undefined) return t('fault.seen.sensor_humidity', { reports, value: humidity });
      if ('temperature' in d && d.temperature === null) return t('fault.seen.sensor_temperature', { reports });
      return t('fault.seen.sensor_failure', { reports });
    }
    case 'gps_failure':
      return t('fault.seen.gps_failure', { reports: num(d.reports) ?? FAULT_THRESHOLDS.gpsFailureReports });
    case 'low_battery': {
      const value = num(d.value);
      const limit = num(d.limit) ?? FAULT_THRESHOLDS.lowBatteryPercent;
      return value === undefined ? t('fault.seen.low_batteryNoValue', { limit }) : t('fault.seen.low_battery', { value, limit });
    }
    case 'offline_repeatedly':
      return t('fault.seen.offline_repeatedly', { times: num(d.times) ?? FAULT_THRESHOLDS.offlineTimes, hours: num(d.hours) ?? FAULT_THRESHOLDS.offlineWindowHours });
    case 'bad_reports':
      return t('fault.seen.bad_reports', { times: num(d.times) ?? num(d.reports) ?? FAULT_THRESHOLDS.badReports, minutes: num(d.minutes) ?? FAULT_THRESHOLDS.badReportsWindowMinutes });
    default:
      return typeof d.reason === 'string' ? d.reason : '';
  }
}

export function assetText(asset: FaultRow['asset']): string {
  return asset ? `${asset.name} (${asset.code})` : '';
}

/** A row as the table shows it. */
export interface FaultView {
  id: string;
  deviceId: string;
  deviceName: string;
  asset: string;
  kind: FaultKind;
  status: FaultStatus;
  firstAt: string;
  lastAt: string;
  count: number;
  seen: string;
  repairCount: number;
  orgName: string;
  row: FaultRow;
}

export function toFaultView(row: FaultRow, t: TFunction): FaultView {
  return {
    id: row.id,
    deviceId: row.device.deviceId,
    deviceName: row.device.name,
    asset: assetText(row.asset),
    kind: row.kind,
    status: row.status,
    firstAt: formatTime(row.firstAt),
    lastAt: formatTime(row.lastAt),
    count: row.count,
    seen: seenText(row, t),
    repairCount: row.repairCount,
    orgName: row.orgName,
    row,
  };
}

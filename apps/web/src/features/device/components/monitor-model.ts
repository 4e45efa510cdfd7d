// The pure side of real-time monitoring: which devices a scenario shows, a device state as a
// table row, the range checks of its readings, and how a live batch merges into the table page
// and the map points (replaced by id; map points added or dropped as the filters say).
import dayjs from 'dayjs';
import { DATETIME_FORMAT, type ScenarioType } from '@iotc/shared/constants';
import { DEVICE_STATUSES, type BoundAsset, type DeviceState, type DeviceStatus, type MapPoint } from '@iotc/shared/live';
import { SENSOR_FIELDS, isBatteryLow, type SensorKey } from '@iotc/shared/sensors';
import { LiveBuffer } from '../../../lib/live-buffer.ts';

/** A status tab: every device, or one status. */
export type StatusTab = 'all' | DeviceStatus;
export const STATUS_TABS: readonly StatusTab[] = ['all', ...DEVICE_STATUSES];

/**
 * The scenario variants of the menu: the vehicle and container scenarios show their own kind
 * only, the transport scenario the carriers of goods in transit (vehicles and containers, as a
 * comma-separated list); the device scenario every device.
 */
export function assetKindOf(scenarioType: ScenarioType | undefined): string | undefined {
  if (scenarioType === 104) return 'vehicle';
  if (scenarioType === 103) return 'container';
  if (scenarioType === 101) return 'vehicle,container';
  return undefined;
}

/** The `status` query value as a status; anything else means all devices. */
export function parseStatus(value: string | null | undefined): DeviceStatus | undefined {
  return (DEVICE_STATUSES as readonly string[]).includes(value ?? '') ? (value as DeviceStatus) : undefined;
}

export interface MonitorFilter {
  status?: DeviceStatus;
  keyword?: string;
  assetKind?: string;
}

/** The server's filter, repeated for devices that arrive live: status, asset kind, keyword in id, name or asset code. */
export function matchesFilter(s: DeviceState, f: MonitorFilter): boolean {
  if (f.status && s.status !== f.status) return false;
  if (f.assetKind && !f.assetKind.split(',').includes(s.asset?.kind ?? '')) return false;
  const k = f.keyword?.trim().toLowerCase();
  if (k) {
    const hay = [s.deviceId, s.name, s.asset?.code ?? ''];
    if (!hay.some((h) => h.toLowerCase().includes(k))) return false;
  }
  return true;
}

// ---- readings ----------------------------------------------------------------------------

export interface Limits {
  min: number | null;
  max: number | null;
}

/** The range a reading is held to: the bound asset's temperature or humidity range. */
export function limitsOf(key: string, asset: BoundAsset | null | undefined): Limits | null {
  if (!asset) return null;
  const l = key === 'temperature' ? { min: asset.tempMin, max: asset.tempMax } : key === 'humidity' ? { min: asset.humidityMin, max: asset.humidityMax } : null;
  return l && (l.min !== null || l.max !== null) ? l : null;
}

/** Outside [min, max] (the bounds themselves are inside); no reading or no limits is never out. */
export function isOutOfLimits(value: unknown, limits: Limits | null): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value) || !limits) return false;
  return (limits.min !== null && value < limits.min) || (limits.max !== null && value > limits.max);
}

/** Whether a sensor value deserves the danger colour: out of its asset's range, or a low battery. */
export function isAlarming(key: SensorKey, value: unknown, asset: BoundAsset | null | undefined): boolean {
  if (key === 'battery') return typeof value === 'number' && isBatteryLow(value);
  return isOutOfLimits(value, limitsOf(key, asset));
}

/** A number with its sensor's decimals ('6.0'); null for no reading. */
export function rounded(value: unknown, precision: number): string | null {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(precision) : null;
}

/** An ISO time as the console shows it, in the user's time zone. */
export function formatTime(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = dayjs(iso);
  return d.isValid() ? d.format(DATETIME_FORMAT) : null;
}

/** A range as text: '2 ~ 8'; one-sided ranges show the open side as '-'. */
export function rangeText(limits: Limits | null): string | null {
  if (!limits) return null;
  return `${limits.min ?? '-'} ~ ${limits.max ?? '-'}`;
}

// ---- table rows --------------------------------------------------------------------------

/** A device state as the table shows it: one field per column, numbers rounded to their precision. */
export interface MonitorRow {
  id: string;
  deviceId: string;
  name: string;
  asset: string | null;
  orgName: string;
  status: DeviceStatus;
  lastSeenAt: string | null;
  speed: string | null;
  temperature: string | null;
  tempMin: number | null;
  tempMax: number | null;
  tempRange: string | null;
  humidity: string | null;
  humidityMin: number | null;
  humidityMax: number | null;
  humidityRange: string | null;
  battery: number | null;
  door: string | null;
  light: string | null;
  vibration: string | null;
  pressure: string | null;
  batteryTemperature: string | null;
  mileage: string | null;
  fuel: string | null;
  signal: string | null;
  satellites: string | null;
}

const PRECISION = Object.fromEntries(SENSOR_FIELDS.map((f) => [f.key, f.precision])) as Record<SensorKey, number>;

export function toMonitorRow(s: DeviceState): MonitorRow {
  const v = s.sensors;
  const r = (key: SensorKey) => rounded(v[key], PRECISION[key]);
  const a = s.asset;
  return {
    id: s.id,
    deviceId: s.deviceId,
    name: s.name,
    asset: a ? (a.name && a.name !== a.code ? `${a.code} ${a.name}` : a.code) : null,
    orgName: s.orgName,
    status: s.status,
    lastSeenAt: formatTime(s.lastSeenAt),
    speed: rounded(s.speed, 1),
    temperature: r('temperature'),
    tempMin: a?.tempMin ?? null,
    tempMax: a?.tempMax ?? null,
    tempRange: rangeText(limitsOf('temperature', a)),
    humidity: r('humidity'),
    humidityMin: a?.humidityMin ?? null,
    humidityMax: a?.humidityMax ?? null,
    humidityRange: rangeText(limitsOf('humidity', a)),
    battery: typeof v.battery === 'number' ? v.battery : null,
    door: typeof v.door === 'string' ? v.door : null,
    light: r('light'),
    vibration: r('vibration'),
    pressure: r('pressure'),
    batteryTemperature: r('batteryTemperature'),
    mileage: r('mileage'),
    fuel: r('fuel'),
    signal: r('signal'),
    satellites: r('satellites'),
  };
}

const rowCache = new WeakMap<DeviceState, MonitorRow>();

/**
 * The rows of a page; a state seen before gives the same row object again, so the table (with
 * immutable rows) draws only the rows a live batch replaced.
 */
export function monitorRows(states: readonly DeviceState[]): MonitorRow[] {
  return states.map((s) => {
    let row = rowCache.get(s);
    if (!row) {
      row = toMonitorRow(s);
      rowCache.set(s, row);
    }
    return row;
  });
}

// ---- live merging ------------------------------------------------------------------------

/**
 * The table page with the batch's newer states put in place by id. Rows keep their order and
 * stay even when their new status no longer matches the tab (until the next read); the same
 * array comes back when the batch touches none of them.
 */
export function mergeRows(rows: readonly DeviceState[], batch: ReadonlyMap<string, DeviceState>): DeviceState[] {
  let changed = false;
  const next = rows.map((r) => {
    const s = batch.get(r.id);
    if (!s || s === r) return r;
    changed = true;
    return s;
  });
  return changed ? next : (rows as DeviceState[]);
}

/**
 * The map points with the batch applied: known devices move and change colour; a device that
 * no longer matches the filters leaves the map (except the selected one); a new device that
 * matches joins it. Devices without a position are not drawn. The same array comes back when
 * nothing changed, so the map is not redrawn for nothing.
 */
export function mergePoints(
  points: readonly MapPoint[],
  batch: ReadonlyMap<string, DeviceState>,
  filter: MonitorFilter,
  keepId?: string | null,
): MapPoint[] {
  if (batch.size === 0) return points as MapPoint[];
  let changed = false;
  const seen = new Set<string>();
  const next: MapPoint[] = [];
  for (const p of points) {
    const s = batch.get(p.id);
    if (!s) {
      next.push(p);
      continue;
    }
    seen.add(p.id);
    if (!matchesFilter(s, filter) && p.id !== keepId) {
      changed = true;
      continue;
    }
    // Without a new position the device stays where it was last seen.
    const lat = s.lat ?? p.lat;
    const lon = s.lon ?? p.lon;
    if (p.status === s.status && p.lat === lat && p.lon === lon && p.name === s.name) next.push(p);
    else {
      next.push({ id: s.id, deviceId: s.deviceId, name: s.name, status: s.status, lat, lon });
      changed = true;
    }
  }
  for (const s of batch.values()) {
    if (seen.has(s.id) || s.lat === null || s.lon === null || !matchesFilter(s, filter)) continue;
    next.push({ id: s.id, deviceId: s.deviceId, name: s.name, status: s.status, lat: s.lat, lon: s.lon });
    changed = true;
  }
  return changed ? next : (points as MapPoint[]);
}

/** Live states pushed since the last flush, the newest state of each device. */
export class StateBuffer extends LiveBuffer<DeviceState> {}

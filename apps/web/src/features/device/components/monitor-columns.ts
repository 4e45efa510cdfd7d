// The monitoring table as a declaration: identity, status and last report first, then the
// readings with their units from the sensor dictionary; temperature and humidity as limit
// cells held to the bound asset's range, battery as a percentage badge, door as Open/Closed.
// Device id and name stay in view while the wide table scrolls sideways; the range columns and
// battery temperature start hidden (the custom-columns dialog shows them).
import { DEVICE_STATUSES, STATUS_COLORS } from '@iotc/shared/live';
import { SENSOR_FIELDS, type SensorKey } from '@iotc/shared/sensors';
import type { TableColumn, TableDescriptor } from '../../../components/data-table/types.ts';
import type { MonitorRow } from './monitor-model.ts';

const UNIT = Object.fromEntries(SENSOR_FIELDS.map((f) => [f.key, f.unit])) as Record<SensorKey, string>;

const unitColumn = (key: Exclude<SensorKey, 'door' | 'battery' | 'temperature' | 'humidity'>, hidden = false): TableColumn<MonitorRow> => ({
  key: `sensor.${key}`,
  value: key,
  type: 'unit',
  unit: UNIT[key],
  hidden,
});

export const MONITOR_COLUMNS: TableColumn<MonitorRow>[] = [
  { key: 'monitor.col.deviceId', value: 'deviceId', sortable: true, width: 160, fixedLeft: true },
  { key: 'monitor.col.name', value: 'name', sortable: true, width: 170, fixedLeft: true },
  { key: 'monitor.col.asset', value: 'asset', width: 200 },
  { key: 'monitor.col.org', value: 'orgName', width: 160 },
  {
    key: 'monitor.col.status',
    value: 'status',
    type: 'button',
    sortable: true,
    width: 100,
    buttons: DEVICE_STATUSES.map((s) => ({ key: s, text: `monitor.status.${s}`, butType: 'tag', background: STATUS_COLORS[s], color: '#fff' })),
  },
  { key: 'monitor.col.lastSeen', value: 'lastSeenAt', sortable: true, width: 165 },
  { key: 'sensor.speed', value: 'speed', type: 'unit', unit: 'km/h', sortable: true, width: 110 },
  {
    key: 'sensor.temperature',
    value: 'temperature',
    type: 'limit',
    unit: UNIT.temperature,
    minValueField: 'tempMin',
    maxValueField: 'tempMax',
    testId: 'monitor-cell-temperature',
    width: 110,
  },
  { key: 'monitor.col.tempRange', value: 'tempRange', unit: UNIT.temperature, type: 'unit', hidden: true, width: 130 },
  {
    key: 'sensor.humidity',
    value: 'humidity',
    type: 'limit',
    unit: UNIT.humidity,
    minValueField: 'humidityMin',
    maxValueField: 'humidityMax',
    testId: 'monitor-cell-humidity',
    width: 110,
  },
  { key: 'monitor.col.humidityRange', value: 'humidityRange', unit: UNIT.humidity, type: 'unit', hidden: true, width: 130 },
  { key: 'sensor.battery', value: 'battery', type: 'battery', width: 100 },
  { key: 'sensor.door', value: 'door', type: 'map', textMap: { open: 'sensor.door.open', closed: 'sensor.door.closed' }, width: 90 },
  unitColumn('light'),
  unitColumn('vibration'),
  unitColumn('pressure'),
  unitColumn('batteryTemperature', true),
  unitColumn('mileage'),
  unitColumn('fuel', true),
  unitColumn('signal', true),
  unitColumn('satellites', true),
];

/** The table of one user: the column preference cookies carry the user's id, so each user keeps their own. */
export function monitorDescriptor(userId: string | undefined): TableDescriptor<MonitorRow> {
  return {
    id: userId ? `monitor-${userId}` : 'monitor',
    rowKey: 'id',
    columns: MONITOR_COLUMNS,
    pageSizes: 'main',
    ellipsis: true,
    immutableRows: true,
  };
}

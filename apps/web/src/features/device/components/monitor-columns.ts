// The monitoring table as a declaration: identity, status and last report first, then the
// readings with their units from the sensor dictionary; temperature and humidity as limit
// cells held to the bound asset's range, battery as a percentage badge, door as Open/Closed.
// At 1280 px the default columns (identity, status, last report, temperature, humidity, battery)
// fit the page on one line each; asset, organisation, speed, door, the other readings and the
// range columns start hidden (the custom-columns dialog shows them, and a table of 10 or more
// then scrolls sideways with device id and name in view).
import { DEVICE_STATUSES, STATUS_COLORS } from '@iotc/shared/live';
import { SENSOR_FIELDS, type SensorKey } from '@iotc/shared/sensors';
import type { TableColumn, TableDescriptor } from '../../../components/data-table/types.ts';
import { readableTextOn } from '../../../lib/color.ts';
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
  { key: 'monitor.col.deviceId', value: 'deviceId', sortable: true, width: 150, fixedLeft: true },
  { key: 'monitor.col.name', value: 'name', sortable: true, width: 150, fixedLeft: true },
  { key: 'monitor.col.asset', value: 'asset', width: 200, hidden: true },
  { key: 'monitor.col.org', value: 'orgName', width: 160, hidden: true },
  {
    key: 'monitor.col.status',
    value: 'status',
    type: 'button',
    sortable: true,
    width: 90,
    buttons: DEVICE_STATUSES.map((s) => ({ key: s, text: `monitor.status.${s}`, butType: 'tag', background: STATUS_COLORS[s], color: readableTextOn(STATUS_COLORS[s]) })),
  },
  { key: 'monitor.col.lastSeen', value: 'lastSeenAt', type: 'datetime', sortable: true },
  { key: 'sensor.speed', value: 'speed', type: 'unit', unit: 'km/h', sortable: true, width: 110, hidden: true },
  {
    key: 'sensor.temperature',
    value: 'temperature',
    type: 'limit',
    unit: UNIT.temperature,
    minValueField: 'tempMin',
    maxValueField: 'tempMax',
    testId: 'monitor-cell-temperature',
    width: 100,
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
    width: 100,
  },
  { key: 'monitor.col.humidityRange', value: 'humidityRange', unit: UNIT.humidity, type: 'unit', hidden: true, width: 130 },
  { key: 'sensor.battery', value: 'battery', type: 'battery', width: 80 },
  { key: 'sensor.door', value: 'door', type: 'map', textMap: { open: 'sensor.door.open', closed: 'sensor.door.closed' }, width: 90, hidden: true },
  unitColumn('light', true),
  unitColumn('vibration', true),
  unitColumn('pressure', true),
  unitColumn('batteryTemperature', true),
  unitColumn('mileage', true),
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

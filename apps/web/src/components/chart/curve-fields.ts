// The sensor curves the console draws (sensor screen, monitoring details): each value of the
// series call with its label, unit, precision and colour, in display order (the sensor
// dictionary's order, speed, the door last).
import type { Series } from '@iotc/shared/live';
import { SENSOR_FIELDS, type SensorField } from '@iotc/shared/sensors';

/** A curve key of the series call: a sensor value, or the report's speed. */
export type CurveKey = SensorField['key'] | 'speed';

export interface CurveField {
  key: CurveKey;
  /** i18n key of the name. */
  label: `sensor.${CurveKey}`;
  unit: string;
  precision: number;
  color: string;
}

const COLORS: Record<CurveKey, string> = {
  temperature: '#f5222d',
  humidity: '#13c2c2',
  light: '#d4b106',
  vibration: '#722ed1',
  pressure: '#2f54eb',
  battery: '#52c41a',
  batteryTemperature: '#fa541c',
  mileage: '#597ef7',
  speed: '#1677ff',
  door: '#eb2f96',
  fuel: '#a0d911',
  signal: '#08979c',
  satellites: '#9254de',
};

const field = (f: SensorField): CurveField => ({ key: f.key, label: `sensor.${f.key}`, unit: f.unit, precision: f.precision, color: COLORS[f.key] });

export const CURVE_FIELDS: readonly CurveField[] = [
  ...SENSOR_FIELDS.filter((f) => f.key !== 'door').map(field),
  { key: 'speed', label: 'sensor.speed', unit: 'km/h', precision: 1, color: COLORS.speed },
  ...SENSOR_FIELDS.filter((f) => f.key === 'door').map(field),
];

/** The curves a series can draw: those with at least one value, in display order. */
export function presentCurves(series: Series | undefined): CurveField[] {
  if (!series) return [];
  return CURVE_FIELDS.filter((f) => series.values[f.key]?.some((v) => v !== null));
}

// The inverse of the shared decoder (packages/shared/src/sensors.ts): sensor values as the
// console shows them, back to the raw `extraData` blocks a tracker sends.
import { TEMP_NO_READING_C, TEMP_SIGN_OFFSET, type SensorValues } from '@iotc/shared/sensors';

/** Largest magnitude a sign-magnitude temperature holds: 32767 tenths. */
const TEMP_MAX_TENTHS = TEMP_SIGN_OFFSET - 1;

const tenths = (v: number) => Math.round(v * 10);

/**
 * Sign-magnitude raw temperature: t >= 0 is round(t * 10), t < 0 is 32768 + round(-t * 10).
 * A missing reading (null) is sent as the sensor's "absent" value, -30.0 C.
 */
export function encodeTemperature(celsius: number | null): number {
  const t = celsius ?? TEMP_NO_READING_C;
  const magnitude = tenths(Math.abs(t));
  if (magnitude > TEMP_MAX_TENTHS) throw new RangeError(`temperature ${t} C is out of the sensor's range`);
  return t < 0 && magnitude > 0 ? TEMP_SIGN_OFFSET + magnitude : magnitude;
}

/**
 * Splits a vibration (g) into integer axis readings (tenths of g) whose length decodes to the
 * same value at the decoder's two decimals. Sensors send whole numbers per axis, so not every
 * value has an exact triple; then the nearest one is used (at most 0.05 g off, only below about
 * 1 g). The dominant axis is z, the way a mounted sensor reads road shocks.
 */
export function vibrationAxes(g: number): { x: number; y: number; z: number } {
  if (!(g >= 0) || !Number.isFinite(g)) throw new RangeError(`vibration ${g} g must be a finite number >= 0`);
  const target = Math.round(g * 100);
  // The squared lengths n = x² + y² + z² with round(10 * sqrt(n)) === target.
  const lo = Math.ceil(((target - 0.5) / 10) ** 2);
  const hi = ((target + 0.5) / 10) ** 2;
  for (let z = Math.floor(Math.sqrt(hi)); z * z * 3 >= lo && z >= 0; z--) {
    for (let y = 0; y <= z; y++) {
      const rest = lo - z * z - y * y;
      const x = rest <= 0 ? 0 : Math.ceil(Math.sqrt(rest));
      if (x > y) continue;
      if (x * x + y * y + z * z < hi) return { x, y, z };
    }
  }
  return { x: 0, y: 0, z: Math.round(g * 10) };
}

type Blocks = Record<string, Record<string, number>>;

function put(blocks: Blocks, block: string, field: string, value: number | undefined) {
  if (value === undefined) return;
  (blocks[block] ??= {})[field] = value;
}

/**
 * The `extraData` JSON text of a report: only the blocks that carry a value. Values are rounded
 * to the raw resolution (0.1 for battery, temperatures, humidity and mileage; whole lux and kPa).
 */
export function encodeExtraData(values: SensorValues): string {
  const blocks: Blocks = {};
  put(blocks, '1', 'batval', values.battery === undefined ? undefined : tenths(values.battery));
  if (values.temperature !== undefined) put(blocks, '3', 'temp', encodeTemperature(values.temperature));
  put(blocks, '3', 'humidity', values.humidity === undefined ? undefined : tenths(values.humidity));
  put(blocks, '4', 'light', values.light === undefined ? undefined : Math.round(values.light));
  if (values.vibration !== undefined) {
    const { x, y, z } = vibrationAxes(values.vibration);
    put(blocks, '4', 'acc_x', x);
    put(blocks, '4', 'acc_y', y);
    put(blocks, '4', 'acc_z', z);
  }
  put(blocks, '4', 'press', values.pressure === undefined ? undefined : Math.round(values.pressure));
  put(blocks, '14', 'mileage', values.mileage === undefined ? undefined : tenths(values.mileage));
  put(blocks, '16', 'gac', values.door === undefined ? undefined : values.door === 'open' ? 1 : 0);
  put(blocks, '21', 'bat_T', values.batteryTemperature === undefined ? undefined : tenths(values.batteryTemperature));
  return JSON.stringify(blocks);
}

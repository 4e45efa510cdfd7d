// Sensor records of a device report: the `extraData` blocks decoded exactly as the spec's
// section 9 says, and the one dictionary of sensor values (unit, i18n key, precision) that every
// table, detail panel, curve and export uses.
import { BATTERY_LOW_PERCENT } from './constants.ts';

/** Raw temperatures are sign-magnitude around this value. */
export const TEMP_SIGN_OFFSET = 32768;
/** A decoded temperature at or below this is no reading (the sensor's "absent" value). */
export const TEMP_NO_READING_C = -30;

export interface SensorValues {
  /** Block 1 `batval` / 10, percent. */
  battery?: number;
  /** Block 3 `temp`, degrees Celsius; null when the sensor reports no reading. */
  temperature?: number | null;
  /** Block 3 `humidity` / 10, percent. */
  humidity?: number;
  /** Block 4 `light`, lux. */
  light?: number;
  /** Block 4 |(acc_x, acc_y, acc_z)| / 10, g, two decimals. */
  vibration?: number;
  /** Block 4 `press`, kPa. */
  pressure?: number;
  /** Block 14 `mileage` / 10, km. */
  mileage?: number;
  /** Block 16 `gac`: 0 closed, 1 open. */
  door?: 'closed' | 'open';
  /** Block 21 `bat_T` x 0.1, degrees Celsius. */
  batteryTemperature?: number;
  /** Block `jt808` `fuel`: a JT/T 808 terminal's fuel (item 0x02), litres. */
  fuel?: number;
  /** Block `jt808` `signal`: a JT/T 808 terminal's wireless signal strength (item 0x30). */
  signal?: number;
  /** Block `jt808` `satellites`: GNSS satellites in use (item 0x31). */
  satellites?: number;
}

export type SensorKey = keyof SensorValues;

/** Raw blocks as received, keyed by block id. */
export type RawBlocks = Record<string, Record<string, unknown>>;

export type DecodeResult = { ok: true; values: SensorValues; raw: RawBlocks } | { ok: false; reason: string };

/** The blocks each sensor value comes from, and the fields of each known block. */
export const BLOCK_FIELDS: Record<string, readonly string[]> = {
  '1': ['batval'],
  '3': ['temp', 'humidity'],
  '4': ['light', 'acc_x', 'acc_y', 'acc_z', 'press'],
  '14': ['mileage'],
  '16': ['gac'],
  '21': ['bat_T'],
  // What a JT/T 808 terminal's standard items decode to (modules/jt808/reports.ts); the rest of the block stays raw.
  jt808: ['fuel', 'signal', 'satellites'],
};

/** Divides by ten without the binary noise of multiplying by 0.1. */
const tenth = (raw: number) => raw / 10;

/** Sign-magnitude temperature: above 32768 is negative, exactly 32768 is 0; at or below -30 C is no reading. */
export function decodeTemperature(raw: number): number | null {
  const celsius = raw > TEMP_SIGN_OFFSET ? -tenth(raw - TEMP_SIGN_OFFSET) : raw === TEMP_SIGN_OFFSET ? 0 : tenth(raw);
  return celsius <= TEMP_NO_READING_C ? null : celsius;
}

export function decodeVibration(x: number, y: number, z: number): number {
  return Math.round((Math.hypot(x, y, z) / 10) * 100) / 100;
}

function parseBlocks(extraData: unknown): RawBlocks | string {
  let parsed: unknown = extraData;
  if (typeof extraData === 'string') {
    if (extraData.trim() === '') return {};
    try {
      parsed = JSON.parse(extraData);
    } catch {
      return 'extraData is not JSON';
    }
  }
  if (parsed === null || parsed === undefined) return {};
  const blocks: RawBlocks = {};
  if (Array.isArray(parsed)) {
    // The list form: each block an object carrying its own id.
    for (const item of parsed) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'extraData list items must be objects';
      const { id, ...fields } = item as Record<string, unknown>;
      if (typeof id !== 'number' && typeof id !== 'string') return 'extraData list items need an id';
      blocks[String(id)] = fields;
    }
    return blocks;
  }
  if (typeof parsed !== 'object') return 'extraData must be an object or a list of blocks';
  for (const [id, fields] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return `block ${id} must be an object`;
    blocks[id] = fields as Record<string, unknown>;
  }
  return blocks;
}

/** [block, field] of every field decodeExtraData reads, in BLOCK_FIELDS order. */
const KNOWN_FIELDS: readonly (readonly [string, string])[] = Object.entries(BLOCK_FIELDS).flatMap(([block, fields]) => fields.map((field) => [block, field] as const));

/**
 * Decodes `extraData` (JSON text, or an already parsed value). Unknown blocks and fields are
 * kept raw and ignored; a known field that is not a finite number (or a door state other than
 * 0/1) rejects the whole report with the reason.
 */
export function decodeExtraData(extraData: unknown): DecodeResult {
  const raw = parseBlocks(extraData);
  if (typeof raw === 'string') return { ok: false, reason: raw };
  const values: SensorValues = {};
  // Every known field checked first, in order; then read where they go (nothing built per report).
  for (const [block, field] of KNOWN_FIELDS) {
    const v = raw[block]?.[field];
    if (v !== undefined && v !== null && (typeof v !== 'number' || !Number.isFinite(v))) return { ok: false, reason: `block ${block} field ${field} must be a number` };
  }
  const r = (block: string, field: string): number | undefined => {
    const v = raw[block]?.[field];
    return v === null ? undefined : (v as number | undefined);
  };
  if (r('1', 'batval') !== undefined) values.battery = tenth(r('1', 'batval')!);
  if (r('3', 'temp') !== undefined) values.temperature = decodeTemperature(r('3', 'temp')!);
  if (r('3', 'humidity') !== undefined) values.humidity = tenth(r('3', 'humidity')!);
  if (r('4', 'light') !== undefined) values.light = r('4', 'light');
  const axes = [r('4', 'acc_x'), r('4', 'acc_y'), r('4', 'acc_z')];
  if (axes.some((a) => a !== undefined)) {
    if (axes.some((a) => a === undefined)) return { ok: false, reason: 'block 4 needs acc_x, acc_y and acc_z together' };
    values.vibration = decodeVibration(axes[0]!, axes[1]!, axes[2]!);
  }
  if (r('4', 'press') !== undefined) values.pressure = r('4', 'press');
  if (r('14', 'mileage') !== undefined) values.mileage = tenth(r('14', 'mileage')!);
  if (r('16', 'gac') !== undefined) {
    const gac = r('16', 'gac');
    if (gac !== 0 && gac !== 1) return { ok: false, reason: 'block 16 field gac must be 0 (closed) or 1 (open)' };
    values.door = gac === 1 ? 'open' : 'closed';
  }
  if (r('21', 'bat_T') !== undefined) values.batteryTemperature = tenth(r('21', 'bat_T')!);
  if (r('jt808', 'fuel') !== undefined) values.fuel = r('jt808', 'fuel');
  if (r('jt808', 'signal') !== undefined) values.signal = r('jt808', 'signal');
  if (r('jt808', 'satellites') !== undefined) values.satellites = r('jt808', 'satellites');
  return { ok: true, values, raw };
}

export interface SensorField {
  key: SensorKey;
  /** i18n key of the value's name. */
  label: string;
  unit: string;
  /** Decimals shown. */
  precision: number;
}

/** The sensor values in display order, each with its unit and label key. */
export const SENSOR_FIELDS: readonly SensorField[] = [
  { key: 'temperature', label: 'sensor.temperature', unit: '°C', precision: 1 },
  { key: 'humidity', label: 'sensor.humidity', unit: '%', precision: 1 },
  { key: 'light', label: 'sensor.light', unit: 'LUX', precision: 0 },
  { key: 'vibration', label: 'sensor.vibration', unit: 'g', precision: 2 },
  { key: 'pressure', label: 'sensor.pressure', unit: 'kpa', precision: 0 },
  { key: 'battery', label: 'sensor.battery', unit: '%', precision: 1 },
  { key: 'batteryTemperature', label: 'sensor.batteryTemperature', unit: '°C', precision: 1 },
  { key: 'mileage', label: 'sensor.mileage', unit: 'km', precision: 1 },
  { key: 'fuel', label: 'sensor.fuel', unit: 'L', precision: 1 },
  { key: 'signal', label: 'sensor.signal', unit: '', precision: 0 },
  { key: 'satellites', label: 'sensor.satellites', unit: '', precision: 0 },
  { key: 'door', label: 'sensor.door', unit: '', precision: 0 },
];

/** Below 20 percent a battery is low (shown in the danger colour). */
export function isBatteryLow(percent: number): boolean {
  return percent < BATTERY_LOW_PERCENT;
}

// Numbers as people read them, the same on every screen, document, export and message: a value
// rounded to its unit's precision (the sensor field dictionary's, sensors.ts) with its unit, and a
// duration in hours, minutes and seconds in the user's language.
import { ALARM_TYPE_INFO, type AlarmTypeInfo } from './alarm.ts';
import { SENSOR_FIELDS } from './sensors.ts';
import type { Lang } from './i18n.ts';

/** Decimals shown per unit: the sensor dictionary's precision, and the alarm-only units. */
const PRECISION_BY_UNIT: Record<string, number> = {
  ...Object.fromEntries(SENSOR_FIELDS.filter((f) => f.unit).map((f) => [f.unit, f.precision])),
  kPa: 0,
  'km/h': 1,
  m: 0,
};

/** `value` rounded to `precision` decimals, without trailing zeros ('111.8', '9', '-18.5'). */
export function roundedText(value: number, precision: number): string {
  const f = 10 ** precision;
  const r = Math.round(value * f) / f;
  return String(Object.is(r, -0) ? 0 : r);
}

/** The decimals a value of `unit` is shown with (2 for a unit the dictionary does not know). */
export function precisionOf(unit: string): number {
  return PRECISION_BY_UNIT[unit] ?? 2;
}

/** A duration: '3 min 22 s', '1 h 05 min 00 s' / '3分22秒', '1小时05分00秒'. */
export function durationText(seconds: number, lang: Lang): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (lang === 'zh') return h ? `${h}小时${pad(m)}分${pad(r)}秒` : m ? `${m}分${pad(r)}秒` : `${r}秒`;
  return h ? `${h} h ${pad(m)} min ${pad(r)} s` : m ? `${m} min ${pad(r)} s` : `${r} s`;
}

/** A measured value with its unit ('111.8 km/h', '9.5 °C', '3 min 12 s'); '-' for none. */
export function unitValueText(value: number | null | undefined, unit: string, lang: Lang): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  if (unit === 's') return durationText(value, lang);
  const v = roundedText(value, precisionOf(unit));
  return unit ? `${v} ${unit}` : v;
}

/** The unit an alarm type measures in ('' for a type this build does not know). */
export function alarmUnit(type: string): string {
  return (ALARM_TYPE_INFO as Record<string, AlarmTypeInfo | undefined>)[type]?.unit ?? '';
}

/** An alarm's value, peak or threshold as its type measures it. */
export function alarmValueText(type: string, value: number | null | undefined, lang: Lang): string {
  return unitValueText(value, alarmUnit(type), lang);
}

/** The same as a number for a spreadsheet cell: rounded to the unit's precision (seconds stay seconds). */
export function alarmValueNumber(type: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return Number(roundedText(value, alarmUnit(type) === 's' ? 0 : precisionOf(alarmUnit(type))));
}

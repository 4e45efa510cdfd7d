// The world around the simulated devices: outdoor temperature, daylight and air pressure by
// place and China time, and the shapes sensor readings follow when a door opens or a battery
// drains. All are functions of time, like the rest of the simulator.
import { mix, smoothNoise } from './random.ts';

const HOUR = 3_600_000;

/** Hour of the day in China (UTC+8), 0-24. */
function chinaHour(tMs: number): number {
  return (((tMs / HOUR + 8) % 24) + 24) % 24;
}

/** Outdoor air, C: warmer in the south, coolest at dawn and warmest at 15:00. */
export function outdoorC(lat: number, tMs: number): number {
  return 24 - 0.9 * (lat - 22) + 5 * Math.sin((2 * Math.PI * (chinaHour(tMs) - 9)) / 24);
}

/** Light falling through an open door, lux: daylight from 06:00 to 18:00, yard lamps at night. */
export function daylightLux(tMs: number): number {
  const h = chinaHour(tMs);
  return h >= 6 && h <= 18 ? 150 + 1850 * Math.sin((Math.PI * (h - 6)) / 12) : 40;
}

/** Air pressure, kPa: weather systems of a few days, shared by devices in the same region. */
export function pressureKpa(lat: number, lon: number, tMs: number): number {
  return 101.3 + 1.2 * smoothNoise(mix(Math.round(lat), Math.round(lon)), tMs, 36 * HOUR);
}

/** A door opening: [startMs, endMs). */
export interface Opening {
  startMs: number;
  endMs: number;
}

/**
 * How far (0-1) the inside has gone towards the outside air because of an opening: it closes
 * the gap with time constant `riseMs` while open, and the cooling unit takes it back with
 * `fallMs` after the door shuts.
 */
export function openingShare(o: Opening, tMs: number, riseMs: number, fallMs: number): number {
  if (tMs < o.startMs) return 0;
  const rise = (to: number) => 1 - Math.exp(-(to - o.startMs) / riseMs);
  if (tMs < o.endMs) return rise(tMs);
  return rise(o.endMs) * Math.exp(-(tMs - o.endMs) / fallMs);
}

/**
 * A battery that drains from `high` to `low` percent over most of `periodMs` and is then
 * recharged (or replaced) in the last `chargeShare` of it.
 */
export function sawtoothBattery(tMs: number, opts: { periodMs: number; phaseMs: number; low: number; high: number; chargeShare: number }): number {
  const p = ((((tMs + opts.phaseMs) / opts.periodMs) % 1) + 1) % 1;
  const drain = 1 - opts.chargeShare;
  const span = opts.high - opts.low;
  return p < drain ? opts.high - (span * p) / drain : opts.low + (span * (p - drain)) / opts.chargeShare;
}

// A JT/T 808 fix as the JSON report of DESIGN.md ("Device report format"), so that it goes
// through the same intake pipeline as MQTT and HTTP reports. Mileage (item 0x01, 0.1 km) becomes
// block 14 (`mileage`, 0.1 km as well); what the report format has no field for (alarm and
// status words, altitude, the other items, the frame itself) is kept raw in block `jt808`,
// which the sensor decoder keeps unread beside the readings.
import type { Location } from './location.ts';

export interface Jt808Report {
  deviceId: string;
  /** Absent when the terminal sent no valid time: the pipeline refuses the report with that reason. */
  time?: string;
  lat?: number;
  lon?: number;
  positioning?: 'GPS';
  speed: number;
  course?: number;
  acc: boolean;
  extraData: Record<string, Record<string, unknown>>;
}

export function locationReport(deviceId: string, location: Location, raw: { messageId: number; frameHex?: string }): Jt808Report {
  const kept: Record<string, unknown> = {
    msg: `0x${raw.messageId.toString(16).padStart(4, '0')}`,
    alarm: location.alarm,
    status: location.status,
    altitude: location.altitude,
  };
  if (location.alarms.length) kept.alarms = location.alarms;
  if (location.fuelLitres !== undefined) kept.fuel = location.fuelLitres;
  if (location.recorderSpeedKmh !== undefined) kept.recorderSpeed = location.recorderSpeedKmh;
  if (location.signal !== undefined) kept.signal = location.signal;
  if (location.satellites !== undefined) kept.satellites = location.satellites;
  if (Object.keys(location.extras).length) kept.items = location.extras;
  if (location.trailing) kept.trailing = location.trailing;
  if (raw.frameHex) kept.frame = raw.frameHex;
  const extraData: Jt808Report['extraData'] = { jt808: kept };
  if (location.mileageKm !== undefined) extraData['14'] = { mileage: Math.round(location.mileageKm * 10) };
  const report: Jt808Report = {
    deviceId,
    speed: location.speedKmh,
    acc: location.acc,
    extraData,
  };
  if (location.time) report.time = location.time.toISOString();
  // An unpositioned fix keeps no position: the device's last known one stays.
  if (location.positioned) {
    report.lat = location.latitude;
    report.lon = location.longitude;
    report.positioning = 'GPS';
  }
  if (location.direction <= 360) report.course = location.direction;
  return report;
}

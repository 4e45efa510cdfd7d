// The readings a GSP temperature and humidity record is made from: those of every device bound
// to the asset during [from, to), each device's only while it was bound. Shared by the record
// (gsp.ts) and the canonical content its electronic signatures hash (modules/signature/content.ts).
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { GspReading } from '@iotc/shared/gsp-report';
import type { Db, Tx } from '../../db/client.ts';
import { deviceBindings, devices } from '../../db/schema.ts';
import { readPackRows, sensorNumber, sensorsOf } from '../archive/reader.ts';

export interface GspReadings {
  /** Sorted by time; only readings carrying a temperature or a humidity. */
  readings: GspReading[];
  /** The bound devices: device id → name, in the order they were bound. */
  devices: Map<string, string>;
}

async function readingsOf(q: Db | Tx, deviceRef: string, from: number, to: number): Promise<GspReading[]> {
  const out: GspReading[] = [];
  for (const p of await readPackRows(q, deviceRef, { from, to }, { fields: ['temperature', 'humidity'] })) {
    const s = sensorsOf(p);
    if (!('temperature' in s) && !('humidity' in s)) continue;
    out.push({ t: Math.floor(p.timeUs / 1000), temp: sensorNumber(s, 'temperature'), humidity: sensorNumber(s, 'humidity') });
  }
  return out;
}

/** The readings of the devices bound to the asset during [from, to) (ms). */
export async function gspReadings(q: Db | Tx, assetId: string, from: number, to: number): Promise<GspReadings> {
  // Every binding of the asset that overlaps the period; each device's readings only while bound.
  const bindings = await q
    .select({ deviceRef: deviceBindings.deviceRef, deviceId: deviceBindings.deviceId, name: devices.name, boundAt: deviceBindings.boundAt, unboundAt: deviceBindings.unboundAt })
    .from(deviceBindings)
    .leftJoin(devices, eq(devices.id, deviceBindings.deviceRef))
    .where(and(eq(deviceBindings.assetRef, assetId), lt(deviceBindings.boundAt, new Date(to)), or(isNull(deviceBindings.unboundAt), gt(deviceBindings.unboundAt, new Date(from)))))
    .orderBy(deviceBindings.boundAt);
  const readings: GspReading[] = [];
  const list = new Map<string, string>();
  for (const b of bindings) {
    list.set(b.deviceId, b.name ?? b.deviceId);
    if (!b.deviceRef) continue;
    const start = Math.max(from, b.boundAt.getTime());
    const end = Math.min(to, b.unboundAt?.getTime() ?? to);
    if (end > start) readings.push(...(await readingsOf(q, b.deviceRef, start, end)));
  }
  readings.sort((x, y) => x.t - y.t);
  return { readings, devices: list };
}

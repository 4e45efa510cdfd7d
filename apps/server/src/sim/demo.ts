// The demo organisation's simulated devices: live reports over MQTT while the server runs, and
// the past hours of reports for a fresh demo to show curves at once. Both use the same models
// and seed, so the backfilled track runs straight into the live one.
import type { DeviceReport } from '@iotc/shared/device';
import { createDevice, DEFAULT_SEED, step, type DeviceKind, type DeviceProfile } from './models.ts';
import { startSimulator, type SimLogger, type Simulator } from './publisher.ts';

/** The demo devices report every 10 s. */
export const DEMO_INTERVAL_MS = 10_000;

export interface DemoDevice {
  deviceId: string;
  secret: string;
  kind: DeviceKind;
  profile?: DeviceProfile;
}

export async function startDemoSimulation(opts: { mqttUrl: string; devices: readonly DemoDevice[]; intervalMs?: number; log: SimLogger }): Promise<Simulator> {
  // The demo devices answer remote-control commands too.
  return startSimulator({ mqttUrl: opts.mqttUrl, devices: opts.devices, intervalMs: opts.intervalMs ?? DEMO_INTERVAL_MS, seed: DEFAULT_SEED, log: opts.log, answerCommands: true });
}

/**
 * Each device's reports over the `hours` before `now`, one every `stepMs` on whole multiples of
 * it (e.g. each minute), oldest first, all before `now`.
 */
export function backfill(
  devices: readonly Pick<DemoDevice, 'deviceId' | 'kind' | 'profile'>[],
  opts: { hours: number; stepMs: number; now: number | Date },
): { deviceId: string; reports: DeviceReport[] }[] {
  if (!(opts.stepMs > 0)) throw new RangeError('stepMs must be > 0');
  const nowMs = typeof opts.now === 'number' ? opts.now : opts.now.getTime();
  const firstMs = Math.ceil((nowMs - opts.hours * 3_600_000) / opts.stepMs) * opts.stepMs;
  return devices.map((d) => {
    const sim = createDevice({ deviceId: d.deviceId, kind: d.kind, seed: DEFAULT_SEED, profile: d.profile });
    const reports: DeviceReport[] = [];
    for (let t = firstMs; t < nowMs; t += opts.stepMs) reports.push(step(sim, t));
    return { deviceId: d.deviceId, reports };
  });
}

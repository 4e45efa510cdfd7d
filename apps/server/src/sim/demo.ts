// The demo organisation's simulated devices: live reports while the server runs (over MQTT, and
// for its JT/T 808 terminals over TCP to the gateway), and the past hours of reports for a fresh
// demo to show curves at once. Both use the same models and seed, so the backfilled track runs
// straight into the live one.
import type { DeviceReport } from '@iotc/shared/device';
import { gatewayReportOf, startJt808Simulator } from './jt808-terminal.ts';
import { createDevice, DEFAULT_SEED, step, type DeviceKind, type DeviceProfile } from './models.ts';
import { startSimulator, type SimLogger, type Simulator, type SimulatorStats } from './publisher.ts';

/** The demo devices report every 10 s. */
export const DEMO_INTERVAL_MS = 10_000;
/** The demo's JT/T 808 terminals lose coverage for 90 s every 20 minutes, then re-send the fixes as a blind-area batch. */
export const DEMO_GAPS = { everyMs: 20 * 60_000, forMs: 90_000 };

export interface DemoDevice {
  deviceId: string;
  /** The MQTT password (json devices). */
  secret: string;
  kind: DeviceKind;
  profile?: DeviceProfile;
  /** json (default): MQTT; jt808: a JT/T 808 terminal over TCP. */
  protocol?: 'json' | 'jt808';
  /** The plate and model a JT/T 808 terminal registers with. */
  plate?: string;
  model?: string;
}

export async function startDemoSimulation(opts: {
  mqttUrl: string;
  /** The JT/T 808 gateway the jt808 devices connect to. */
  jt808?: { host: string; port: number };
  devices: readonly DemoDevice[];
  intervalMs?: number;
  log: SimLogger;
}): Promise<Simulator> {
  const intervalMs = opts.intervalMs ?? DEMO_INTERVAL_MS;
  const terminals = opts.devices.filter((d) => d.protocol === 'jt808');
  // The demo devices answer remote-control commands too.
  const sims = [startSimulator({ mqttUrl: opts.mqttUrl, devices: opts.devices.filter((d) => d.protocol !== 'jt808'), intervalMs, seed: DEFAULT_SEED, log: opts.log, answerCommands: true })];
  if (terminals.length && opts.jt808) {
    sims.push(startJt808Simulator({ ...opts.jt808, devices: terminals, intervalMs, seed: DEFAULT_SEED, log: opts.log, gaps: DEMO_GAPS }));
  }
  return {
    stats: () => {
      const all = sims.map((s) => s.stats());
      const sum = (k: keyof SimulatorStats) => all.reduce((n, s) => n + s[k], 0);
      return { devices: sum('devices'), connected: sum('connected'), refused: sum('refused'), sent: sum('sent'), acked: sum('acked'), failed: sum('failed') };
    },
    stop: async () => {
      await Promise.all(sims.map((s) => s.stop()));
    },
  };
}

/**
 * What the intake receives for a device's reports: the JSON reports over MQTT, or for a JT/T 808
 * terminal what the gateway makes of them sent as 0x0200 locations (no sensor blocks).
 */
export function asReceived(device: Pick<DemoDevice, 'deviceId' | 'protocol'>, reports: readonly DeviceReport[]): { channel: 'mqtt' | 'jt808'; reports: unknown[] } {
  if (device.protocol !== 'jt808') return { channel: 'mqtt', reports: [...reports] };
  return { channel: 'jt808', reports: reports.map((r) => gatewayReportOf(device.deviceId, r)) };
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

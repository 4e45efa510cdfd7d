// The demo organisation's simulated devices: live reports while the server runs (over MQTT, and
// for its JT/T 808 terminals over TCP to the gateway), and the past hours of reports for a fresh
// demo to show curves at once. Both use the same models and seed, so the backfilled track runs
// straight into the live one.
import type { DeviceReport } from '@iotc/shared/device';
import type { ReportingDevice } from '../ingest/pipeline.ts';
import type { Jt808Report } from '../modules/jt808/reports.ts';
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

/** What storing the past day needs: the intake pipeline, and the JT/T 808 gateway's item mappings (models.ts). */
export interface BackfillDeps {
  intake: { ingest(device: ReportingDevice, reports: unknown[], channel: 'mqtt' | 'jt808'): Promise<unknown> };
  items?: { apply(device: ReportingDevice, reports: Jt808Report[]): Promise<Jt808Report[]> };
}

/**
 * Stores the devices' reports of the `hours` before `now` (backfill) as they would have arrived:
 * JSON over MQTT, and for a JT/T 808 terminal the gateway's reports of its fixes with its model's
 * item mapping applied as the gateway applies it (so the reefer probe of item 0x51 is the
 * temperature, as it is live). In slices of 500 per device.
 */
export async function storeBackfill(
  devices: readonly (ReportingDevice & Pick<DemoDevice, 'kind' | 'profile' | 'protocol'>)[],
  deps: BackfillDeps,
  opts: { hours: number; stepMs: number; now: number | Date },
): Promise<void> {
  const past = backfill(devices, opts);
  // One entry per device, in the devices' order.
  for (const [i, d] of devices.entries()) {
    const { channel, reports } = asReceived(d, past[i]!.reports);
    const received = channel === 'jt808' && deps.items ? await deps.items.apply(d, reports as Jt808Report[]) : reports;
    for (let k = 0; k < received.length; k += 500) await deps.intake.ingest(d, received.slice(k, k + 500), channel);
  }
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

// The simulator against the real embedded broker (startMqtt) with a fake intake: devices sign
// in with their id and secret, publish decodable QoS 1 reports on their own topic, a vehicle's
// position moves, a device with a wrong secret is refused without stopping the others, and
// stop() closes every connection.
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { deviceReportSchema, type DeviceReport } from '@iotc/shared/device';
import { decodeExtraData } from '@iotc/shared/sensors';
import { startMqtt, type MqttLink, type ReportSink } from '../ingest/mqtt.ts';
import type { ReportingDevice } from '../ingest/pipeline.ts';
import { createDevice, step } from './models.ts';
import { startSimulator, type SimulatedDevice } from './publisher.ts';

const log = pino({ level: 'silent' });
const SEED = 11;
/** stop() waits at most 2 s for acknowledgements, then closes: well under this ceiling even on a loaded machine (a hang would not be). */
const STOP_LIMIT_MS = 10_000;
const devices: SimulatedDevice[] = [
  { deviceId: 'PUB-VEHICLE-1', secret: 'vehicle-secret', kind: 'vehicle' },
  { deviceId: 'PUB-ROOM-1', secret: 'room-secret', kind: 'coldroom' },
];
const impostor: SimulatedDevice = { deviceId: 'PUB-VEHICLE-2', secret: 'wrong', kind: 'vehicle' };

let link: MqttLink;
let received: { device: ReportingDevice; reports: unknown[] }[];
let refusals: string[];

/** The embedded broker with a fake intake that knows the two devices and the impostor's real secret. */
function startBroker(port: number): Promise<MqttLink> {
  const registry = new Map(devices.map((d) => [d.deviceId, d.secret]));
  registry.set(impostor.deviceId, 'the-real-secret');
  const sink: ReportSink = {
    deviceOf: async () => null,
    ingest: async (device, reports) => {
      received.push({ device, reports });
      return { accepted: reports.length, duplicates: 0, rejected: [] };
    },
    refuse: async (_channel, deviceId, reason) => {
      refusals.push(`${deviceId}: ${reason}`);
    },
  };
  return startMqtt({
    port,
    host: '127.0.0.1',
    log,
    sink,
    authenticate: async (username, password) =>
      registry.get(username) === password ? { id: `uuid-${username}`, orgId: 'org-1', deviceId: username } : null,
  });
}

beforeEach(async () => {
  received = [];
  refusals = [];
  link = await startBroker(0);
});
afterEach(async () => {
  await link.close();
});

/** A simulated instant when the vehicle is on the road, so its reports must move. */
function whileDriving(): number {
  const vehicle = createDevice({ deviceId: devices[0]!.deviceId, seed: SEED, kind: 'vehicle' });
  for (let t = Date.UTC(2026, 10, 21); ; t += 60_000) if (step(vehicle, t).speed! > 40 && step(vehicle, t + 60_000).speed! > 40) return t;
}

const reportsOf = (deviceId: string) => received.filter((r) => r.device.deviceId === deviceId).flatMap((r) => r.reports as DeviceReport[]);

describe('startSimulator', () => {
  it('publishes decodable reports for each device, moves the vehicle, refuses a wrong secret, and stops cleanly', async () => {
    const simStart = whileDriving();
    const wallStart = Date.now();
    const sim = startSimulator({
      mqttUrl: `mqtt://127.0.0.1:${link.port}`,
      devices: [...devices, impostor],
      intervalMs: 200,
      seed: SEED,
      log,
      clock: () => simStart + (Date.now() - wallStart),
    });
    await expect.poll(() => sim.stats().refused, { timeout: 5000 }).toBe(1);
    const atRefusal = devices.map((d) => reportsOf(d.deviceId).length);
    await new Promise((r) => setTimeout(r, 1500));
    const before = sim.stats();
    await sim.stop();

    expect(before).toMatchObject({ devices: 3, connected: 2, refused: 1, failed: 0 });
    expect(before.sent).toBeGreaterThanOrEqual(10);
    expect(before.acked).toBeGreaterThanOrEqual(before.sent - 2);
    expect(received.every((r) => r.device.deviceId !== impostor.deviceId)).toBe(true);
    expect(refusals).toEqual([]);
    devices.forEach((d, i) => {
      const reports = reportsOf(d.deviceId);
      // About one report per 200 ms, and still coming after the impostor was turned away.
      expect(reports.length, d.deviceId).toBeGreaterThanOrEqual(5);
      expect(reports.length, d.deviceId).toBeGreaterThan(atRefusal[i]!);
      for (const r of reports) {
        expect(deviceReportSchema.safeParse(r).success).toBe(true);
        expect(r.deviceId).toBe(d.deviceId);
        expect(decodeExtraData(r.extraData).ok).toBe(true);
      }
    });
    const vehicle = reportsOf(devices[0]!.deviceId);
    expect(new Set(vehicle.map((r) => `${r.lat},${r.lon}`)).size).toBeGreaterThan(1);
    const room = reportsOf(devices[1]!.deviceId);
    expect(new Set(room.map((r) => `${r.lat},${r.lon}`)).size).toBe(1);

    // Stopped: nothing more arrives.
    const total = received.length;
    await new Promise((r) => setTimeout(r, 400));
    expect(received.length).toBe(total);
    expect(sim.stats().connected).toBe(0);
  });

  it('keeps retrying while the broker is away, connects when it comes up, and stops at once', async () => {
    // A port that was free a moment ago: nothing listens there yet.
    const probe = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => probe.once('listening', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));

    const sim = startSimulator({ mqttUrl: `mqtt://127.0.0.1:${port}`, devices, intervalMs: 100, log });
    let late: MqttLink | undefined;
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(sim.stats()).toMatchObject({ connected: 0, refused: 0, sent: 0 });
      late = await startBroker(port);
      await expect.poll(() => sim.stats().acked, { timeout: 8000 }).toBeGreaterThan(2);
      expect(sim.stats().connected).toBe(2);
      const stopping = Date.now();
      await sim.stop();
      expect(Date.now() - stopping).toBeLessThan(STOP_LIMIT_MS);
    } finally {
      await sim.stop();
      await late?.close();
    }
  });
});

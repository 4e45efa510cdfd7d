// The demo's backfill covers the past hours on whole steps and joins the live reports without a
// jump; the demo simulation publishes the given kinds over MQTT.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { DeviceReport } from '@iotc/shared/device';
import { startMqtt } from '../ingest/mqtt.ts';
import { backfill, startDemoSimulation, type DemoDevice } from './demo.ts';
import { distanceKm } from './routes.ts';

const log = pino({ level: 'silent' });
const devices: DemoDevice[] = [
  { deviceId: 'DEMO-TRUCK-01', secret: 's1', kind: 'vehicle' },
  { deviceId: 'DEMO-REEFER-01', secret: 's2', kind: 'container' },
  { deviceId: 'DEMO-ROOM-01', secret: 's3', kind: 'coldroom' },
];

describe('backfill', () => {
  const now = Date.UTC(2026, 10, 21, 8, 0, 30);
  const [truck, reefer, room] = backfill(devices, { hours: 24, stepMs: 60_000, now: new Date(now) });

  it('gives each device one report a minute over the past 24 h, on whole minutes, oldest first', () => {
    for (const b of [truck!, reefer!, room!]) {
      expect(b.reports).toHaveLength(24 * 60);
      const times = b.reports.map((r) => Date.parse(r.time));
      expect(times[0]).toBe(Date.UTC(2026, 10, 20, 8, 1, 0));
      expect(times.at(-1)).toBe(Date.UTC(2026, 10, 21, 8, 0, 0));
      expect(times.every((t, i) => t % 60_000 === 0 && (i === 0 || t - times[i - 1]! === 60_000))).toBe(true);
      expect(b.reports.every((r) => r.deviceId === b.deviceId)).toBe(true);
    }
  });

  it('follows the given kinds: the cold room has no speed, the truck has ignition', () => {
    expect(room!.reports.every((r) => r.speed === undefined)).toBe(true);
    expect(truck!.reports.every((r) => typeof r.acc === 'boolean')).toBe(true);
    expect(reefer!.reports.every((r) => r.acc === undefined && r.speed !== undefined)).toBe(true);
  });

  it('ends where the live simulation goes on: the truck moves on at most its speed', () => {
    const gps = (r: DeviceReport) => r.positioning === 'GPS';
    const last = truck!.reports.filter(gps).at(-1)!;
    const [live] = backfill([devices[0]!], { hours: 0.05, stepMs: 1000, now: now + 10_000 });
    const next = live!.reports.filter(gps).at(-1)!;
    const hours = (Date.parse(next.time) - Date.parse(last.time)) / 3_600_000;
    expect(distanceKm([last.lat!, last.lon!], [next.lat!, next.lon!])).toBeLessThanOrEqual(100 * hours + 0.01);
  });
});

describe('startDemoSimulation', () => {
  it('publishes the demo devices over MQTT', async () => {
    const arrived = new Set<string>();
    const link = await startMqtt({
      port: 0,
      host: '127.0.0.1',
      log,
      authenticate: async (username, password) =>
        devices.some((d) => d.deviceId === username && d.secret === password) ? { id: username, orgId: 'demo', deviceId: username } : null,
      sink: {
        deviceOf: async () => null,
        ingest: async (device) => arrived.add(device.deviceId),
        refuse: async () => {},
      },
    });
    const sim = await startDemoSimulation({ mqttUrl: `mqtt://127.0.0.1:${link.port}`, devices, intervalMs: 100, log });
    try {
      await expect.poll(() => arrived.size, { timeout: 5000 }).toBe(3);
    } finally {
      await sim.stop();
      await link.close();
    }
  });
});

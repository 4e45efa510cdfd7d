// The per-device rate over real MQTT (embedded broker): a device publishing more than its burst
// at once has the excess refused, the reason in its intake log, and the broker keeps running;
// another device's reports meanwhile are all stored. The intake's own ingest (demo backfill,
// benches) is never throttled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import pino from 'pino';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../test/harness.ts';
import { intakeLog, telemetry } from '../db/schema.ts';
import { startMqtt } from './mqtt.ts';

const log = pino({ level: 'silent' });
const BURST = 5;
let t: TestApp;
let noisy: DeviceWithSecret;
let quiet: DeviceWithSecret;

beforeAll(async () => {
  // One message every 100 s after the burst: nothing refills during the test.
  t = await testApp({ intakeDeviceRate: { rate: 0.01, burst: BURST } });
  const admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  const make = async (deviceId: string) => (await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId, name: deviceId } })).body.data!;
  noisy = await make(`RATE-MQTT-NOISY-${process.pid}`);
  quiet = await make(`RATE-MQTT-QUIET-${process.pid}`);
});
afterAll(async () => {
  await t.close();
});

const report = (d: DeviceWithSecret, i: number) =>
  JSON.stringify({ deviceId: d.deviceId, time: new Date(Date.parse('2026-11-21T08:00:00Z') + i * 1000).toISOString(), lat: 30.5, lon: 114.3 });
const stored = (d: DeviceWithSecret) => t.app.database.db.$count(telemetry, eq(telemetry.deviceRef, d.id));

describe('per-device rate over MQTT', () => {
  it("refuses a device's excess messages with the reason in its intake log while other devices go on", async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake });
    try {
      const url = `mqtt://127.0.0.1:${link.port}`;
      const a = await mqtt.connectAsync(url, { username: noisy.deviceId, password: noisy.secret, reconnectPeriod: 0 });
      const b = await mqtt.connectAsync(url, { username: quiet.deviceId, password: quiet.secret, reconnectPeriod: 0 });
      // 12 messages of the noisy device interleaved with 4 of the quiet one, all acknowledged (QoS 1).
      const sends: Promise<unknown>[] = [];
      for (let i = 0; i < 12; i++) {
        sends.push(a.publishAsync(`devices/${noisy.deviceId}/report`, report(noisy, i), { qos: 1 }));
        if (i % 3 === 0) sends.push(b.publishAsync(`devices/${quiet.deviceId}/report`, report(quiet, i), { qos: 1 }));
      }
      await Promise.all(sends);
      await t.app.readings.flushed();
      expect(await stored(noisy)).toBe(BURST);
      expect(await stored(quiet)).toBe(4);
      const refused = await t.app.database.db.select().from(intakeLog).where(eq(intakeLog.deviceRef, noisy.id));
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused[0]).toMatchObject({ channel: 'mqtt', deviceId: noisy.deviceId, reason: expect.stringContaining('over the device rate limit of 0.01 messages/s (burst 5)') });
      expect(await t.app.database.db.$count(intakeLog, eq(intakeLog.deviceRef, quiet.id))).toBe(0);
      // The link is still up: the quiet device keeps reporting.
      await b.publishAsync(`devices/${quiet.deviceId}/report`, report(quiet, 100), { qos: 1 });
      await t.app.readings.flushed();
      expect(await stored(quiet)).toBe(5);
      await a.endAsync();
      await b.endAsync();
    } finally {
      await link.close();
    }
  });

  it('never throttles the intake called directly (demo backfill, benches)', async () => {
    const device = { id: noisy.id, orgId: (await t.app.intake.deviceOf(noisy.deviceId))!.orgId, deviceId: noisy.deviceId };
    for (let i = 0; i < 10; i++) await t.app.intake.ingest(device, [JSON.parse(report(noisy, 200 + i))], 'mqtt');
    await t.app.readings.flushed();
    expect(await stored(noisy)).toBe(BURST + 10);
  });
});

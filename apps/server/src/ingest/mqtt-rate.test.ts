// The per-device rate over real MQTT (embedded broker): a device publishing more than its burst
// at once is slowed down to its rate, its acknowledgements coming later, and none of its reports
// is lost or refused; another device's reports meanwhile are stored at once. The intake's own
// ingest (demo backfill, benches) is never throttled.
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
/** Messages a second after the burst. */
const RATE = 2;
let t: TestApp;
let noisy: DeviceWithSecret;
let quiet: DeviceWithSecret;

beforeAll(async () => {
  t = await testApp({ intakeDeviceRate: { rate: RATE, burst: BURST } });
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
  it("slows a device over its rate down without losing or refusing a report, while other devices go on", async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake });
    try {
      const url = `mqtt://127.0.0.1:${link.port}`;
      const a = await mqtt.connectAsync(url, { username: noisy.deviceId, password: noisy.secret, reconnectPeriod: 0 });
      const b = await mqtt.connectAsync(url, { username: quiet.deviceId, password: quiet.secret, reconnectPeriod: 0 });
      // 12 messages of the noisy device at once, interleaved with 4 of the quiet one (QoS 1).
      const started = Date.now();
      const noisyAcks: Promise<number>[] = [];
      const quietAcks: Promise<number>[] = [];
      for (let i = 0; i < 12; i++) {
        noisyAcks.push(a.publishAsync(`devices/${noisy.deviceId}/report`, report(noisy, i), { qos: 1 }).then(() => Date.now() - started));
        if (i % 3 === 0) quietAcks.push(b.publishAsync(`devices/${quiet.deviceId}/report`, report(quiet, i), { qos: 1 }).then(() => Date.now() - started));
      }
      const quietDone = Math.max(...(await Promise.all(quietAcks)));
      const noisyDone = Math.max(...(await Promise.all(noisyAcks)));
      // The 7 messages past the burst came at 2 a second: the last acknowledgement at least 3.5 s on.
      expect(noisyDone).toBeGreaterThanOrEqual(((12 - BURST) / RATE) * 1000 - 200);
      // The quiet device was not held up behind it.
      expect(quietDone).toBeLessThan(noisyDone);
      await t.app.readings.flushed();
      expect(await stored(noisy)).toBe(12);
      expect(await stored(quiet)).toBe(4);
      // Slowed down, not refused: nothing in either intake log.
      expect(await t.app.database.db.$count(intakeLog, eq(intakeLog.deviceRef, noisy.id))).toBe(0);
      expect(await t.app.database.db.$count(intakeLog, eq(intakeLog.deviceRef, quiet.id))).toBe(0);
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
    expect(await stored(noisy)).toBe(12 + 10);
  });
});

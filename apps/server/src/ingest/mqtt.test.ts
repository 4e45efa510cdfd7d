// Reports over real MQTT: the embedded broker signs a device in by its id and secret (a wrong
// secret is refused at connect), lets it publish only to its own topic, and acknowledges a QoS 1
// report once stored; with MQTT_URL (CI: the machine's Mosquitto) the server subscribes to
// every device's topic on the external broker and stores what arrives there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { connect } from 'node:net';
import pino from 'pino';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../test/harness.ts';
import { deviceStates, intakeLog, telemetry } from '../db/schema.ts';
import { startMqtt } from './mqtt.ts';

const log = pino({ level: 'silent' });
let t: TestApp;
let device: DeviceWithSecret;

beforeAll(async () => {
  t = await testApp();
  const admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  const deviceId = `MQTT-${process.pid}-${Date.now()}`;
  device = (await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId, name: 'MQTT tracker' } })).body.data!;
});
afterAll(async () => {
  await t.close();
});

const report = (time: string, temp = 45) =>
  JSON.stringify({ deviceId: device.deviceId, time, lat: 30.5, lon: 114.3, extraData: JSON.stringify({ 3: { temp, humidity: 500 } }) });
const storedTimes = async () =>
  (await t.app.database.db.select().from(telemetry).where(eq(telemetry.deviceRef, device.id))).map((r) => r.time.toISOString()).sort();

describe('embedded MQTT broker', () => {
  it('refuses a wrong secret at connect, stores QoS 1 reports before acknowledging them, and logs a bad payload', async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake });
    try {
      const url = `mqtt://127.0.0.1:${link.port}`;
      const refused = await new Promise<number | undefined>((resolve) => {
        const c = mqtt.connect(url, { username: device.deviceId, password: 'wrong', reconnectPeriod: 0 });
        c.on('error', (err) => {
          c.end(true);
          resolve((err as Error & { code?: number }).code);
        });
        c.on('connect', () => {
          c.end(true);
          resolve(0);
        });
      });
      expect(refused).toBe(4); // MQTT 3.1.1: bad user name or password

      const c = await mqtt.connectAsync(url, { username: device.deviceId, password: device.secret, reconnectPeriod: 0 });
      await c.publishAsync(`devices/${device.deviceId}/report`, report('2026-11-21T08:00:00Z'), { qos: 1 });
      // The acknowledgement came after the insert: the reading is there now.
      expect(await storedTimes()).toEqual(['2026-11-21T08:00:00.000Z']);
      await c.publishAsync(`devices/${device.deviceId}/report`, `[${report('2026-11-21T08:00:10Z')},${report('2026-11-21T08:00:00Z')}]`, { qos: 1 });
      expect(await storedTimes()).toEqual(['2026-11-21T08:00:00.000Z', '2026-11-21T08:00:10.000Z']);
      await c.publishAsync(`devices/${device.deviceId}/report`, 'garbage', { qos: 1 });
      const [bad] = await t.app.database.db.select().from(intakeLog).where(eq(intakeLog.reason, 'payload is not JSON'));
      expect(bad).toMatchObject({ channel: 'mqtt', deviceId: device.deviceId, payload: 'garbage' });
      const [state] = await t.app.database.db.select().from(deviceStates).where(eq(deviceStates.deviceRef, device.id));
      expect(state!.time.toISOString()).toBe('2026-11-21T08:00:10.000Z');
      await c.endAsync();
    } finally {
      await link.close();
    }
  });

  it("does not let a device publish to another device's topic", async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake });
    try {
      const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { username: device.deviceId, password: device.secret, reconnectPeriod: 0 });
      const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
      c.publish('devices/SOMEONE-ELSE/report', report('2026-11-21T09:00:00Z'), { qos: 1 });
      await closed;
      expect(await storedTimes()).not.toContain('2026-11-21T09:00:00.000Z');
      c.end(true);
    } finally {
      await link.close();
    }
  });

  it('refuses everyone when no device matches', async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake });
    try {
      await expect(mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { username: 'x', password: 'y', reconnectPeriod: 0 })).rejects.toThrow();
    } finally {
      await link.close();
    }
  });

  it('closes without waiting for a connection that never signed in', async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake });
    const silent = connect(link.port!, '127.0.0.1');
    silent.on('error', () => undefined);
    await new Promise((r) => silent.once('connect', r));
    const ended = new Promise((r) => silent.once('close', r));
    const started = Date.now();
    await link.close();
    // The broker's own time-out for a connection that sends no CONNECT is 30 s: close() used to wait for it.
    expect(Date.now() - started).toBeLessThan(10_000);
    await ended;
  });
});

describe.runIf(process.env.MQTT_URL)('external MQTT broker (MQTT_URL)', () => {
  it('subscribes to every device topic on the broker and stores what arrives', async () => {
    const link = await startMqtt({ url: process.env.MQTT_URL, port: 0, host: '127.0.0.1', log, sink: t.app.intake });
    try {
      expect(link.mode).toBe('external');
      await link.ready;
      const c = await mqtt.connectAsync(process.env.MQTT_URL!, { reconnectPeriod: 0 });
      await c.publishAsync(`devices/${device.deviceId}/report`, report('2026-11-21T10:00:00Z'), { qos: 1 });
      await expect.poll(storedTimes, { timeout: 5000 }).toContain('2026-11-21T10:00:00.000Z');
      await c.publishAsync('devices/NOBODY-KNOWN/report', report('2026-11-21T10:00:00Z'), { qos: 1 });
      await expect
        .poll(async () => (await t.app.database.db.select().from(intakeLog).where(eq(intakeLog.deviceId, 'NOBODY-KNOWN'))).map((l) => l.reason), { timeout: 5000 })
        .toEqual(['unknown device']);
      await c.endAsync();
    } finally {
      await link.close();
    }
  });
});

// The device side of remote control over real MQTT: the demo simulator takes commands on its
// topic and acknowledges them (a new set point changes what it reports, a reboot keeps it
// silent for a while); and, with MQTT_URL (CI: the machine's Mosquitto), the server publishes
// commands to the external broker and takes the acknowledgements it subscribed to there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import pino from 'pino';
import type { CommandRow } from '@iotc/shared/command';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { orgs, telemetry } from '../../db/schema.ts';
import { startMqtt } from '../../ingest/mqtt.ts';
import { startSimulator } from '../../sim/publisher.ts';

const BASE = '/api/iot/v2/commands';
const log = pino({ level: 'silent' });
let t: TestApp;
let admin: string;
let operator: string;
let demoOrg: string;

async function until(check: () => boolean | Promise<boolean>, ms = 8000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
async function device(deviceId: string): Promise<DeviceWithSecret> {
  const res = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId, name: deviceId, orgId: demoOrg } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
/** Requested by the operator, approved by the administrator; answers the command's id. */
async function approved(deviceRef: string, spec: Record<string, unknown>): Promise<string> {
  const made = await call<CommandRow>(t.app, { method: 'POST', url: BASE, token: operator, body: { deviceRef, ...spec } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id = made.body.data!.id;
  const res = await call<CommandRow>(t.app, { method: 'POST', url: `${BASE}/${id}/review`, token: admin, body: { approve: true, password: ADMIN_PASSWORD } });
  expect(res.body.data?.status).toBe('sent');
  return id;
}
const statusOf = async (id: string) => (await call<CommandRow>(t.app, { method: 'GET', url: `${BASE}/${id}`, token: admin })).body.data!.status;

beforeAll(async () => {
  t = await testApp();
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  demoOrg = (await t.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
});
afterAll(async () => {
  await t.close();
});

describe('the simulator answers commands', () => {
  it('acknowledges a set point (and reports around it from then on) and a reboot (and goes quiet)', { timeout: 30_000 }, async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake, commandAcks: t.app.commands.onAck });
    const detach = t.app.commands.attach(link);
    const d = await device(`SIMCMD${process.pid}${Date.now()}`);
    const sim = startSimulator({ mqttUrl: `mqtt://127.0.0.1:${link.port}`, devices: [{ deviceId: d.deviceId, secret: d.secret, kind: 'coldroom' }], intervalMs: 150, answerCommands: true, log });
    try {
      await until(() => sim.stats().connected === 1 && sim.stats().acked > 0);
      const setPoint = await approved(d.id, { kind: 'set_point', params: { celsius: 25 } });
      await until(async () => (await statusOf(setPoint)) === 'acknowledged');
      // Readings after the acknowledgement drift towards the new set point, far from any cold room's.
      const since = Date.now();
      await until(async () => {
        await t.app.readings.flushed();
        const [last] = await t.app.database.db.select().from(telemetry).where(eq(telemetry.deviceRef, d.id)).orderBy(desc(telemetry.time)).limit(1);
        const temp = (last?.sensors as { temperature?: number } | undefined)?.temperature;
        return last !== undefined && last.time.getTime() > since && typeof temp === 'number' && temp > 15;
      });

      const reboot = await approved(d.id, { kind: 'reboot' });
      await until(async () => (await statusOf(reboot)) === 'acknowledged');
      const before = sim.stats().sent;
      await new Promise((r) => setTimeout(r, 1000));
      expect(sim.stats().sent).toBe(before);
    } finally {
      await sim.stop();
      detach();
      await link.close();
    }
  });
});

describe.runIf(process.env.MQTT_URL)('external MQTT broker (MQTT_URL)', () => {
  it('publishes commands there and takes the acknowledgements from there', async () => {
    const link = await startMqtt({ url: process.env.MQTT_URL, port: 0, host: '127.0.0.1', log, commandAcks: t.app.commands.onAck });
    await link.ready;
    const detach = t.app.commands.attach(link);
    const d = await device(`EXTCMD${process.pid}${Date.now()}`);
    // The broker authenticates devices itself; here any client may act as the device.
    const c = await mqtt.connectAsync(process.env.MQTT_URL!, { reconnectPeriod: 0 });
    try {
      const got: { id: string; kind: string }[] = [];
      c.on('message', (_topic, payload) => got.push(JSON.parse(payload.toString()) as { id: string; kind: string }));
      await c.subscribeAsync(`devices/${d.deviceId}/command`, { qos: 1 });
      const id = await approved(d.id, { kind: 'unlock' });
      await until(() => got.length > 0);
      expect(got[0]).toMatchObject({ id, kind: 'unlock' });
      await c.publishAsync(`devices/${d.deviceId}/command/ack`, 'garbage', { qos: 1 });
      await c.publishAsync(`devices/OTHER-${d.deviceId}/command/ack`, JSON.stringify({ id, ok: true }), { qos: 1 });
      await new Promise((r) => setTimeout(r, 300));
      expect(await statusOf(id)).toBe('sent');
      await c.publishAsync(`devices/${d.deviceId}/command/ack`, JSON.stringify({ id, ok: true, message: 'open' }), { qos: 1 });
      await until(async () => (await statusOf(id)) === 'acknowledged');
    } finally {
      await c.endAsync();
      detach();
      await link.close();
    }
  });
});

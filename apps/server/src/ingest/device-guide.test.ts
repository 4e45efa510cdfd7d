// The device integration guide (docs/device-integration.md) holds true of the server. Its report
// examples (```json report blocks, each followed by a ```json sensors block with the decoded
// values) are stored with those values over MQTT 3.1.1 on the embedded broker and over HTTP; an
// MQTT 5 CONNECT is refused with the CONNACK the guide names; the banner text and the README's
// links are there. Where curl, jq and mosquitto_pub are installed, the quick start's shell blocks
// run as they are written (ports moved to the test's) against the server listening on a port.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import mqtt from 'mqtt';
import pino from 'pino';
import type { DeviceWithSecret, IntakeResult } from '@iotc/shared/device';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../test/harness.ts';
import { telemetry } from '../db/schema.ts';
import { EMBEDDED_MQTT_VERSIONS, startMqtt, type MqttLink } from './mqtt.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const guide = readFileSync(join(root, 'docs/device-integration.md'), 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The guide's prose with its line breaks as spaces, for sentences that wrap. */
const flat = guide.replace(/\s+/g, ' ');

/** The fenced blocks of the guide, in order, with their info strings. */
const blocks = [...guide.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({ info: m[1]!.trim(), text: m[2]! }));
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/** Each report example with the decoded sensor values the guide gives for it. */
const examples = blocks.flatMap((b, i) => {
  if (b.info !== 'json report') return [];
  const next = blocks[i + 1];
  if (next?.info !== 'json sensors') throw new Error(`the report example before "${b.text.slice(0, 40)}" has no json sensors block after it`);
  return [{ reports: asList(JSON.parse(b.text)) as Record<string, unknown>[], sensors: asList(JSON.parse(next.text)) }];
});
/** The quick start's shell blocks: register, write the report, publish, post, check. */
const shellBlocks = blocks.filter((b) => b.info === 'sh').map((b) => b.text);
const quickStartSensors = JSON.parse(blocks.find((b) => b.info === 'json sensors')!.text) as unknown;
const httpAnswer = JSON.parse(blocks.find((b) => b.info === 'json http-answer')!.text) as unknown;

const log = pino({ level: 'silent' });
let t: TestApp;
let admin: string;
let device: DeviceWithSecret;
let link: MqttLink;

beforeAll(async () => {
  t = await testApp();
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  const deviceId = String(examples[0]!.reports[0]!.deviceId);
  device = (await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId, name: 'Guide tracker' } })).body.data!;
  link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, authFailures: t.app.intake.authFailures, sink: t.app.intake });
});
afterAll(async () => {
  await link?.close();
  await t?.close();
});

async function storedSensors(deviceRef: string, times: string[]) {
  const rows = await t.app.database.db
    .select({ time: telemetry.time, sensors: telemetry.sensors })
    .from(telemetry)
    .where(and(eq(telemetry.deviceRef, deviceRef), inArray(telemetry.time, times.map((x) => new Date(x)))));
  const byTime = new Map(rows.map((r) => [r.time.getTime(), r.sensors]));
  return times.map((x) => byTime.get(new Date(x).getTime()));
}
const dayLater = (iso: string) => new Date(new Date(iso).getTime() + 86_400_000).toISOString();

describe('the device integration guide', () => {
  it('has report examples, a quick start and the banner text, and the README links it', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
    expect(examples.some((e) => e.reports.length > 1)).toBe(true);
    expect(guide).toContain(`embedded broker on mqtt://localhost:1884 (${EMBEDDED_MQTT_VERSIONS})`);
    expect(readme).toContain(`embedded broker on mqtt://localhost:1884 (${EMBEDDED_MQTT_VERSIONS})`);
    expect(readme.match(/\]\(docs\/device-integration\.md[#)]/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    const publish = shellBlocks.find((s) => s.includes('mosquitto_pub') && s.includes('/report'))!;
    expect(publish).toMatch(/-V mqttv311 -q 1/);
    expect(publish).toContain('-t "devices/$DEVICE_ID/report"');
    expect(shellBlocks.some((s) => s.includes('curl') && s.includes('/api/iot/v2/device/report'))).toBe(true);
  });

  it("stores each report example over MQTT 3.1.1 (QoS 1) with the guide's decoded values", async () => {
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { protocolVersion: 4, username: device.deviceId, password: device.secret, reconnectPeriod: 0 });
    try {
      for (const e of examples) {
        const payload = JSON.stringify(e.reports.length === 1 ? e.reports[0] : e.reports);
        // The PUBACK comes after the store: the readings are there now.
        await c.publishAsync(`devices/${device.deviceId}/report`, payload, { qos: 1 });
        expect(await storedSensors(device.id, e.reports.map((r) => String(r.time)))).toEqual(e.sensors);
      }
    } finally {
      await c.endAsync();
    }
  });

  it("stores each report example over HTTP with the guide's decoded values and answer", async () => {
    const auth = `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`;
    for (const e of examples) {
      // A day later: the same device times are stored already.
      const reports = e.reports.map((r) => ({ ...r, time: dayLater(String(r.time)) }));
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/iot/v2/device/report',
        headers: { authorization: auth, 'content-type': 'application/json' },
        payload: JSON.stringify(reports.length === 1 ? reports[0] : reports),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ data: IntakeResult }>().data).toEqual({ accepted: reports.length, duplicates: 0, rejected: [] });
      expect(await storedSensors(device.id, reports.map((r) => r.time))).toEqual(e.sensors);
    }
  });

  it('refuses an MQTT 5 connect with CONNACK return code 1, as the guide says', async () => {
    expect(flat).toContain('a `CONNACK` with return code 1 ("unacceptable protocol version")');
    const err = await new Promise<Error & { code?: number }>((resolve, reject) => {
      const c = mqtt.connect(`mqtt://127.0.0.1:${link.port}`, { protocolVersion: 5, username: device.deviceId, password: device.secret, reconnectPeriod: 0 });
      c.on('connect', () => {
        c.end(true);
        reject(new Error('MQTT 5 was accepted'));
      });
      c.on('error', (e) => {
        c.end(true);
        resolve(e as Error & { code?: number });
      });
    });
    expect(err.code).toBe(1);
    const documented = /MQTT\.js with `protocolVersion: 5`: `([^`]*)` \(code (\d+)\)/.exec(flat);
    expect([err.message, err.code]).toEqual([documented?.[1], Number(documented?.[2])]);
  });
});

const tools = ['curl', 'jq', 'mosquitto_pub'].every((tool) => ['/usr/bin', '/usr/local/bin', '/bin'].some((d) => existsSync(join(d, tool))));

describe.runIf(tools)("the guide's shell commands", () => {
  const run = (script: string, cwd: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile('bash', ['-c', script], { cwd, timeout: 60_000 }, (err, stdout, stderr) =>
        done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('register a device, publish with mosquitto_pub, post with curl and read it back, as written', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const http = new URL(address).port;
    // The guide's own device id is taken by the examples above: the quick start registers another.
    const ports = (s: string) => s.replaceAll('http://localhost:3000', `http://127.0.0.1:${http}`).replaceAll('-h localhost -p 1884', `-h 127.0.0.1 -p ${link.port}`);
    const [register, write, publish, post, check] = shellBlocks.map(ports);
    expect(register).toContain('"deviceId":"860000000000001"');
    const script = [
      'set -e',
      register!.replace(/^ADMIN_PASSWORD=.*$/m, `ADMIN_PASSWORD='${ADMIN_PASSWORD}'`).replace('"deviceId":"860000000000001"', '"deviceId":"860000000000002"'),
      write,
      publish,
      // The guide asks for step 2 again before the HTTP call, for a new device time.
      'sleep 1.1',
      write,
      'echo "@@http"',
      post,
      'echo',
      'echo "@@check"',
      check!.split('\n')[0],
    ].join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'iotc-guide-'));
    try {
      const out = await run(script, dir);
      expect(out.code, out.stderr + out.stdout).toBe(0);
      const [mqttPart, rest] = out.stdout.split('@@http\n');
      const [httpPart, checkPart] = rest!.split('@@check\n');
      expect(mqttPart).toMatch(/received CONNACK \(0\)[\s\S]*received PUBACK \(Mid: 1, RC:0\)/);
      expect(JSON.parse(httpPart!)).toEqual(httpAnswer);
      expect(JSON.parse(checkPart!)).toEqual(quickStartSensors);
      const ref = JSON.parse(readFileSync(join(dir, 'device.json'), 'utf8')) as { data: { id: string; deviceId: string; secret: string } };
      const rows = await t.app.database.db.select({ sensors: telemetry.sensors }).from(telemetry).where(eq(telemetry.deviceRef, ref.data.id));
      expect(rows.map((r) => r.sensors)).toEqual([quickStartSensors, quickStartSensors]);

      // What mosquitto_pub says when it tries MQTT 5 on the embedded broker, word for word.
      const v5 = await run(`DEVICE_ID='${ref.data.deviceId}'; SECRET='${ref.data.secret}'\n${publish!.replace('-V mqttv311', '-V mqttv5').replace(' -d', '')}`, dir);
      const documented = /`mosquitto_pub -V mqttv5`: `([^`]*)` \(exit code (\d+)\)/.exec(flat);
      expect([v5.stderr.split('\n')[0], v5.code]).toEqual([documented?.[1], Number(documented?.[2])]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

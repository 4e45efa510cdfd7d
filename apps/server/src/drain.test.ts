// Graceful shutdown of the real server process: SIGTERM while devices are publishing a burst of
// QoS 1 reports. The process drains (no new reports, those under way stored and acknowledged,
// queues flushed) and exits 0, and every report a device got an acknowledgement for is in the
// database afterwards (opened again from the same data directory, PGlite).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { openDatabase, rowsOf } from './db/client.ts';
import { ADMIN_PASSWORD, embeddedServerEnv } from './test/harness.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const DEVICES = 6;
/** Reports each device publishes at once (all in flight together). */
const BURST = 150;

describe('SIGTERM', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'iotc-drain-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('drains and exits 0 with every acknowledged report stored', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: embeddedServerEnv(dataDir, { LOG_LEVEL: 'info', INTAKE_DEVICE_RATE: '100000', INTAKE_DEVICE_BURST: '1000000' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr!.on('data', (b: Buffer) => (out += b.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    // The banner names both addresses.
    await expect.poll(() => /running at (http:\/\/\S+)/.test(out) && /embedded broker on mqtt:\/\/\S+:(\d+)/.test(out), { timeout: 150_000, interval: 100 }).toBe(true);
    const api = /running at (http:\/\/\S+)/.exec(out)![1]!;
    const mqttPort = /embedded broker on mqtt:\/\/\S+:(\d+)/.exec(out)![1]!;

    const post = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
      const res = await fetch(`${api}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', language: 'en-US', ...(token ? { access_token: token } : {}) },
        body: JSON.stringify(body),
      });
      const env = (await res.json()) as { data: T; errormsg: string | null };
      if (!res.ok) throw new Error(`${path}: ${res.status} ${env.errormsg}`);
      return env.data;
    };
    const { token } = await post<{ token: string }>('/iot-cloud-auth/auth/v1/login', { account: 'admin', password: ADMIN_PASSWORD });
    const devices: DeviceWithSecret[] = [];
    for (let i = 0; i < DEVICES; i++) devices.push(await post<DeviceWithSecret>('/api/iot/v2/devices', { deviceId: `DRAIN-${i}`, name: `drain ${i}` }, token));

    const clients = await Promise.all(
      devices.map((d) => mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: d.deviceId, password: d.secret, reconnectPeriod: 0 })),
    );
    for (const c of clients) c.on('error', () => undefined);
    const start = Date.parse('2026-11-20T00:00:00Z');
    const published = new Set<string>();
    const acked = new Set<string>();
    let n = 0;
    const publishRound = () => {
      const time = new Date(start + n++ * 1000).toISOString();
      clients.forEach((c, i) => {
        const d = devices[i]!;
        if (!c.connected) return;
        const key = `${d.deviceId}|${time}`;
        published.add(key);
        const payload = JSON.stringify({ deviceId: d.deviceId, time, lat: 30.5, lon: 114.3, extraData: JSON.stringify({ 3: { temp: 45 } }) });
        c.publish(`devices/${d.deviceId}/report`, payload, { qos: 1 }, (err) => {
          if (!err) acked.add(key);
        });
      });
    };
    // A burst at once, then more all along, until the server lets the devices go.
    for (let b = 0; b < BURST; b++) publishRound();
    const more = setInterval(publishRound, 20);

    // SIGTERM while the burst is in flight.
    await expect.poll(() => acked.size, { timeout: 20_000, interval: 5 }).toBeGreaterThan(20);
    child.kill('SIGTERM');
    const ackedAtSignal = acked.size;

    expect(await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running after 30 s'), 30_000))])).toBe(0);
    clearInterval(more);
    for (const c of clients) c.end(true);
    // Reports that arrived after the drain began were refused (not acknowledged: the devices keep them).
    expect(acked.size).toBeLessThan(published.size);

    // The log shows the drain, in order.
    const logLines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; ms?: number });
    const msgs = logLines.map((l) => l.msg);
    const draining = msgs.findIndex((m) => m.startsWith('shutting down: draining'));
    const clean = msgs.findIndex((m) => m.startsWith('shut down cleanly'));
    expect(draining).toBeGreaterThanOrEqual(0);
    expect(clean).toBeGreaterThan(draining);
    const drainMs = logLines[clean]!.ms;

    // Every acknowledged report is stored; nothing stored that was not published.
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const rows = rowsOf<{ device_id: string; time: string }>(
        await database.db.execute(sql`select d.device_id, t.time::text as time from telemetry t join devices d on d.id = t.device_ref where d.device_id like 'DRAIN-%'`),
      );
      const stored = new Set(rows.map((r) => `${r.device_id}|${new Date(r.time.replace(' ', 'T').replace(/\+00$/, 'Z')).toISOString()}`));
      expect(stored.size).toBe(rows.length);
      const missing = [...acked].filter((k) => !stored.has(k));
      expect(missing).toEqual([]);
      expect([...stored].every((k) => published.has(k))).toBe(true);
      console.log(
        `SIGTERM after ${ackedAtSignal} reports acknowledged; drained in ${drainMs} ms; ${published.size} published, ${acked.size} acknowledged, ${stored.size} stored`,
      );
    } finally {
      await database.close();
    }
  }, 240_000);
});

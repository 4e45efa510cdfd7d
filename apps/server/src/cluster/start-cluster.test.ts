// `npm run start:cluster` itself (scripts/start-cluster.mjs): two nodes come up on the given
// database, broker and Redis, each line of their output carries its node's name, the script says
// where each node is, both answer there, and SIGTERM stops both and the script cleanly. Runs
// with DATABASE_URL, MQTT_URL and REDIS_URL set (`npm run test:cluster`).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { ADMIN_PASSWORD, createPgDatabase } from '../test/harness.ts';
import { EXTERNAL_CONNECTIONS } from '../ingest/mqtt.ts';

const { DATABASE_URL, MQTT_URL, REDIS_URL } = process.env;
const SCRIPT = fileURLToPath(new URL('../../../../scripts/start-cluster.mjs', import.meta.url));
const RUN = randomBytes(4).toString('hex');

const listen = (port: number) =>
  new Promise<number | null>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(null));
    s.listen(port, '127.0.0.1', () => {
      const got = (s.address() as { port: number }).port;
      s.close(() => resolve(got));
    });
  });

/** Two free neighbouring ports (the script numbers its nodes' ports from a base). */
async function freePair(): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const p = await listen(0);
    if (p && p < 65535 && (await listen(p + 1))) return p;
  }
  throw new Error('no two free neighbouring ports');
}

let cleanup: (() => Promise<void>) | undefined;
afterAll(async () => cleanup?.(), 60_000);

describe.skipIf(!DATABASE_URL || !MQTT_URL || !REDIS_URL)('npm run start:cluster', () => {
  it('starts two nodes, says where they are, and stops them all on SIGTERM', async () => {
    const db = await createPgDatabase(DATABASE_URL!);
    const dataDir = mkdtempSync(join(tmpdir(), 'iotc-start-cluster-'));
    const prefix = `sc-${RUN}`;
    const base = await freePair();
    const proc = spawn(process.execPath, [SCRIPT, '--nodes', '2', '--no-build'], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        CLUSTER_BASE_PORT: String(base),
        CLUSTER_NODE_PREFIX: prefix,
        MQTT_SHARE_GROUP: `sc${RUN}`,
        DATA_DIR: dataDir,
        ADMIN_PASSWORD,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanup = async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      for (const id of [`${prefix}-1`, `${prefix}-2`]) {
        for (let n = 0; n < EXTERNAL_CONNECTIONS; n++) {
          const c = await mqtt.connectAsync(MQTT_URL!, { clientId: `${id}-${n}`, clean: true, protocolVersion: 5, properties: { sessionExpiryInterval: 0 }, reconnectPeriod: 0 });
          await c.endAsync();
        }
      }
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
    const lines: string[] = [];
    for (const stream of [proc.stdout, proc.stderr]) createInterface({ input: stream }).on('line', (l) => lines.push(l));
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));

    await expect.poll(() => lines.find((l) => l.startsWith('All 2 node(s) are running')), { timeout: 60_000, interval: 200 }).toBeTruthy();
    const summary = lines.find((l) => l.startsWith('All 2 node(s) are running'))!;
    expect(summary).toBe(`All 2 node(s) are running: ${prefix}-1 http://localhost:${base}, ${prefix}-2 http://localhost:${base + 1}`);
    // Each node's own banner under its name; both serve one installation (a session made on one works on the other).
    const headers = { 'content-type': 'application/json', language: 'en-US' };
    const signIn = await fetch(`http://127.0.0.1:${base}/iot-cloud-auth/auth/v1/login`, { method: 'POST', headers, body: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
    const token = ((await signIn.json()) as { data: { token: string } }).data.token;
    for (const [i, port] of [base, base + 1].entries()) {
      expect(lines).toContain(`[${prefix}-${i + 1}] IoT Cloud Console is running at http://localhost:${port}`);
      const info = await fetch(`http://127.0.0.1:${port}/iot-cloud-auth/auth/v1/info`, { method: 'POST', headers: { ...headers, access_token: token } });
      expect(info.status).toBe(200);
    }

    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines).toContain(`[${prefix}-1] stopped (exit code 0)`);
    expect(lines).toContain(`[${prefix}-2] stopped (exit code 0)`);
  }, 90_000);
});

// Two real server processes (main.ts) against one PostgreSQL database, one MQTT broker and one
// Redis, as an installation of several nodes runs them (README, "Several nodes"). It shows that
// (a) a report a device publishes to the broker is taken by one node, yet a browser's live
// socket on the other node receives its state and its alarm, and the alarm is raised once (and,
// with the built web app and Chromium, a signed-in page on B shows each new temperature);
// (b) a time-based job (the offline check of the alarm tick, every second on both nodes) opens
// its alarm once; (c) a node killed with SIGKILL in the middle of a sustained QoS 1 load and
// started again under the same NODE_ID loses no report the broker accepted and stores none twice,
// and so does one stopped with SIGTERM (it leaves the shared subscription, then finishes).
// Runs only with DATABASE_URL, MQTT_URL and REDIS_URL set (`npm run test:cluster`); each run has
// its own database, share group and node ids, so runs beside each other do not mix.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import pg from 'pg';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import type { AlarmEventRow, AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Envelope, Page } from '@iotc/shared/envelope';
import type { DeviceState, LiveMessage } from '@iotc/shared/live';
import { ADMIN_PASSWORD, createPgDatabase } from '../test/harness.ts';
import { EXTERNAL_CONNECTIONS } from '../ingest/mqtt.ts';
import { endSessions, NODE_START_MS, nodeStarter, type Node } from './nodes.ts';

const { DATABASE_URL, MQTT_URL, REDIS_URL } = process.env;
const RUN = randomBytes(4).toString('hex');
/** The built web app the nodes serve (main.ts); the browser case needs it. */
const WEB_DIST = fileURLToPath(new URL('../../../web/dist/index.html', import.meta.url));
/** Headless Chromium as the browser tests start it (e2e/harness.ts; the machine has no network). */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let db: { url: string; drop: () => Promise<void> };
let sql: pg.Client;
let dataDir: string;
let a: Node;
let b: Node;
let token: string;
let levels: LevelRow[];
const devices: DeviceWithSecret[] = [];

function nodeEnv(id: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: db.url,
    MQTT_URL,
    REDIS_URL,
    NODE_ID: id,
    MQTT_SHARE_GROUP: `ct${RUN}`,
    PORT: '0',
    JT808_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    SEED_DEMO: 'false',
    DEMO_SIMULATOR: 'false',
    ALARM_TICK_SECONDS: '1',
    // The load of (c) and the redelivery after the restart must not meet the per-device rate.
    INTAKE_DEVICE_RATE: '10000',
    LOG_LEVEL: 'warn',
  };
}

const cluster = nodeStarter(nodeEnv);

async function api<T>(node: Node, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(node.url + path, {
    method,
    headers: { language: 'en-US', timezone: 'Asia/Shanghai', ...(token ? { access_token: token } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (res.status !== 200) throw new Error(`${method} ${path} on ${node.id}: ${res.status} ${envelope.errormsg}`);
  return envelope.data as T;
}

/** Reports of MQTT messages this node stored, from its /metrics. */
async function storedBy(node: Node): Promise<number> {
  const text = await (await fetch(`${node.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('iotc_intake_reports_total{') && l.includes('channel="mqtt"') && l.includes('result="stored"'));
  return line ? Number(line.split(' ').at(-1)) : NaN;
}

/** A browser's live socket on a node: everything it receives, kept. */
async function liveSocket(node: Node) {
  const ws = new WebSocket(`${node.url.replace(/^http/, 'ws')}/api/iot/v2/live?access_token=${encodeURIComponent(token)}`);
  const states: DeviceState[] = [];
  const alarms: AlarmRow[] = [];
  let hello = false;
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString('utf8')) as LiveMessage;
    if (msg.type === 'hello') hello = true;
    else if (msg.type === 'device-states') states.push(...msg.data);
    else if (msg.type === 'alarms') alarms.push(...msg.data);
  });
  await expect.poll(() => hello, { timeout: 10_000 }).toBe(true);
  return { ws, states, alarms };
}

/** Raw block-3 temperature for a value in °C (sign-magnitude, tenths). */
const rawTemp = (c: number) => (c < 0 ? 32768 + Math.round(-c * 10) : Math.round(c * 10));
const reportOf = (d: DeviceWithSecret, time: Date, temp: number) =>
  JSON.stringify({ deviceId: d.deviceId, time: time.toISOString(), lat: 31.2, lon: 121.5, extraData: JSON.stringify({ 3: { temp: rawTemp(temp) } }) });

describe.skipIf(!DATABASE_URL || !MQTT_URL || !REDIS_URL)('two nodes on one PostgreSQL, MQTT broker and Redis', () => {
  const ids = [`ct-${RUN}-a`, `ct-${RUN}-b`];

  beforeAll(async () => {
    db = await createPgDatabase(DATABASE_URL!);
    sql = new pg.Client({ connectionString: db.url });
    dataDir = mkdtempSync(join(tmpdir(), 'iotc-cluster-'));
    // Both at once on a fresh database: migrations and seed take turns, nothing is made twice.
    [a, b] = await Promise.all([cluster.start(ids[0]!), cluster.start(ids[1]!)]);
    await sql.connect();
    token = (await api<{ token: string }>(a, 'POST', '/iot-cloud-auth/auth/v1/login', { account: 'admin', password: ADMIN_PASSWORD })).token;
    levels = (await api<Page<LevelRow>>(b, 'GET', '/api/iot/v2/alarm-levels')).rows;
    for (let i = 0; i < 16; i++) {
      devices.push(await api<DeviceWithSecret>(a, 'POST', '/api/iot/v2/devices', { deviceId: `CL${RUN}${String(i).padStart(3, '0')}`, name: `Cluster reefer ${i}` }));
    }
  }, NODE_START_MS + 30_000);

  afterAll(async () => {
    await cluster.stopAll();
    await sql?.end();
    await endSessions(MQTT_URL!, ids).catch(() => undefined);
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('starting together seeded once: one platform organisation, one administrator', async () => {
    const { rows } = await sql.query<{ orgs: string; admins: string }>(
      "select (select count(*) from orgs where code = 'platform') as orgs, (select count(*) from users where lower(account) = 'admin') as admins",
    );
    expect(rows[0]).toEqual({ orgs: '1', admins: '1' });
  });

  it('a report published to the broker reaches a live socket on node B as a state and as an alarm, whichever node took it; the alarm is raised once', async () => {
    const urgent = levels.find((l) => l.code === 'urgent')!;
    const live = await liveSocket(b);
    const publisher = await mqtt.connectAsync(MQTT_URL!, { clientId: `ct-${RUN}-pub`, reconnectPeriod: 0 });
    // Both nodes hold the (empty) policy list by now: their alarm ticks read it every second.
    // The policy made on B must apply on A at once (a cache drop through Redis), not when A's
    // cached list expires 5 s later.
    await api<PolicyRow>(b, 'POST', '/api/iot/v2/alarm-policies', { name: 'Too warm', scope: 'all', rules: [{ id: 'hot', type: 'temp_high', threshold: 8, levelId: urgent.id }] });
    await new Promise((r) => setTimeout(r, 200));
    const before = { a: await storedBy(a), b: await storedBy(b) };
    // Rounds of one report per device until the broker has handed one to each connection of the
    // group (it hands them round), so both nodes take some; each round's states must reach B's
    // socket (a round waits for the last, as the hub sends only a device's newest state).
    const rounds = Math.ceil((2 * EXTERNAL_CONNECTIONS) / devices.length);
    const now = Date.now();
    const wanted = devices.map((d) => d.id).sort();
    try {
      for (let r = 0; r < rounds; r++) {
        const time = new Date(now - (rounds - r) * 1000).toISOString();
        const temp = 12.5 + r / 10;
        await Promise.all(devices.map((d) => publisher.publishAsync(`devices/${d.deviceId}/report`, reportOf(d, new Date(time), temp), { qos: 1 })));
        await expect
          .poll(() => [...new Set(live.states.filter((s) => s.time === time && s.sensors.temperature === temp).map((s) => s.id))].sort(), { timeout: 15_000 })
          .toEqual(wanted);
      }
    } finally {
      await publisher.endAsync();
    }
    await expect.poll(() => [...new Set(live.alarms.filter((x) => x.type === 'temp_high' && x.status === 'active').map((x) => x.device.id))].sort(), { timeout: 15_000 }).toEqual(wanted);
    // Both nodes took some of them (the broker hands the group's messages round): so states
    // stored on A reached B's socket through Redis.
    const took = { a: (await storedBy(a)) - before.a, b: (await storedBy(b)) - before.b };
    expect(took.a + took.b).toBe(devices.length * rounds);
    expect(took.a).toBeGreaterThan(0);
    expect(took.b).toBeGreaterThan(0);
    // One alarm per device, not one per node (its reports went to different connections, mostly
    // of different nodes): on the socket and in the database, confirmed by every round.
    await new Promise((r) => setTimeout(r, 500));
    for (const d of devices) expect(new Set(live.alarms.filter((x) => x.device.id === d.id).map((x) => x.id)).size).toBe(1);
    const stored = await api<Page<AlarmRow>>(a, 'GET', '/api/iot/v2/alarms?size=100');
    expect(stored.rows.map((x) => x.device.id).sort()).toEqual(wanted);
    expect(stored.rows.every((x) => x.count === rounds)).toBe(true);
    live.ws.close();
  }, 60_000);

  it.skipIf(!existsSync(WEB_DIST) || !existsSync('/usr/bin/chromium'))(
    'a browser signed in on node B shows each new temperature of a device, whichever node took the report',
    async () => {
      const device = devices[1]!;
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
      const publisher = await mqtt.connectAsync(MQTT_URL!, { clientId: `ct-${RUN}-web`, reconnectPeriod: 0 });
      try {
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
        await page.goto(`${b.url}/login`);
        await page.locator('#account').fill('admin');
        await page.locator('#password').fill(ADMIN_PASSWORD);
        await page.locator('#login-submit').click();
        await page.waitForURL((u) => u.pathname === '/view/deviceManage/realTimeMonitoring');
        await page.locator('[data-testid=monitor-keyword] input, input[data-testid=monitor-keyword]').first().fill(device.deviceId);
        await page.keyboard.press('Enter');
        const row = page.locator(`tr[data-row-key="${device.id}"]`);
        await row.waitFor();
        await page.locator('[data-testid=monitor-live][data-state=open]').waitFor();
        await row.click();
        const shown = page.locator('[data-testid=monitor-detail] [data-testid=monitor-detail-temperature]');
        // One report at a time, each warmer and newer: the broker hands them round the group's
        // eight connections, so both nodes take some; each must appear on B's page.
        const before = { a: await storedBy(a), b: await storedBy(b) };
        const base = Date.now();
        let took = { a: 0, b: 0 };
        let k = 0;
        // Until each node has taken at least two (at most once round the group's connections).
        // The loop ends itself before the test's limit: a test past its limit keeps running, and
        // its reports would land in the next test's count.
        const deadline = Date.now() + 150_000;
        while ((took.a < 2 || took.b < 2) && k < 2 * EXTERNAL_CONNECTIONS && Date.now() < deadline) {
          const temp = 3.1 + (k % 50) / 10;
          await publisher.publishAsync(`devices/${device.deviceId}/report`, reportOf(device, new Date(base + k * 1000), temp), { qos: 1 });
          await expect.poll(() => shown.textContent(), { timeout: 10_000 }).toMatch(new RegExp(`${temp.toFixed(1).replace('.', '\\.')}\\s*°C`));
          took = { a: (await storedBy(a)) - before.a, b: (await storedBy(b)) - before.b };
          k++;
        }
        expect(took.a + took.b).toBe(k);
        expect(took.a).toBeGreaterThanOrEqual(2);
        expect(took.b).toBeGreaterThanOrEqual(2);
      } finally {
        await publisher.endAsync();
        await browser.close();
      }
    },
    // A ceiling: on a loaded two-core machine the browser's sign-in and first screen alone took most of a minute.
    180_000,
  );

  it('the alarm tick runs on one node at a time: a silent device gets one offline alarm, on node B too', async () => {
    const minor = levels.find((l) => l.code === 'minor')!;
    const silent = devices[0]!;
    await api<PolicyRow>(a, 'POST', '/api/iot/v2/alarm-policies', { name: 'Silent', scope: 'devices', targets: [silent.id], rules: [{ id: 'gone', type: 'offline', threshold: 60, levelId: minor.id }] });
    const live = await liveSocket(b);
    // Heard 20 minutes ago, as far as the database knows; both nodes tick every second.
    await sql.query("update device_states set received_at = now() - interval '20 minutes' where device_ref = $1", [silent.id]);
    await expect.poll(() => live.alarms.filter((x) => x.type === 'offline' && x.device.id === silent.id).length, { timeout: 15_000 }).toBeGreaterThan(0);
    // Several more ticks of both nodes.
    await new Promise((r) => setTimeout(r, 3_000));
    const offline = (await api<Page<AlarmRow>>(b, 'GET', `/api/iot/v2/alarms?deviceId=${silent.id}&size=100`)).rows.filter((x) => x.type === 'offline');
    expect(offline).toHaveLength(1);
    expect(offline[0]).toMatchObject({ status: 'active', count: 1 });
    const timeline = await api<AlarmEventRow[]>(a, 'GET', `/api/iot/v2/alarms/${offline[0]!.id}/events`);
    expect(timeline.filter((e) => e.kind === 'created')).toHaveLength(1);
    expect(new Set(live.alarms.filter((x) => x.type === 'offline').map((x) => x.id))).toEqual(new Set([offline[0]!.id]));
    live.ws.close();
  }, 60_000);

  it.each([
    ['SIGKILL', 'kill -9', 2],
    ['SIGTERM', 'a graceful stop', 4],
  ] as const)('%s (%s) of a node under a sustained QoS 1 load: every report the broker accepted is stored once, none missing', async (signal, what, hoursAgo) => {
    const TOTAL = 4000;
    const PER_TICK = 10;
    const TICK_MS = 40;
    const BURST = 600;
    const start = Date.now() - hoursAgo * 3_600_000;
    const publisher = await mqtt.connectAsync(MQTT_URL!, { clientId: `ct-${RUN}-load`, reconnectPeriod: 0 });
    let acked = 0;
    let failed = 0;
    const pending: Promise<unknown>[] = [];
    let killedAt = 0;
    let restarted: Promise<Node> | undefined;
    const t0 = Date.now();
    // 250 reports a second from 16 devices, each with its own device time, and a burst before the kill.
    const publish = (sent: number) => {
      const d = devices[sent % devices.length]!;
      const time = new Date(start + Math.floor(sent / devices.length) * 1000);
      const p = publisher.publishAsync(`devices/${d.deviceId}/report`, reportOf(d, time, 4), { qos: 1 }).then(
        () => acked++,
        () => failed++,
      );
      pending.push(p);
      return p;
    };
    for (let sent = 0; sent < TOTAL; ) {
      for (let k = 0; k < PER_TICK && sent < TOTAL; k++, sent++) void publish(sent);
      if (!killedAt && sent >= TOTAL * 0.4) {
        // A burst the broker has accepted (PUBACKs at the publisher) and is handing to both
        // nodes, so node A is in the middle of taking reports when it dies without a chance to
        // finish anything; it comes back under its NODE_ID.
        const burst: Promise<unknown>[] = [];
        for (let k = 0; k < BURST; k++, sent++) burst.push(publish(sent));
        await Promise.all(burst);
        killedAt = sent;
        await cluster.stop(a, signal);
        restarted = cluster.start(ids[0]!);
        restarted.catch(() => undefined);
      }
      await new Promise((r) => setTimeout(r, TICK_MS));
    }
    await Promise.all(pending);
    const loadSeconds = (Date.now() - t0) / 1000;
    await publisher.endAsync();
    a = await restarted!;
    expect(failed).toBe(0);
    expect(acked).toBe(TOTAL);
    // The readings of this load's hour only: another test's late reports are not counted.
    const refs = devices.map((d) => d.id);
    const count = async () =>
      Number(
        (await sql.query<{ n: string }>('select count(*) as n from telemetry where device_ref = any($1::uuid[]) and time >= $2 and time < $3', [refs, new Date(start), new Date(start + 3_600_000)])).rows[0]!.n,
      );
    await expect.poll(count, { timeout: 30_000, interval: 500 }).toBe(TOTAL);
    // Exactly the reports sent, each once (device and device time), none of another time.
    const { rows } = await sql.query<{ total: string; distinct: string; first: Date; last: Date }>(
      'select count(*) as total, count(distinct (device_ref, time)) as distinct, min(time) as first, max(time) as last from telemetry where device_ref = any($1::uuid[]) and time >= $2 and time < $3',
      [refs, new Date(start), new Date(start + 3_600_000)],
    );
    expect(rows[0]).toMatchObject({ total: String(TOTAL), distinct: String(TOTAL) });
    expect(rows[0]!.first.getTime()).toBe(start);
    expect(rows[0]!.last.getTime()).toBe(start + Math.floor((TOTAL - 1) / devices.length) * 1000);
    // Took part after its restart: the reports queued for it while it was away.
    const afterRestart = await storedBy(a);
    console.log(`${what} at report ${killedAt} of ${TOTAL}; load ${loadSeconds.toFixed(1)} s; stored by the restarted node ${afterRestart}`);
    // Killed: its share waited in its sessions for it. Stopped: it left the group first and the
    // other node took its share while it was away.
    if (signal === 'SIGKILL') expect(afterRestart).toBeGreaterThan(0);
  }, 120_000);
});

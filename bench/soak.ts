// The load soak of issue 10 (`npm run bench -- --only soak`): one server (the real entry point in
// a process of its own, bench/soak-server.ts) under everything at once for SOAK_SECONDS (600 by
// default, or `--seconds N`): 10,000 devices reporting 5,000 times a second over MQTT QoS 1 (from
// a third process, bench/soak-mqtt.ts), 200 browsers' live WebSockets and 50 API users clicking
// through the console, while the server's memory is sampled. The question it answers: does
// anything grow or slow down over time? So the warm-up (the first 20% of the run, at most two
// minutes) is left out of every figure, and memory is judged by its growth after the warm-up.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistogram, monitorEventLoopDelay, type RecordableHistogram } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { ALARM_API, ruleSchema } from '@iotc/shared/alarm';
import { API as AUTH_API } from '@iotc/shared/auth';
import { DEVICE_API } from '@iotc/shared/device';
import { HOME_API, LIVE_API } from '@iotc/shared/live';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { alarmLevels, alarmPolicies, devices } from '../apps/server/src/db/schema.ts';
import { hashSecret } from '../apps/server/src/ingest/pipeline.ts';
import { addOrgUser, createTenantUser } from '../apps/server/src/test/fixtures.ts';
import { createPgDatabase } from '../apps/server/src/test/harness.ts';
import type { SoakPublishResult } from './soak-mqtt.ts';

const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const flag = process.argv.indexOf('--seconds');
const SECONDS = flag >= 0 ? Number(process.argv[flag + 1]) : num('SOAK_SECONDS', 600);
const RATE = num('SOAK_RATE', 5000);
const DEVICES = num('SOAK_DEVICES', 10_000);
/** Tenants the fleet is split over; each browser and API user sees its own organisation's devices. */
const ORGS = num('SOAK_ORGS', 10);
const SOCKETS = num('SOAK_SOCKETS', 200);
const API_USERS = num('SOAK_API_USERS', 50);
/** An API user's pause between two calls. */
const API_PAUSE_MS = num('SOAK_API_PAUSE_MS', 1000);
const WARMUP_S = num('SOAK_WARMUP_SECONDS', Math.min(120, SECONDS * 0.2));
const SAMPLE_S = num('SOAK_SAMPLE_SECONDS', 10);
/** Every Nth device alternates a warm report with a cold one, opening or clearing an alarm each time; 0: none. */
const ALERT_EVERY = num('SOAK_ALERT_EVERY', 100);
const ADMIN_PASSWORD = 'Admin#2026';
const PASSWORD = 'Soak#2026pw';

function report(name: string, value: number, unit: string) {
  console.log(`bench: ${name} = ${Number.isInteger(value) ? value : value.toFixed(2)} ${unit}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
/** A histogram of milliseconds, kept in microseconds (it takes integers >= 1). */
const msHistogram = () => createHistogram({ lowest: 1, highest: 3_600_000_000, figures: 3 });
const record = (h: RecordableHistogram, ms: number) => h.record(Math.max(1, Math.round(ms * 1000)));
const p = (h: RecordableHistogram, q: number) => (h.count ? h.percentile(q) / 1000 : NaN);
const MB = 1024 * 1024;

/** Least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx ? sxy / sxx : NaN;
}

/** The next message of the given type from a forked child, or an error when it exits first. */
function nextMessage<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no "${type}" from the child within ${timeoutMs / 1000} s`)), timeoutMs);
    const onMessage = (m: unknown) => {
      if ((m as { type?: string }).type === type) done(undefined, m as T);
    };
    const onExit = (code: number | null) => done(new Error(`the child exited (${code}) before "${type}"`));
    function done(err?: Error, value?: T) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value!);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Ends a child: SIGTERM, then SIGKILL after `graceMs`. */
async function stop(child: ChildProcess | undefined, graceMs: number) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** What bench/soak-server.ts answers. */
interface ServerMemory {
  memory: NodeJS.MemoryUsage;
  /** Heap used right after the last full collection (bytes; 0 before the first). */
  heapAfterGc: number;
  fullGcs: number;
  /** Time spent collecting garbage since the previous answer. */
  gcMs: number;
}

interface SoakUser {
  account: string;
  org: number;
  token?: string;
}

interface Socket {
  ws: WebSocket;
  org: number;
  /** States of reports published after the warm-up. */
  measured: number;
  messages: number;
}

/** The soak area of bench/run.ts. */
export async function soak() {
  const dir = mkdtempSync(join(tmpdir(), 'iotc-soak-'));
  const pg = process.env.DATABASE_URL ? await createPgDatabase(process.env.DATABASE_URL) : undefined;
  const engine = pg ? 'postgres' : 'pglite';
  let server: ChildProcess | undefined;
  let publisher: ChildProcess | undefined;
  const sockets: Socket[] = [];
  let closing = false;
  try {
    // The tenants, their users, alarm policies and devices, written before the server starts.
    const env = { LOG_LEVEL: 'error', DATA_DIR: dir, DATABASE_URL: pg?.url ?? '', ADMIN_PASSWORD };
    const setup = await buildApp({ ...loadConfig(env), mqtt: false });
    const users: SoakUser[] = [];
    const deviceIds: string[][] = [];
    const fleet: { deviceId: string; secret: string; org: number }[] = [];
    const perOrg = Math.ceil(DEVICES / ORGS);
    const usersPerOrg = Math.max(1, Math.ceil(API_USERS / ORGS));
    try {
      const db = setup.database.db;
      for (let o = 0; o < ORGS; o++) {
        const first = `soak${o}u0`;
        const { org } = await createTenantUser(db, { code: `soak-${o}`, orgName: `Soak fleet ${o}`, account: first, password: PASSWORD, permissions: ['device:read', 'alarm:read'] });
        users.push({ account: first, org: o });
        for (let u = 1; u < usersPerOrg; u++) {
          await addOrgUser(db, { orgId: org.id, account: `soak${o}u${u}`, password: PASSWORD, roleCodes: ['op'] });
          users.push({ account: `soak${o}u${u}`, org: o });
        }
        const [urgent] = await db.select().from(alarmLevels).where(eq(alarmLevels.orgId, org.id)).then((ls) => ls.filter((l) => l.code === 'urgent'));
        await db.insert(alarmPolicies).values({
          orgId: org.id,
          name: 'Reefer too warm',
          scope: 'all',
          targets: [],
          rules: [ruleSchema.parse({ id: 'warm', type: 'temp_high', threshold: -10, levelId: urgent!.id })],
        });
        const mine = Array.from({ length: Math.min(perOrg, DEVICES - o * perOrg) }, (_, k) => {
          const i = o * perOrg + k;
          return { deviceId: `SOAK${String(i).padStart(6, '0')}`, secret: `soak-secret-${i}-xxxxxxxx`, org: o };
        });
        deviceIds.push([]);
        for (let i = 0; i < mine.length; i += 500) {
          const rows = await db
            .insert(devices)
            .values(mine.slice(i, i + 500).map((d) => ({ orgId: org.id, deviceId: d.deviceId, name: `Reefer ${d.deviceId}`, secretHash: hashSecret(d.secret) })))
            .returning({ id: devices.id });
          deviceIds[o]!.push(...rows.map((r) => r.id));
        }
        fleet.push(...mine);
      }
    } finally {
      await setup.close();
    }
    const devicesFile = join(dir, 'soak-devices.json');
    writeFileSync(devicesFile, JSON.stringify(fleet));

    // The server: main.ts on that database, an OS-chosen port, the embedded broker (or MQTT_URL).
    server = fork('bench/soak-server.ts', [], {
      execArgv: ['--import', 'tsx'],
      // The bench signs its 50 users in from one address: the per-address sign-in limit is raised.
      env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', MQTT_PORT: '0', JT808_PORT: '0', DEMO_SIMULATOR: 'false', LOGIN_RATE_PER_IP: '10000' },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    const started = server;
    // main.ts prints where it listens: the address, then the broker (embedded, or MQTT_URL).
    const { url, broker } = await new Promise<{ url: string; broker: string }>((resolve, reject) => {
      let url = '';
      let ready = false;
      const timer = setTimeout(() => reject(new Error('the server did not start within 180 s')), 180_000);
      started.once('exit', (code) => reject(new Error(`the server exited (${code}) while starting`)));
      createInterface({ input: started.stdout! }).on('line', (line) => {
        if (ready) return void (line.trim() && process.stderr.write(`server: ${line}\n`));
        url ||= /running at (http:\/\/\S+)/.exec(line)?.[1] ?? '';
        const embedded = /embedded broker on (mqtt:\/\/\S+)/.exec(line)?.[1];
        if (url && (embedded || line.includes('external broker'))) {
          ready = true;
          clearTimeout(timer);
          resolve({ url, broker: embedded ?? process.env.MQTT_URL! });
        }
      });
    });
    const memory = async () => {
      const answer = nextMessage<ServerMemory>(started, 'memory', 30_000);
      started.send('memory');
      return answer.catch((err: unknown) => {
        throw new Error(`the server did not answer a memory sample: ${(err as Error).message}`);
      });
    };

    // Signing in: one session per user; their browsers share it (tabs of one browser).
    const headers = (token: string) => ({ access_token: token, language: 'en-US' });
    for (const u of users) {
      let res: Response;
      // Sign-ins from one address are rate-limited: wait as told, as a browser would.
      for (;;) {
        res = await fetch(`${url}${AUTH_API.login}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', language: 'en-US' },
          body: JSON.stringify({ account: u.account, password: PASSWORD }),
        });
        if (res.status !== 429) break;
        await res.arrayBuffer();
        await sleep(Number(res.headers.get('retry-after') ?? 5) * 1000);
      }
      if (!res.ok) throw new Error(`login of ${u.account} answered ${res.status}: ${await res.text()}`);
      u.token = ((await res.json()) as { data: { token: string } }).data.token;
    }

    // Until the go, nothing is measured.
    let warmupUntil = Infinity;
    let end = Infinity;
    const wsLatency = msHistogram();
    const wsHalves = [msHistogram(), msHistogram()];
    const half = (t: number) => (t < (warmupUntil + end) / 2 ? 0 : 1);
    let wsDrops = 0;
    const wsBase = url.replace(/^http/, 'ws');
    for (let k = 0; k < SOCKETS; k += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, SOCKETS - k) }, (_, j) => {
          const user = users[(k + j) % users.length]!;
          const s: Socket = { ws: new WebSocket(`${wsBase}${LIVE_API.ws}?access_token=${user.token}`), org: user.org, measured: 0, messages: 0 };
          sockets.push(s);
          s.ws.on('message', (data) => {
            const at = Date.now();
            s.messages++;
            const msg = JSON.parse(String(data)) as { type: string; data: { time?: string | null }[] };
            if (msg.type !== 'device-states') return;
            for (const st of msg.data) {
              const t = Date.parse(st.time ?? '');
              if (t >= warmupUntil && t < end) {
                s.measured++;
                record(wsLatency, at - t);
                record(wsHalves[half(t)]!, at - t);
              }
            }
          });
          s.ws.on('close', () => void (closing || wsDrops++));
          return new Promise<void>((resolve, reject) => {
            s.ws.once('message', () => resolve());
            s.ws.once('error', reject);
            s.ws.once('close', (code) => reject(new Error(`a live socket closed at once (${code})`)));
          });
        }),
      );
    }

    publisher = fork('bench/soak-mqtt.ts', ['--mqtt', broker, '--devices', devicesFile, '--rate', String(RATE), '--alert-every', String(ALERT_EVERY)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await nextMessage(publisher, 'ready', 300_000);
    const idle = await memory();

    const start = Date.now() + 1000;
    warmupUntil = start + WARMUP_S * 1000;
    end = start + SECONDS * 1000;
    const published = nextMessage<SoakPublishResult>(publisher, 'done', SECONDS * 1000 + 120_000);
    published.catch(() => undefined); // awaited below; not an unhandled rejection if something else fails first
    publisher.send({ type: 'go', start, warmupUntil, end });
    const loop = monitorEventLoopDelay({ resolution: 10 });

    // The API users: each goes round the console's calls, one at a time, pausing between them.
    const calls: Record<string, (u: SoakUser) => string> = {
      device_list: (u) => `${DEVICE_API.devices}?page=${1 + Math.floor(Math.random() * Math.max(1, deviceIds[u.org]!.length / 20))}&size=20`,
      latest_states: () => `${LIVE_API.states}?page=1&size=20`,
      alarm_list: () => `${ALARM_API.alarms}?page=1&size=20`,
      history: (u) => {
        const ids = deviceIds[u.org]!;
        const now = Date.now();
        return `${LIVE_API.telemetry}?device=${ids[Math.floor(Math.random() * ids.length)]}&from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now).toISOString()}&page=1&size=20`;
      },
      home_summary: () => LIVE_API.summary,
      home_alerts: () => `${HOME_API.alerts}?page=1&size=10`,
    };
    const names = Object.keys(calls);
    const apiAll = msHistogram();
    const apiHalves = [msHistogram(), msHistogram()];
    const apiBy = Object.fromEntries(names.map((n) => [n, msHistogram()]));
    const apiErrors: Record<string, number> = {};
    let apiMeasured = 0;
    const apiUser = async (k: number) => {
      const user = users[k % users.length]!;
      await sleep(start - Date.now() + (k * API_PAUSE_MS) / API_USERS);
      for (let i = k; Date.now() < end; i++) {
        const name = names[i % names.length]!;
        const t0 = Date.now();
        const began = performance.now();
        let ok = false;
        try {
          const res = await fetch(`${url}${calls[name]!(user)}`, { headers: headers(user.token!) });
          await res.arrayBuffer();
          ok = res.ok;
        } catch {
          ok = false;
        }
        const ms = performance.now() - began;
        if (!ok) apiErrors[name] = (apiErrors[name] ?? 0) + 1;
        else if (t0 >= warmupUntil && t0 < end) {
          record(apiAll, ms);
          record(apiHalves[half(t0)]!, ms);
          record(apiBy[name]!, ms);
          apiMeasured++;
        }
        await sleep(Math.min(API_PAUSE_MS, end - Date.now()));
      }
    };
    const apiDone = Promise.all(Array.from({ length: API_USERS }, (_, k) => apiUser(k)));

    // The server's memory every SAMPLE_S, and once more as the load ends.
    const samples: { t: number; rss: number; heap: number; live: number; fullGcs: number; gcMs: number }[] = [];
    await sleep(start - Date.now());
    loop.enable();
    for (let next = start; ; next += SAMPLE_S * 1000) {
      await sleep(Math.min(next, end) - Date.now());
      const m = await memory();
      samples.push({ t: Date.now(), rss: m.memory.rss / MB, heap: m.memory.heapUsed / MB, live: m.heapAfterGc / MB, fullGcs: m.fullGcs, gcMs: m.gcMs });
      if (next >= end) break;
    }
    await apiDone;
    const pub = await published;
    loop.disable();
    // The last flushes of the hub reach the sockets.
    await sleep(1000);
    const connected = sockets.filter((s) => s.ws.readyState === WebSocket.OPEN).length;

    const windowS = (end - warmupUntil) / 1000;
    report(`soak.${engine}.seconds`, SECONDS, `s (warm-up ${Math.round(WARMUP_S)} s left out)`);
    report(`soak.${engine}.reports_per_s`, pub.ackedInWindow / windowS, `reports/s (acknowledged; ${RATE} offered)`);
    report(`soak.${engine}.publish_ack_p50`, pub.ack.p50, 'ms');
    report(`soak.${engine}.publish_ack_p99`, pub.ack.p99, 'ms');
    report(`soak.${engine}.publish_ack_p99_first_half`, pub.ackHalves[0], 'ms');
    report(`soak.${engine}.publish_ack_p99_second_half`, pub.ackHalves[1], 'ms');
    report(`soak.${engine}.publish_to_ws_p50`, p(wsLatency, 50), 'ms');
    report(`soak.${engine}.publish_to_ws_p99`, p(wsLatency, 99), 'ms');
    report(`soak.${engine}.publish_to_ws_p99_first_half`, p(wsHalves[0]!, 99), 'ms');
    report(`soak.${engine}.publish_to_ws_p99_second_half`, p(wsHalves[1]!, 99), 'ms');
    const expected = sockets.reduce((a, s) => a + pub.publishedInWindowByOrg[s.org]!, 0);
    const received = sockets.reduce((a, s) => a + s.measured, 0);
    report(`soak.${engine}.ws_states_per_socket`, received / windowS / SOCKETS, `states/s (in ${sockets.reduce((a, s) => a + s.messages, 0)} messages over the run)`);
    report(`soak.${engine}.ws_states_delivered`, expected ? (received / expected) * 100 : NaN, '% of reports (the rest coalesced into newer states)');
    report(`soak.${engine}.api_calls_per_s`, apiMeasured / windowS, 'req/s');
    report(`soak.${engine}.api_p50`, p(apiAll, 50), 'ms');
    report(`soak.${engine}.api_p99`, p(apiAll, 99), 'ms');
    report(`soak.${engine}.api_p99_first_half`, p(apiHalves[0]!, 99), 'ms');
    report(`soak.${engine}.api_p99_second_half`, p(apiHalves[1]!, 99), 'ms');
    for (const n of names) report(`soak.${engine}.api.${n}_p99`, p(apiBy[n]!, 99), 'ms');
    report(`soak.${engine}.ws_clients`, connected, `clients (still connected at the end, of ${SOCKETS})`);

    const after = samples.filter((s) => s.t >= warmupUntil);
    const first = after[0];
    const last = after.at(-1);
    report(`soak.${engine}.rss_idle`, idle.memory.rss / MB, 'MB');
    report(`soak.${engine}.rss_end`, last?.rss ?? NaN, 'MB');
    report(`soak.${engine}.rss_growth_after_warmup`, first && last ? last.rss - first.rss : NaN, `MB (${after.length} samples)`);
    report(`soak.${engine}.rss_slope_after_warmup`, slope(after.map((s) => [(s.t - warmupUntil) / 60_000, s.rss])), 'MB/min');
    report(`soak.${engine}.heap_growth_after_warmup`, first && last ? last.heap - first.heap : NaN, 'MB (heap used when sampled, garbage included)');
    report(`soak.${engine}.heap_slope_after_warmup`, slope(after.map((s) => [(s.t - warmupUntil) / 60_000, s.heap])), 'MB/min');
    // The heap kept after a full collection: one point per new collection seen by a sample.
    const live = after.filter((s, i) => s.live > 0 && (i === 0 || s.fullGcs !== after[i - 1]!.fullGcs));
    report(`soak.${engine}.heap_after_gc_end`, last?.live ?? NaN, 'MB');
    report(
      `soak.${engine}.heap_after_gc_growth_after_warmup`,
      live.length >= 2 ? live.at(-1)!.live - live[0]!.live : NaN,
      `MB (${first && last ? last.fullGcs - first.fullGcs : 0} full collections after the warm-up)`,
    );
    report(`soak.${engine}.heap_after_gc_slope_after_warmup`, slope(live.map((s) => [(s.t - warmupUntil) / 60_000, s.live])), 'MB/min');
    const gcMs = after.slice(1).reduce((a, s) => a + s.gcMs, 0);
    report(`soak.${engine}.gc_busy_after_warmup`, first && last && last.t > first.t ? (gcMs / (last.t - first.t)) * 100 : NaN, '% of the time collecting garbage');
    report(`soak.${engine}.load_event_loop_p99`, loop.percentile(99) / 1e6, 'ms (the bench process itself; inflates the socket figures)');

    const apiFailed = Object.values(apiErrors).reduce((a, b) => a + b, 0);
    const unacked = pub.unacked + pub.failed;
    report(`soak.${engine}.errors`, apiFailed + wsDrops + unacked + pub.disconnects, 'errors');
    report(`soak.${engine}.errors.api`, apiFailed, Object.keys(apiErrors).length ? `calls (${Object.entries(apiErrors).map(([k, v]) => `${k} ${v}`).join(', ')})` : 'calls');
    report(`soak.${engine}.errors.ws_drops`, wsDrops, 'sockets');
    report(`soak.${engine}.errors.unacked_reports`, unacked, 'reports');
    report(`soak.${engine}.errors.mqtt_disconnects`, pub.disconnects, 'devices');
  } finally {
    closing = true;
    await Promise.all(
      sockets.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.ws.readyState === WebSocket.CLOSED) return resolve();
            s.ws.once('close', () => resolve());
            s.ws.close();
            setTimeout(() => (s.ws.terminate(), resolve()), 5000).unref();
          }),
      ),
    );
    await stop(publisher, 5000);
    await stop(server, 30_000);
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

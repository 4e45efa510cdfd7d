// Benchmarks. Each figure is printed on a line of its own as `bench: <name> = <value> <unit>`.
// `npm run bench -- --only <area>` runs one area. Areas: auth, list, table, intake, jt808, alarm, monitor, track, storage, ledger, soak, web.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile, execSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Session } from 'node:inspector/promises';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join, normalize, resolve } from 'node:path';
import autocannon from 'autocannon';
import { and, eq, sql } from 'drizzle-orm';
import { UnavailableError } from '../apps/server/src/db/availability.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createPgDatabase } from '../apps/server/src/test/harness.ts';
import { rowsOf } from '../apps/server/src/db/client.ts';
import { addOrgUser } from '../apps/server/src/test/fixtures.ts';
import { alarmLevels, alarmPolicies, devices, orgs } from '../apps/server/src/db/schema.ts';
import { ruleSchema } from '@iotc/shared/alarm';
import { fromBase64 } from '@iotc/shared/ledger/bytes';
import { rangeNodes, rootFromReader, verifyConsistency, verifyInclusion } from '@iotc/shared/ledger/merkle';
import { readNodes as readLedgerNodes } from '../apps/server/src/modules/ledger/repo.ts';
import { verifyLedger } from '../apps/server/src/modules/ledger/cli.ts';
import { detectTrips } from '@iotc/shared/trips';
import { archiveTick } from '../apps/server/src/modules/archive/job.ts';
import { addMonths, createMonth, dropMonth, monthOf } from '../apps/server/src/db/partitions.ts';
import { fixesOf, readFixes } from '../apps/server/src/modules/archive/fixes.ts';
import { readRows } from '../apps/server/src/modules/archive/reader.ts';
import { startMqtt } from '../apps/server/src/ingest/mqtt.ts';
import { startJt808Gateway } from '../apps/server/src/modules/jt808/gateway.ts';
import { jt808FrameLog } from '../apps/server/src/modules/jt808/frame-log.ts';
import { jt808Repo } from '../apps/server/src/modules/jt808/repo.ts';
import { jt808Service } from '../apps/server/src/modules/jt808/service.ts';
import { createDevice, step } from '../apps/server/src/sim/models.ts';
import { hashSecret, type ReportingDevice } from '../apps/server/src/ingest/pipeline.ts';
import { ADMIN_PASSWORD, CHROMIUM_ARGS, launchBrowser, startServer } from '../e2e/harness.ts';
import { soak } from './soak.ts';
import { web } from './web.ts';

const args = process.argv.slice(2);
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? args[onlyIdx + 1] : undefined;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const execFileAsync = promisify(execFile);

function report(name: string, value: number, unit: string) {
  console.log(`bench: ${name} = ${Number.isInteger(value) ? value : value.toFixed(2)} ${unit}`);
}

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** The real app on the embedded default (PGlite on disk) or on a throw-away database of DATABASE_URL. */
async function benchApp(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'iotc-bench-'));
  const pg = process.env.DATABASE_URL ? await createPgDatabase(process.env.DATABASE_URL) : undefined;
  // The benches measure capacity: 50 clients signing in from one address as fast as they can,
  // and devices publishing as fast as acknowledgements come back, are far over the protective
  // limits of a real installation (plugins/rate-limit.ts, ingest/device-rate.ts).
  const limits = { LOGIN_RATE_PER_IP: '100000', LOGIN_RATE_PER_ACCOUNT: '100000', INTAKE_DEVICE_RATE: '100000', INTAKE_DEVICE_BURST: '100000' };
  const app = await buildApp({ ...loadConfig({ LOG_LEVEL: 'error', DATA_DIR: dir, DATABASE_URL: pg?.url, ...limits, ...env }), mqtt: false });
  return {
    app,
    engine: pg ? 'postgres' : 'pglite',
    close: async () => {
      await app.close();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Login throughput and `info` latency with 50 concurrent clients, on the embedded default
 * (PGlite on disk), or on a throw-away database of the PostgreSQL named by DATABASE_URL.
 */
async function auth() {
  const { app, engine, close } = await benchApp();
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { 'content-type': 'application/json', language: 'en-US' };
    const body = JSON.stringify({ account: 'demo', password: app.seedResult.demo!.password });

    const login = await run({ url: `${address}/iot-cloud-auth/auth/v1/login`, method: 'POST', headers, body, connections: 50, duration: DURATION });
    if (login.non2xx > 0) throw new Error(`login answered ${login.non2xx} non-2xx responses`);
    report(`auth.${engine}.login_rps`, login.requests.average, 'req/s');
    report(`auth.${engine}.login_p99`, login.latency.p99, 'ms');

    const res = await app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers, payload: body });
    const token = (res.json() as { data: { token: string } }).data.token;
    const info = await run({
      url: `${address}/iot-cloud-auth/auth/v1/info`,
      method: 'POST',
      headers: { ...headers, access_token: token },
      connections: 50,
      duration: DURATION,
    });
    if (info.non2xx > 0) throw new Error(`info answered ${info.non2xx} non-2xx responses`);
    report(`auth.${engine}.info_rps`, info.requests.average, 'req/s');
    report(`auth.${engine}.info_p99`, info.latency.p99, 'ms');
  } finally {
    await close();
  }
}

/**
 * List API on a 1,000,000-row table (the audit log of one organisation): p99 of page 1 and of
 * page 5,000, sorted newest first, 10 concurrent clients. Each answer includes the exact total.
 */
async function list() {
  const { app, engine, close } = await benchApp();
  try {
    const db = app.database.db;
    const started = performance.now();
    await db.execute(sql`
      insert into audit_logs (org_id, at, account, action, result, ip)
      select o.id, now() - make_interval(secs => g), 'operator' || (g % 997),
             case when g % 2 = 0 then 'login' else 'logout' end,
             case when g % 10 = 0 then 'failure' else 'success' end, '10.1.' || (g % 250) || '.' || (g % 200)
      from orgs o, generate_series(1, 1000000) g where o.code = 'demo'`);
    await db.execute(sql`analyze audit_logs`);
    report(`list.${engine}.insert_1m_rows`, (performance.now() - started) / 1000, 's');

    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    // The log is read by the organisation's administrator: the demo operator's role grants no audit:read.
    const [demoOrg] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    await addOrgUser(db, { orgId: demoOrg!.id, account: 'bench-admin', password: app.seedResult.demo!.password, roleCodes: ['org_admin'] });
    const res = await app.inject({
      method: 'POST',
      url: '/iot-cloud-auth/auth/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ account: 'bench-admin', password: app.seedResult.demo!.password }),
    });
    const token = (res.json() as { data: { token: string } }).data.token;
    for (const page of [1, 5000]) {
      const r = await run({
        url: `${address}/api/iot/v2/audit-logs?page=${page}&size=10&sort=time,desc`,
        headers: { access_token: token, language: 'en-US' },
        connections: 10,
        duration: DURATION,
      });
      if (r.non2xx > 0) throw new Error(`list answered ${r.non2xx} non-2xx responses`);
      report(`list.${engine}.page${page}_p99`, r.latency.p99, 'ms');
      report(`list.${engine}.page${page}_rps`, r.requests.average, 'req/s');
    }
  } finally {
    await close();
  }
}

/** Scrolls the virtual table body to the bottom in 200 steps, timing each until painted. */
const SCROLL_THROUGH = `(async () => {
  const holder =
    document.querySelector('[data-testid=bench-table]') ?? document.querySelector('.ant-table-tbody-virtual-holder');
  if (!holder) throw new Error('no scrollable table body');
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  const times = [];
  const total = holder.scrollHeight - holder.clientHeight;
  for (let i = 1; i <= 200; i++) {
    const t0 = performance.now();
    holder.scrollTop = (total * i) / 200;
    holder.dispatchEvent(new Event('scroll'));
    await frame();
    times.push(performance.now() - t0);
  }
  // Row heights are measured as rows appear, so the list may settle a few frames later.
  const settle = performance.now();
  while (!holder.textContent.includes('TC-149999') && performance.now() - settle < 3000) {
    holder.scrollTop = holder.scrollHeight;
    await frame();
  }
  times.push(performance.now() - settle);
  return { times, last: holder.textContent.includes('TC-149999') };
})()`;

/**
 * A 50,000-row local table in headless Chromium (bench/web-table: the real DataTable in local,
 * virtualised mode): time to first render, then a scroll from top to bottom in 200 steps,
 * each waiting for the browser to paint, until the last row is on screen.
 */
async function table() {
  // Vite is a dependency of the web workspace, so it is run from there.
  execSync('npm exec -w @iotc/web -- vite build --config ../../bench/web-table/vite.config.ts --logLevel error', { stdio: 'inherit' });
  const root = resolve('bench/web-table/dist');
  const server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent((req.url ?? '/').split('?')[0]!)));
    const file = path === root || path.endsWith('/') ? join(root, 'index.html') : path;
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url);
    await page.waitForFunction(() => typeof (window as unknown as { __firstRenderMs?: number }).__firstRenderMs === 'number', null, { timeout: 60_000 });
    report('table.first_render_50k', await page.evaluate(() => (window as unknown as { __firstRenderMs: number }).__firstRenderMs), 'ms');

    // Passed as text: the runner's TypeScript transform would add helpers the page lacks.
    const steps = (await page.evaluate(SCROLL_THROUGH)) as { times: number[]; last: boolean };
    if (!steps.last) throw new Error('the last row (TC-149999) was not rendered after scrolling to the bottom');
    const sorted = [...steps.times].sort((a, b) => a - b);
    report('table.scroll_50k_total', steps.times.reduce((a, b) => a + b, 0), 'ms');
    report('table.scroll_step_p99', sorted[Math.floor(sorted.length * 0.99) - 1]!, 'ms');
  } finally {
    await browser.close();
    server.close();
  }
}

/** `n` MQTT devices of the demo organisation, BENCH000000..., and the file listing them with their secrets for a load process. */
async function mqttDevices(app: Awaited<ReturnType<typeof benchApp>>['app'], dir: string, n: number): Promise<string> {
  const db = app.database.db;
  const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
  const list = Array.from({ length: n }, (_, i) => ({ deviceId: `BENCH${String(i).padStart(6, '0')}`, secret: `bench-secret-${i}-xxxxxxxx` }));
  for (let i = 0; i < list.length; i += 500) {
    await db.insert(devices).values(list.slice(i, i + 500).map((d) => ({ orgId: demo!.id, deviceId: d.deviceId, name: d.deviceId, secretHash: hashSecret(d.secret) })));
  }
  const file = join(dir, 'devices.json');
  writeFileSync(file, JSON.stringify(list));
  return file;
}

/**
 * Device intake over MQTT QoS 1 on the embedded broker: the most reports per second the server
 * acknowledges (decoded, stored, latest state updated, pushed), the p99 from publish to the
 * browser's WebSocket message at a steady 5,000 reports/s, and the database size per million
 * readings. The load comes from a second process (bench/intake-load.ts) with 1,000 devices.
 */
async function intake() {
  const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
  const { app, engine, close } = await benchApp();
  const dir = mkdtempSync(join(tmpdir(), 'iotc-intake-'));
  const link = await startMqtt({ port: 0, host: '127.0.0.1', log: app.log, authenticate: app.intake.authenticate, sink: app.intake });
  try {
    const db = app.database.db;
    const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    await addOrgUser(db, { orgId: demo!.id, account: 'bench-intake', password: app.seedResult.demo!.password, roleCodes: ['org_admin'] });
    const devicesFile = await mqttDevices(app, dir, DEVICES);

    // A browser's live channel, held by the load process (see bench/intake-load.ts).
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'bench-intake', password: app.seedResult.demo!.password }) });
    const token = (login.json() as { data: { token: string } }).data.token;
    const wsUrl = `${address.replace('http', 'ws')}/api/iot/v2/live?access_token=${token}`;

    const mqttUrl = `mqtt://127.0.0.1:${link.port}`;
    // Asynchronously: this process is the server and must keep running meanwhile.
    const load = async (rate: number) => {
      const argv = ['--import', 'tsx', 'bench/intake-load.ts', '--mqtt', mqttUrl, '--devices', devicesFile, '--rate', String(rate), '--duration', String(DURATION), '--ws', wsUrl];
      const { stdout } = await execFileAsync('node', argv, { encoding: 'utf8', maxBuffer: 1 << 26 });
      return JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
    };

    const max = await load(0);
    if (max.failed) throw new Error(`${max.failed} reports were not acknowledged`);
    report(`intake.${engine}.mqtt_max_rps`, (max.acked / max.ackedMs) * 1000, 'reports/s');
    report(`intake.${engine}.publish_to_ws_p99_at_max`, max.latency.p99, 'ms');

    const steady = await load(5000);
    if (steady.failed) throw new Error(`${steady.failed} reports were not acknowledged`);
    // Acknowledged, so stored, from the first publish to the last acknowledgement.
    report(`intake.${engine}.acked_rps_offered_5k`, (steady.acked / steady.ackedMs) * 1000, 'reports/s');
    report(`intake.${engine}.publish_to_ws_p50_at_5k`, steady.latency.p50, 'ms');
    report(`intake.${engine}.publish_to_ws_p99_at_5k`, steady.latency.p99, 'ms');
    if (steady.latency.missing) report(`intake.${engine}.reports_never_pushed`, steady.latency.missing, 'reports');
    await app.readings.flushed();

    const size = await db.execute<{ bytes: string; rows: string }>(
      // Every month's partition (the partitioned table itself holds no rows).
      sql`select (select sum(pg_total_relation_size(relid)) from pg_partition_tree('telemetry'))::text as bytes, (select count(*) from telemetry)::text as rows`,
    );
    const row = (size as unknown as { rows: { bytes: string; rows: string }[] }).rows[0]!;
    report(`intake.${engine}.db_mb_per_million_reports`, (Number(row.bytes) / Number(row.rows)) * 1e6 / 1048576, 'MB');
  } finally {
    await link.close();
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A full garbage collection, for memory figures (the bench runs without --expose-gc). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * The JT/T 808 gateway (modules/jt808) under 10,000 concurrent TCP terminals from a second
 * process (bench/jt808-load.ts), all through the real path: frames deframed and decoded, the
 * vendor item mapping applied, the intake pipeline storing each location before its 0x8001, the
 * frame log kept. Figures: memory per idle authenticated connection (every terminal registered,
 * disconnected, then connected again and authenticated with its saved code; heap after a full
 * collection and RSS, before and after); the most locations stored per second with one
 * unanswered location per terminal (a terminal sends its next one on the answer); the p50/p99
 * from writing a location to reading its 0x8001 at a steady 5,000 a second; and, for comparison
 * in the same run, the MQTT intake's most reports per second (bench/intake-load.ts, 1,000 devices,
 * 8 in flight each, as the `intake` area).
 */
async function jt808() {
  const TERMINALS = Number(process.env.BENCH_JT808_TERMINALS ?? 10_000);
  const { app, engine, close } = await benchApp();
  const dir = mkdtempSync(join(tmpdir(), 'iotc-jt808-'));
  const frames = jt808FrameLog({ db: app.database.db, log: app.log });
  const gateway = await startJt808Gateway({
    port: 0,
    host: '127.0.0.1',
    log: app.log,
    intake: app.intake,
    service: jt808Service(jt808Repo(app.database.db), { nodeId: 'bench' }),
    commands: app.jt808Commands,
    frames,
    items: app.jt808Models,
    confirmations: app.jt808Confirmations,
  });
  let load: ReturnType<typeof spawn> | undefined;
  try {
    const db = app.database.db;
    const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    // Terminal phone numbers as device ids (12 digits, the 2013 header's 6 BCD bytes).
    const phones = Array.from({ length: TERMINALS }, (_, i) => `0139${String(i).padStart(8, '0')}`);
    for (let i = 0; i < phones.length; i += 500) {
      await db.insert(devices).values(phones.slice(i, i + 500).map((p) => ({ orgId: demo!.id, deviceId: p, name: `Truck ${p}`, model: 'BENCH-4G', protocol: 'jt808' as const, secretHash: hashSecret(randomSecret()) })));
    }
    const terminalsFile = join(dir, 'terminals.json');
    writeFileSync(terminalsFile, JSON.stringify(phones));

    load = spawn(process.execPath, ['--import', 'tsx', 'bench/jt808-load.ts', '--port', String(gateway.port), '--terminals', terminalsFile, '--rate', '5000', '--duration', String(DURATION)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const said = createInterface({ input: load.stdout! })[Symbol.asyncIterator]();
    const exited = new Promise<never>((_, reject) => load!.once('exit', (code) => reject(new Error(`the JT/T 808 load process stopped (${code})`))));
    const next = async <T>(phase: string): Promise<T> => {
      const line = await Promise.race([said.next(), exited]);
      if (line.done) throw new Error(`the JT/T 808 load process ended before "${phase}"`);
      const msg = JSON.parse(line.value) as { phase: string } & T;
      if (msg.phase !== phase) throw new Error(`expected "${phase}" from the load process, got ${line.value}`);
      return msg;
    };
    const go = () => load!.stdin!.write('go\n');
    const until = async (what: string, ok: () => boolean) => {
      const deadline = Date.now() + 120_000;
      while (!ok()) {
        if (Date.now() > deadline) throw new Error(`${what}: not within 120 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    const registered = await next<{ ms: number }>('registered');
    report(`jt808.${engine}.register_and_authenticate_${TERMINALS}`, registered.ms / 1000, 's');
    await next('closed');
    await until('every connection closed on the server', () => gateway.connections() === 0);
    // The disconnects recorded and the frame log written before the baseline.
    await new Promise((r) => setTimeout(r, 2000));
    collectGarbage();
    const before = process.memoryUsage();
    go();
    const again = await next<{ ms: number }>('authenticated');
    await until('every terminal connected on the server', () => gateway.connections() === TERMINALS);
    report(`jt808.${engine}.reconnect_with_saved_code_${TERMINALS}`, again.ms / 1000, 's');
    await new Promise((r) => setTimeout(r, 2000));
    collectGarbage();
    const after = process.memoryUsage();
    // JS heap and the memory outside it that V8 knows of (buffers), after a full collection; and the process's RSS.
    const kept = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
    report(`jt808.${engine}.idle_terminal_memory`, (kept(after) - kept(before)) / TERMINALS / 1024, 'KB');
    report(`jt808.${engine}.idle_terminal_rss`, (after.rss - before.rss) / TERMINALS / 1024, 'KB');

    const storedBefore = Number(rowsOfAny<{ n: string }>(await db.execute(sql`select count(*)::text as n from telemetry`))[0]!.n);
    // BENCH_JT808_PROFILE=<file>: a CPU profile of this process over the two report phases (for `node --cpu-prof`-style reading).
    const stopProfile = await cpuProfile(process.env.BENCH_JT808_PROFILE);
    // BENCH_JT808_HEAP=<file>: a sampling heap profile of what this process allocates over the
    // closed loop, collected objects included (where the garbage collector's work comes from).
    const heap = process.env.BENCH_JT808_HEAP ? new Session() : null;
    if (heap) {
      heap.connect();
      await heap.post('HeapProfiler.enable');
      // The two flags are in V8's protocol but not yet in Node's types.
      await heap.post('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as { samplingInterval: number });
    }
    // The server's CPU time (user and system, every thread of this process) per stored location:
    // steadier than the rate when other work shares the machine.
    const cpuBefore = process.cpuUsage();
    go();
    const max = await next<LoadPhase>('max');
    if (heap) {
      const { profile } = await heap.post('HeapProfiler.stopSampling');
      writeFileSync(process.env.BENCH_JT808_HEAP!, JSON.stringify(profile));
      heap.disconnect();
    }
    const cpu = process.cpuUsage(cpuBefore);
    if (max.unanswered || max.refused) throw new Error(`max: ${max.unanswered} locations unanswered, ${max.refused} refused`);
    report(`jt808.${engine}.max_stored_rps`, (max.acked / max.ackedMs) * 1000, 'reports/s');
    report(`jt808.${engine}.send_to_ack_p99_at_max`, max.latency.p99, 'ms');
    report(`jt808.${engine}.server_cpu_per_location`, (cpu.user + cpu.system) / max.acked, 'us');
    report(`jt808.${engine}.server_cpu_per_location_user`, cpu.user / max.acked, 'us');

    go();
    const steady = await next<LoadPhase>('steady');
    if (steady.unanswered || steady.refused) throw new Error(`steady: ${steady.unanswered} locations unanswered, ${steady.refused} refused`);
    report(`jt808.${engine}.stored_rps_offered_5k`, (steady.acked / steady.ackedMs) * 1000, 'reports/s');
    report(`jt808.${engine}.send_to_ack_p50_at_5k`, steady.latency.p50, 'ms');
    report(`jt808.${engine}.send_to_ack_p99_at_5k`, steady.latency.p99, 'ms');
    // Where a tail comes from: the p99 of the locations written in each second (not a bench line).
    console.log(`# jt808.${engine} p99 by second written at 5k: ${steady.p99BySecond.join(' ')} ms`);
    await stopProfile();

    // Answered means stored: every answered location is a row.
    await app.readings.flushed();
    const stored = Number(rowsOfAny<{ n: string }>(await db.execute(sql`select count(*)::text as n from telemetry`))[0]!.n) - storedBefore;
    if (stored !== max.acked + steady.acked) throw new Error(`${max.acked + steady.acked} locations answered, ${stored} stored`);
    await new Promise<void>((r) => (load!.exitCode === null ? load!.once('exit', () => r()) : r()));
    load = undefined;
  } finally {
    load?.kill();
    await gateway.close();
    await frames.close();
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
  // The MQTT intake in the same run, for comparison.
  await mqttMax();
}

/**
 * A CPU profile of this process (for `node --cpu-prof`-style reading) from now until the returned
 * stop, written to `file`; nothing without a file.
 */
async function cpuProfile(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/** The `intake` area's closed-loop MQTT figure alone (1,000 devices, 8 reports in flight each). */
async function mqttMax() {
  const DEVICES = 1000;
  const { app, engine, close } = await benchApp();
  const dir = mkdtempSync(join(tmpdir(), 'iotc-intake-'));
  const link = await startMqtt({ port: 0, host: '127.0.0.1', log: app.log, authenticate: app.intake.authenticate, sink: app.intake });
  try {
    const devicesFile = await mqttDevices(app, dir, DEVICES);
    const argv = ['--import', 'tsx', 'bench/intake-load.ts', '--mqtt', `mqtt://127.0.0.1:${link.port}`, '--devices', devicesFile, '--rate', '0', '--duration', String(DURATION)];
    // BENCH_MQTT_PROFILE=<file>: a CPU profile of this process over the MQTT phase (to set beside BENCH_JT808_PROFILE's).
    const stopProfile = await cpuProfile(process.env.BENCH_MQTT_PROFILE);
    const cpuBefore = process.cpuUsage();
    const { stdout } = await execFileAsync('node', argv, { encoding: 'utf8', maxBuffer: 1 << 26 });
    const cpu = process.cpuUsage(cpuBefore);
    await stopProfile();
    const max = JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
    if (max.failed) throw new Error(`${max.failed} reports were not acknowledged`);
    report(`jt808.${engine}.mqtt_max_rps_same_run`, (max.acked / max.ackedMs) * 1000, 'reports/s');
    // The server's CPU time per report on the MQTT path (the embedded broker's included), beside the location's above.
    report(`jt808.${engine}.mqtt_server_cpu_per_report_same_run`, (cpu.user + cpu.system) / max.acked, 'us');
  } finally {
    await link.close();
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const randomSecret = () => Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);

interface LoadPhase {
  sent: number;
  acked: number;
  refused: number;
  unanswered: number;
  ackedMs: number;
  latency: { p50: number; p99: number };
  /** The p99 latency of the locations written in each second of the phase. */
  p99BySecond: number[];
}

/**
 * Alarm latency: 1,000 policies over 10,000 devices (each policy names 10 devices, with a
 * temperature-high rule at -10 C) at 5,000 reports/s over MQTT QoS 1. The reefers report
 * -18.5 C; every 20th device alternates +5.0 C with -18.5 C, so each of its reports opens or
 * clears an alarm (5% of the reports). Those reports are timed from their publish to the
 * browser's WebSocket message of their alarm.
 */
async function alarm() {
  const DEVICES = Number(process.env.BENCH_ALARM_DEVICES ?? 10_000);
  const POLICIES = Number(process.env.BENCH_ALARM_POLICIES ?? 1000);
  const RATE = Number(process.env.BENCH_ALARM_RATE ?? 5000);
  const { app, engine, close } = await benchApp();
  const dir = mkdtempSync(join(tmpdir(), 'iotc-alarm-'));
  const link = await startMqtt({ port: 0, host: '127.0.0.1', log: app.log, authenticate: app.intake.authenticate, sink: app.intake });
  try {
    const db = app.database.db;
    const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    await addOrgUser(db, { orgId: demo!.id, account: 'bench-alarm', password: app.seedResult.demo!.password, roleCodes: ['org_admin'] });
    const [urgent] = await db.select().from(alarmLevels).where(and(eq(alarmLevels.orgId, demo!.id), eq(alarmLevels.code, 'urgent')));
    const list = Array.from({ length: DEVICES }, (_, i) => ({ deviceId: `ALARM${String(i).padStart(6, '0')}`, secret: `alarm-secret-${i}-xxxxxxxx` }));
    const ids: string[] = [];
    for (let i = 0; i < list.length; i += 500) {
      const rows = await db
        .insert(devices)
        .values(list.slice(i, i + 500).map((d) => ({ orgId: demo!.id, deviceId: d.deviceId, name: d.deviceId, secretHash: hashSecret(d.secret) })))
        .returning({ id: devices.id });
      ids.push(...rows.map((r) => r.id));
    }
    const per = Math.ceil(DEVICES / POLICIES);
    for (let p = 0; p < POLICIES; p += 100) {
      await db.insert(alarmPolicies).values(
        Array.from({ length: Math.min(100, POLICIES - p) }, (_, k) => ({
          orgId: demo!.id,
          name: `Bench policy ${p + k}`,
          scope: 'devices' as const,
          targets: ids.slice((p + k) * per, (p + k + 1) * per),
          rules: [ruleSchema.parse({ id: 'warm', type: 'temp_high', threshold: -10, levelId: urgent!.id })],
        })),
      );
    }
    app.alarmEngine.invalidate();
    const devicesFile = join(dir, 'devices.json');
    writeFileSync(devicesFile, JSON.stringify(list));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'bench-alarm', password: app.seedResult.demo!.password }) });
    const token = (login.json() as { data: { token: string } }).data.token;
    const wsUrl = `${address.replace('http', 'ws')}/api/iot/v2/live?access_token=${token}`;
    const argv = ['--import', 'tsx', 'bench/intake-load.ts', '--mqtt', `mqtt://127.0.0.1:${link.port}`, '--devices', devicesFile, '--rate', String(RATE), '--duration', String(DURATION), '--ws', wsUrl, '--watch', 'alarms', '--alert-every', process.env.BENCH_ALARM_ALERT_EVERY ?? '20'];
    const { stdout } = await execFileAsync('node', argv, { encoding: 'utf8', maxBuffer: 1 << 26 });
    const res = JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
    if (res.failed) throw new Error(`${res.failed} reports were not acknowledged`);
    report(`alarm.${engine}.acked_rps`, (res.acked / res.ackedMs) * 1000, 'reports/s');
    report(`alarm.${engine}.publish_to_alarm_p50`, res.latency.p50, 'ms');
    report(`alarm.${engine}.publish_to_alarm_p99`, res.latency.p99, 'ms');
    report(`alarm.${engine}.alerting_reports_without_alarm_message`, res.latency.missing, 'reports');
    await app.readings.flushed();
    await app.alarmEngine.settled();
  } finally {
    await link.close();
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the monitoring page does for one watch window (runs in the page; passed as text, see SCROLL_THROUGH). */
const WATCH = (ms: number) => `(async () => {
  const frames = [];
  const longTasks = [];
  const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push(e.duration); });
  obs.observe({ type: 'longtask', buffered: false });
  const before = window.__liveStates;
  const start = performance.now();
  let last = start;
  await new Promise((resolve) => {
    const tick = (now) => {
      frames.push(now - last);
      last = now;
      if (now - start < ${ms}) requestAnimationFrame(tick);
      else resolve();
    };
    requestAnimationFrame(tick);
  });
  obs.disconnect();
  return { frames, longTasks, states: window.__liveStates - before, elapsed: performance.now() - start };
})()`;

/**
 * Real-time monitoring with 5,000 devices each reporting every 10 s (500 states a second, pushed
 * over the real WebSocket) in headless Chromium on the built app: time until the map and the
 * status counts show every device, then a 20 s watch at the country view, one with a device
 * selected (map focused on it, details panel open) and one with a page of 100 rows, each with the p99 frame interval, long tasks (main thread busy
 * over 50 ms) and how busy they kept the page.
 */
async function monitor() {
  const N = Number(process.env.BENCH_MONITOR_DEVICES ?? 5000);
  const WINDOW_MS = Number(process.env.BENCH_MONITOR_WINDOW_MS ?? 20_000);
  execSync('node scripts/ensure-web-build.mjs', { stdio: 'inherit' });
  const server = await startServer({ logLevel: 'error' });
  const db = server.app.database.db;
  const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
  const fleet: ReportingDevice[] = [];
  for (let i = 0; i < N; i += 1000) {
    const rows = await db
      .insert(devices)
      .values(Array.from({ length: Math.min(1000, N - i) }, (_, k) => ({ orgId: demo!.id, deviceId: `MON${String(i + k).padStart(6, '0')}`, name: `Truck ${i + k}`, secretHash: 'x' })))
      .returning({ id: devices.id, orgId: devices.orgId, deviceId: devices.deviceId });
    fleet.push(...rows);
  }
  // The simulator's models: trucks on real corridors, reefers drifting, doors opening at stops.
  const sims = fleet.map((d) => createDevice({ deviceId: d.deviceId, kind: 'vehicle' }));
  const reportOf = (i: number) => step(sims[i]!, Date.now());
  for (let i = 0; i < N; i++) await server.app.intake.ingest(fleet[i]!, [reportOf(i)], 'mqtt');

  const browser = await launchBrowser({ locale: 'en-US' });
  let feeding: NodeJS.Timeout | undefined;
  try {
    const { page } = browser;
    // Counts the states the page receives, to show the load reached it.
    await page.addInitScript(() => {
      const w = window as unknown as { __liveStates: number; WebSocket: typeof WebSocket };
      w.__liveStates = 0;
      const Native = w.WebSocket;
      w.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          this.addEventListener('message', (e: MessageEvent) => {
            const msg = JSON.parse(String(e.data)) as { type: string; data: unknown[] };
            if (msg.type === 'device-states') w.__liveStates += msg.data.length;
          });
        }
      };
    });
    await page.goto(`${server.url}/login`);
    await page.locator('#account').fill('admin');
    await page.locator('#password').fill(ADMIN_PASSWORD);
    await page.locator('#login-submit').click();
    await page.waitForURL((u) => u.pathname === '/view/deviceManage/realTimeMonitoring');
    const opened = Date.now();
    await page.goto(`${server.url}/view/deviceManage/realTimeMonitoring`);
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=monitor-tab-all-count]')?.textContent) >= n, N, { timeout: 60_000 });
    await page.locator('[data-testid=monitor-live][data-state=open]').waitFor({ timeout: 60_000 });
    await page.locator('.leaflet-marker-icon').first().waitFor({ timeout: 60_000 });
    report('monitor.map_and_counts_5k', Date.now() - opened, 'ms');

    // 500 reports a second: every device once in 10 s, in ticks of 100 ms.
    let next = 0;
    let feedingBusy = false;
    feeding = setInterval(() => {
      if (feedingBusy) return;
      feedingBusy = true;
      const batch: Promise<unknown>[] = [];
      for (let k = 0; k < N / 100; k++) {
        batch.push(server.app.intake.ingest(fleet[next]!, [reportOf(next)], 'mqtt'));
        next = (next + 1) % N;
      }
      void Promise.all(batch).finally(() => (feedingBusy = false));
    }, 100);

    const watch = async (label: string) => {
      const w = (await page.evaluate(WATCH(WINDOW_MS))) as { frames: number[]; longTasks: number[]; states: number; elapsed: number };
      const frames = [...w.frames].sort((a, b) => a - b);
      report(`monitor.${label}.frame_p99`, frames[Math.floor(frames.length * 0.99)]!, 'ms');
      report(`monitor.${label}.frame_max`, frames.at(-1)!, 'ms');
      report(`monitor.${label}.fps`, (w.frames.length / w.elapsed) * 1000, 'frames/s');
      report(`monitor.${label}.long_tasks_per_min`, (w.longTasks.length / w.elapsed) * 60_000, 'tasks');
      report(`monitor.${label}.longest_task`, Math.max(0, ...w.longTasks), 'ms');
      report(`monitor.${label}.main_thread_blocked`, (w.longTasks.reduce((a, b) => a + b, 0) / w.elapsed) * 100, '%');
      report(`monitor.${label}.states_received`, (w.states / w.elapsed) * 1000, 'states/s');
      if (w.states === 0) throw new Error('the page received no live states during the watch');
    };
    await watch('country');
    // One device selected: the map focuses on it, where clusters open into single markers that
    // move with each report, and its details panel follows it with the 24-hour curve.
    await page.locator('tr[data-row-key]').first().click();
    await page.locator('[data-testid=monitor-detail]').waitFor();
    await page.locator('[data-testid=map-marker]').first().waitFor();
    await watch('device_selected');
    // The spec's largest page: 100 rows following the devices.
    await page.goto(`${server.url}/view/deviceManage/realTimeMonitoring?size=100`);
    await page.locator('[data-testid=monitor-live][data-state=open]').waitFor({ timeout: 60_000 });
    await page.locator('tr[data-row-key]').nth(99).waitFor();
    await watch('table_100_rows');
  } finally {
    clearInterval(feeding);
    await browser.close();
    await server.close();
  }
}

/** The columns of one device's history, as a query would give them. */
interface TrackColumns {
  t: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  lbs: Uint8Array;
  speed: Float64Array;
}

/**
 * Fills the columns with 30 days of a delivery van reporting every 10 s, fixed by the seed: it
 * sleeps at its depot, leaves between 07:00 and 09:00 for 3 to 8 drops 1 to 30 km apart (5 to 60
 * minutes each) at 30 to 90 km/h with red lights of 30 to 90 s (one in 2 km or so), and drives back. GPS errors of
 * +-15 m parked and +-5 m driving, a 50 km jump every 5,000 reports, LBS stretches of 5 to 60
 * minutes and 30-minute data gaps, each about once in 20,000 reports. Returns the legs driven.
 */
function simulateVan(c: TrackColumns, seed: number, start = Date.parse('2026-11-01T00:00:00Z')): number {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const n = c.t.length;
  const STEP = 10;
  const depotLat = 22 + rand() * 10;
  const depotLon = 108 + rand() * 12;
  const mLat = 1 / 111_195;
  const mLon = 1 / (111_195 * Math.cos((depotLat * Math.PI) / 180));
  const DAY = 86_400;
  let now = 0; // seconds since start
  let x = 0; // metres east of the depot
  let y = 0; // metres north
  // Changed inside step(): typed wide so the checks below are not narrowed to the initial value.
  let mode = 'park' as 'park' | 'drive' | 'light';
  let until = 7 * 3600 + rand() * 7200;
  let drops = 3 + Math.floor(rand() * 6);
  let tx = 0;
  let ty = 0;
  let v = 0;
  let legs = 0;
  let lbsUntil = -1;
  // Red lights at least 3 minutes of driving apart: two close ones are 200 m of progress in 180 s,
  // which is a stop by definition.
  let sinceLight = 0;
  const step = () => {
    now += STEP;
    if (mode === 'drive') {
      if (sinceLight >= 18 && rand() < 1 / 12) {
        sinceLight = 0;
        mode = 'light';
        until = now + 30 + rand() * 60;
        return;
      }
      const dx = tx - x;
      const dy = ty - y;
      const left = Math.hypot(dx, dy);
      if (left <= v * STEP) {
        x = tx;
        y = ty;
        mode = 'park';
        if (tx === 0 && ty === 0) {
          const day = Math.floor(now / DAY) + 1;
          until = day * DAY + 7 * 3600 + rand() * 7200;
          drops = 3 + Math.floor(rand() * 6);
        } else {
          until = now + 300 + rand() * 3300;
          drops--;
        }
      } else {
        x += (dx / left) * v * STEP;
        y += (dy / left) * v * STEP;
        sinceLight++;
      }
    } else if (now >= until) {
      if (mode === 'light') {
        mode = 'drive';
        return;
      }
      if (drops > 0) {
        // The next drop: 1 to 30 km away, within 40 km of the depot.
        do {
          const r = 1000 + rand() * 29_000;
          const b = rand() * 2 * Math.PI;
          tx = x + r * Math.cos(b);
          ty = y + r * Math.sin(b);
        } while (Math.hypot(tx, ty) > 40_000);
      } else {
        tx = 0;
        ty = 0;
      }
      v = (30 + rand() * 60) / 3.6;
      mode = 'drive';
      legs++;
    }
  };
  for (let i = 0; i < n; i++) {
    step();
    if (rand() < 1 / 20_000) for (let k = 0; k < 180; k++) step(); // 30 minutes without a report
    if (lbsUntil < now && rand() < 1 / 20_000) lbsUntil = now + 300 + rand() * 3300;
    const lbs = now < lbsUntil;
    let ex = x;
    let ey = y;
    const noise = mode === 'drive' ? 5 : 15;
    if (lbs) {
      const r = 500 + rand() * 2500;
      const b = rand() * 2 * Math.PI;
      ex += r * Math.cos(b);
      ey += r * Math.sin(b);
    } else {
      ex += (rand() * 2 - 1) * noise;
      ey += (rand() * 2 - 1) * noise;
      if (rand() < 1 / 5000) ex += 50_000;
    }
    c.t[i] = start + now * 1000;
    c.lat[i] = depotLat + ey * mLat;
    c.lon[i] = depotLon + ex * mLon;
    c.lbs[i] = lbs ? 1 : 0;
    c.speed[i] = lbs ? NaN : mode === 'drive' ? v * 3.6 + (rand() * 4 - 2) : 0;
  }
  return legs;
}

/**
 * Trip and stop detection (packages/shared/src/trips.ts) over 100 devices x 30 days at one report
 * every 10 s: 259,200 reports each, 25.9 million in all, in the columns a query would give. Each
 * device's history is generated (not timed; see simulateVan) into the same typed arrays, then
 * detected (timed): the detection step alone. `trackFleet` below times it with the reading from
 * the database.
 */
async function track() {
  const DEVICES = Number(process.env.BENCH_TRACK_DEVICES ?? 100);
  const DAYS = 30;
  const n = (DAYS * 86_400) / 10;
  const cols: TrackColumns = { t: new Float64Array(n), lat: new Float64Array(n), lon: new Float64Array(n), lbs: new Uint8Array(n), speed: new Float64Array(n) };
  let ms = 0;
  let legs = 0;
  let trips = 0;
  let stops = 0;
  let ignored = 0;
  for (let d = 0; d < DEVICES; d++) {
    legs += simulateVan(cols, d + 1);
    const started = performance.now();
    const r = detectTrips(cols);
    ms += performance.now() - started;
    trips += r.trips.length;
    stops += r.stops.length;
    ignored += r.ignored.length;
  }
  report(`track.trip_detection_${DEVICES}_devices_${DAYS}_days`, ms, 'ms');
  report('track.points_per_s', Math.round((DEVICES * n) / (ms / 1000)), 'points/s');
  report('track.legs_driven', legs, 'legs');
  report('track.trips_found', trips, 'trips');
  report('track.stops_found', stops, 'stops');
  report('track.jumps_ignored', ignored, 'points');
  // A check, not a figure: an LBS stretch or a gap may hide a short stop, nothing more should differ.
  if (Math.abs(trips / legs - 1) > 0.02) throw new Error(`found ${trips} trips for ${legs} legs driven`);
  await trackFleet();
  await trackQuery();
}

/**
 * Trip and stop detection from the database: 100 devices (10 on PGlite; BENCH_TRACK_DB_DEVICES)
 * x 30 days at one report every 10 s (simulateVan), stored in `telemetry` a day at a time for all
 * devices together, as the intake leaves them, with raw and decoded JSON of a real report's size
 * (loading not timed). Then the position archive's job packs the closed days (timed: what it costs
 * once per day in service), and each device's month is read (packs, and rows for what is not
 * packed) and detected, two devices at a time on PostgreSQL (timed: the figure). For
 * comparison, the same for a few devices read from the rows alone.
 */
async function trackFleet() {
  // The archive's job runs when the bench says, not on its own beside the loading.
  const { app, engine, close } = await benchApp({ ARCHIVE_SECONDS: '0' });
  const DEVICES = Number(process.env.BENCH_TRACK_DB_DEVICES ?? (engine === 'postgres' ? 100 : 10));
  const DAYS = 30;
  const n = (DAYS * 86_400) / 10;
  try {
    const db = app.database.db;
    const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    const start = Math.floor(Date.now() / 86_400_000) * 86_400_000 - (DAYS + 2) * 86_400_000;
    const fleet: { ref: string; cols: TrackColumns }[] = [];
    let legs = 0;
    for (let d = 0; d < DEVICES; d++) {
      const [dev] = await db.insert(devices).values({ orgId: demo!.id, deviceId: `BENCH-FLEET-${d}`, name: `bench van ${d}`, secretHash: hashSecret('bench-fleet-secret') }).returning();
      const cols: TrackColumns = { t: new Float64Array(n), lat: new Float64Array(n), lon: new Float64Array(n), lbs: new Uint8Array(n), speed: new Float64Array(n) };
      legs += simulateVan(cols, d + 1, start);
      fleet.push({ ref: dev!.id, cols });
    }
    const loadStarted = performance.now();
    const end = Math.max(...fleet.map((f) => f.cols.t[n - 1]!)) + 1;
    const cursor = fleet.map(() => 0);
    for (let dayEnd = start + 86_400_000; cursor.some((c) => c < n); dayEnd += 86_400_000) {
      const ref: string[] = [];
      const t: string[] = [];
      const lat: number[] = [];
      const lon: number[] = [];
      const lbs: boolean[] = [];
      const speed: (number | null)[] = [];
      fleet.forEach((f, k) => {
        let i = cursor[k]!;
        for (; i < n && f.cols.t[i]! < dayEnd; i++) {
          ref.push(f.ref);
          t.push(new Date(f.cols.t[i]!).toISOString());
          lat.push(f.cols.lat[i]!);
          lon.push(f.cols.lon[i]!);
          lbs.push(f.cols.lbs[i] === 1);
          speed.push(Number.isNaN(f.cols.speed[i]!) ? null : Math.round(f.cols.speed[i]! * 10) / 10);
        }
        cursor[k] = i;
      });
      for (let from = 0; from < ref.length; from += 200_000) {
        // Each column as one array literal (one parameter, not one per element).
        const sl = <T,>(a: T[]) => `{${a.slice(from, from + 200_000).map((v) => (v === null ? 'NULL' : v === true ? 't' : v === false ? 'f' : v)).join(',')}}`;
        await db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
          select ${demo!.id}::uuid, r, tm, la, lo, case when l then 'LBS' else 'GPS' end, sp,
            jsonb_build_object('imei', '8601000' || left(r::text, 8), 'ts', extract(epoch from tm)::bigint, 'lat', la, 'lng', lo, 'spd', sp, 'bat', 87, 'csq', 23, 'temp', 4.5, 'hum', 61),
            jsonb_build_object('temperature', 4.5, 'humidity', 61, 'battery', 87, 'door', 'closed')
          from unnest(${sl(ref)}::uuid[], ${sl(t)}::timestamptz[], ${sl(lat)}::float8[], ${sl(lon)}::float8[], ${sl(lbs)}::bool[], ${sl(speed)}::float8[]) as x(r, tm, la, lo, l, sp)
          order by tm`);
      }
    }
    await db.execute(sql`vacuum analyze telemetry`);
    report(`track.${engine}.fleet_load_${DEVICES}_devices`, Math.round(performance.now() - loadStarted), 'ms');

    const range = { from: start, to: end };
    /** Reads and detects each device's month, `parallel` devices at a time; answers ms, trips, stops. */
    const detectAll = async (refs: string[], read: (ref: string) => Promise<TrackColumns>, parallel: number) => {
      let trips = 0;
      let stops = 0;
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          while (next < refs.length) {
            const ref = refs[next++]!;
            const r = detectTrips(await read(ref));
            trips += r.trips.length;
            stops += r.stops.length;
          }
        }),
      );
      return { ms: performance.now() - started, trips, stops };
    };
    const parallel = engine === 'postgres' ? 2 : 1;
    const refs = fleet.map((f) => f.ref);
    const sample = refs.slice(0, Math.min(5, refs.length));
    const rowsOnly = await detectAll(sample, async (ref) => fixesOf(await readRows(db, ref, range, { sensors: false })), parallel);
    report(`track.${engine}.trip_detection_from_rows_per_device`, Math.round(rowsOnly.ms / sample.length), 'ms');

    const packStarted = performance.now();
    let packedDays = 0;
    let fixes = 0;
    for (;;) {
      const r = await archiveTick(db, { limit: 1_000_000 });
      packedDays += r.packed;
      fixes += r.readings;
      if (r.caughtUp) break;
    }
    const packMs = performance.now() - packStarted;
    report(`track.${engine}.archive_pack_device_days`, packedDays, 'device-days');
    report(`track.${engine}.archive_pack_time`, Math.round(packMs), 'ms');
    report(`track.${engine}.archive_pack_rate`, Math.round(fixes / (packMs / 1000)), 'readings/s');

    const runs: { ms: number; trips: number; stops: number }[] = [];
    for (let k = 0; k < 3; k++) runs.push(await detectAll(refs, async (ref) => (await readFixes(db, ref, range.from, range.to)).fixes, parallel));
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
    report(`track.${engine}.trip_detection_db_${DEVICES}_devices_${DAYS}_days_first`, Math.round(runs[0]!.ms), 'ms');
    report(`track.${engine}.trip_detection_db_${DEVICES}_devices_${DAYS}_days_median`, Math.round(ms[1]!), 'ms');
    report(`track.${engine}.trip_detection_db_trips_found`, runs[0]!.trips, 'trips');
    report(`track.${engine}.trip_detection_db_legs_driven`, legs, 'legs');
    report(`track.${engine}.trip_detection_db_stops_found`, runs[0]!.stops, 'stops');
    if (Math.abs(runs[0]!.trips / legs - 1) > 0.02) throw new Error(`found ${runs[0]!.trips} trips for ${legs} legs driven`);
  } finally {
    await close();
  }
}

/**
 * The history track query of one device over 30 days at one reading per second (2.6 million
 * readings, BENCH_TRACK_POINTS to change): time to the first drawable (simplified) track through
 * the API, a zoomed window in full detail, and the summary (trips, stops, statistics).
 */
async function trackQuery() {
  const POINTS = Number(process.env.BENCH_TRACK_POINTS ?? 30 * 86_400);
  const { app, engine, close } = await benchApp();
  try {
    const db = app.database.db;
    const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    const [dev] = await db.insert(devices).values({ orgId: demo!.id, deviceId: 'BENCH-TRACK-1', name: 'bench track', secretHash: hashSecret('bench-track-secret') }).returning();
    const start = Date.parse('2026-10-01T00:00:00Z');
    const loadStarted = performance.now();
    // A van driving loops of a few tens of kilometres from 06:00 to midnight and parked from
    // midnight to 06:00 (k: seconds driven so far), temperatures wandering.
    for (let from = 0; from < POINTS; from += 250_000) {
      const to = Math.min(POINTS, from + 250_000) - 1;
      await db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
        select ${demo!.id}::uuid, ${dev!.id}::uuid, ${new Date(start).toISOString()}::timestamptz + i * interval '1 second',
          31.2 + 0.2 * sin(k / 3600.0), 121.4 + 0.2 * cos(k / 5400.0), 'GPS', case when i % 86400 < 21600 then 0 else 20 end,
          '{}'::jsonb, jsonb_build_object('temperature', round((4 + 2 * sin(i / 7200.0))::numeric, 1), 'humidity', 60)
        from generate_series(${from}::int, ${to}::int) as g(i)
        cross join lateral (select (i / 86400) * 64800 + greatest(0, i % 86400 - 21600) as k) d`);
    }
    await db.execute(sql`analyze telemetry`);
    report(`track.${engine}.load_${POINTS}_readings`, Math.round(performance.now() - loadStarted), 'ms');
    await addOrgUser(db, { orgId: demo!.id, account: 'bench-track', password: app.seedResult.demo!.password, roleCodes: ['org_admin'] });
    const login = await app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'bench-track', password: app.seedResult.demo!.password }) });
    const token = (login.json() as { data: { token: string } }).data.token;
    const end = start + POINTS * 1000;
    const get = async (path: string) => {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url: path, headers: { access_token: token } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${res.body}`);
      return { ms, data: (res.json() as { data: { points?: { t: number[] }; simplified?: boolean; stats?: { stopCount: number } } }).data };
    };
    const whole = `/api/iot/v2/tracks?deviceId=${dev!.id}&from=${new Date(start).toISOString()}&to=${new Date(end).toISOString()}&maxPoints=5000`;
    const first = await get(whole);
    if (!first.data.simplified || (first.data.points?.t.length ?? 0) < 4000) throw new Error('the whole month did not come back simplified');
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) runs.push((await get(whole)).ms);
    runs.sort((a, b) => a - b);
    report(`track.${engine}.first_drawable_cold`, Math.round(first.ms), 'ms');
    report(`track.${engine}.first_drawable_median`, Math.round(runs[2]!), 'ms');
    report(`track.${engine}.first_drawable_points`, first.data.points!.t.length, 'points');
    const windowFrom = start + 15 * 86_400_000 + 10 * 3600_000;
    const zoom = await get(`/api/iot/v2/tracks?deviceId=${dev!.id}&from=${new Date(windowFrom).toISOString()}&to=${new Date(windowFrom + 3600_000).toISOString()}&maxPoints=5000`);
    if (zoom.data.simplified) throw new Error('an hour window came back simplified');
    report(`track.${engine}.zoom_1h_full_detail`, Math.round(zoom.ms), 'ms');
    const summary = await get(whole.replace('/tracks?', '/tracks/summary?'));
    report(`track.${engine}.summary_30_days`, Math.round(summary.ms), 'ms');
    report(`track.${engine}.summary_stops`, summary.data.stats!.stopCount, 'stops');
  } finally {
    await close();
  }
}

/**
 * The ledger (issue 9). Appending: 100,000 device-minutes of stored readings (100 devices x 1,000
 * minutes, one reading each) logged through the feeder's own path (ledger.tick(): read the rows,
 * encode, hash, one transaction per batch with the leaves and every completed subtree).
 * Then the command-line verifier's whole check of that log (verify-ledger, in-process).
 * Proofs: a tree of 10,000,000 leaves (LEDGER_BENCH_TREE) built in SQL: leaf hashes
 * SHA-256(0x00 || int8(i)) and each level's RFC 6962 node hashes from the level below (20 million
 * node rows; 50-80 s on this machine), so the proofs are real; only one placeholder leaf row (the
 * last index) is stored, which is all the proof functions read besides the nodes. Then p50 of
 * 200 random inclusion and consistency proofs through the service and through the API (each
 * first few verified against the root), and the proofs' sizes.
 */
async function ledger() {
  const { app, engine, close } = await benchApp();
  try {
    const db = app.database.db;
    const [demoOrg] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    const orgId = demoOrg!.id;
    const DEVICES = 100;
    const MINUTES = Number(process.env.LEDGER_BENCH_MINUTES ?? 1000);
    // The seeded organisation's own events first, so that only the readings are timed.
    while ((await app.ledger.tick()) > 0);
    await db.execute(sql`insert into devices (org_id, device_id, name, secret_hash)
      select ${orgId}, 'LB' || lpad(g::text, 8, '0'), 'Ledger bench ' || g, 'x' from generate_series(1, ${DEVICES}) g`);
    const start = Math.floor(Date.now() / 60_000) * 60_000 - (MINUTES + 5) * 60_000;
    await db.execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, speed, raw, sensors)
      select ${orgId}, d.id, t, t, 31.2, 121.5, 40, '{}'::jsonb, jsonb_build_object('temperature', -18 - (m % 7) / 10.0, 'humidity', 50 + m % 9)
      from devices d, generate_series(0, ${MINUTES - 1}) m, lateral (select ${new Date(start).toISOString()}::timestamptz + make_interval(mins => m, secs => 17) as t) x
      where d.device_id like 'LB%'`);
    const before = Number(rowsOfAny(await db.execute(sql`select count(*)::text as n from ledger_leaves`))[0]!.n);
    await db.execute(sql`update ledger_watermarks set value = ${JSON.stringify({ minute: new Date(start).toISOString(), deviceRef: '00000000-0000-0000-0000-000000000000' })} where source = 'sensor'`);
    let t0 = performance.now();
    let appended = 0;
    for (;;) {
      const n = await app.ledger.tick();
      if (n === 0) break;
      appended += n;
    }
    const appendS = (performance.now() - t0) / 1000;
    if (appended !== DEVICES * MINUTES) throw new Error(`appended ${appended} leaves, expected ${DEVICES * MINUTES} (had ${before})`);
    report(`ledger.${engine}.append_leaves`, appended, 'leaves');
    report(`ledger.${engine}.append_rate`, Math.round(appended / appendS), 'leaves/s');
    t0 = performance.now();
    await app.ledger.checkpoint();
    report(`ledger.${engine}.sign_checkpoint`, Math.round(performance.now() - t0), 'ms');
    // The command-line verifier's whole check of that log (in-process, on the same database).
    const keyDir = mkdtempSync(join(tmpdir(), 'iotc-bench-ledger-'));
    try {
      writeFileSync(join(keyDir, 'verifier.key'), `${(await app.ledger.publicKey()).verifierKey}\n`);
      t0 = performance.now();
      const audit = await verifyLedger({ db, keyFile: join(keyDir, 'verifier.key'), headsFile: join(keyDir, 'heads.txt'), save: false, env: {} });
      if (!audit.ok) throw new Error(`the verifier failed: ${JSON.stringify(audit.checks.filter((c) => !c.ok))}`);
      report(`ledger.${engine}.verify_rate`, Math.round(audit.leaves / ((performance.now() - t0) / 1000)), 'leaves/s');
    } finally {
      rmSync(keyDir, { recursive: true, force: true });
    }

    // A fresh tree of N leaves for the proofs.
    const N = Number(process.env.LEDGER_BENCH_TREE ?? 10_000_000);
    const label = N >= 1_000_000 && N % 1_000_000 === 0 ? `${N / 1_000_000}m` : String(N);
    await db.execute(sql`truncate ledger_leaves, ledger_nodes, ledger_checkpoints`);
    t0 = performance.now();
    const CHUNK = 2_000_000;
    for (let from = 0; from < N; from += CHUNK) {
      await db.execute(sql`insert into ledger_nodes (level, idx, hash)
        select 0, g, sha256(decode('00', 'hex') || int8send(g)) from generate_series(${from}::bigint, ${Math.min(N, from + CHUNK) - 1}::bigint) g`);
    }
    for (let level = 0, width = N; width > 1; level++, width = Math.floor(width / 2)) {
      await db.execute(sql`insert into ledger_nodes (level, idx, hash)
        select ${level + 1}, idx / 2, sha256(decode('01', 'hex') || hash || nxt)
        from (select idx, hash, lead(hash) over (order by idx) as nxt from ledger_nodes where level = ${level}) s
        where idx % 2 = 0 and nxt is not null`);
    }
    await db.execute(sql`insert into ledger_leaves (idx, org_id, kind, ref, data, leaf_hash, at)
      select ${N - 1}, ${orgId}, 'custody', 'bench:last', decode('7b7d', 'hex'), hash, now() from ledger_nodes where level = 0 and idx = ${N - 1}`);
    await db.execute(sql`analyze ledger_nodes`);
    report(`ledger.${engine}.build_tree_${label}`, Math.round((performance.now() - t0) / 1000), 's');
    const nodeRows = Number(rowsOfAny(await db.execute(sql`select count(*)::text as n from ledger_nodes`))[0]!.n);
    report(`ledger.${engine}.stored_nodes_${label}`, nodeRows, 'rows');

    const root = rootFromReader(N, await readLedgerNodes(db, rangeNodes(0, N)));
    const rand = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo));
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const RUNS = 200;
    const inc: number[] = [];
    const con: number[] = [];
    const incApi: number[] = [];
    const conApi: number[] = [];
    let incHashes = 0;
    let conHashes = 0;
    let incJson = 0;
    let conJson = 0;
    for (let i = 0; i < RUNS; i++) {
      const index = rand(0, N);
      let t = performance.now();
      const p = await app.ledger.inclusion(index, N);
      inc.push(performance.now() - t);
      if (i < 5 && !verifyInclusion(index, N, fromBase64(p.leafHash), p.proof.map(fromBase64), root)) throw new Error(`inclusion proof of ${index} does not verify`);
      incHashes = Math.max(incHashes, p.proof.length);
      const m = rand(1, N);
      t = performance.now();
      const c = await app.ledger.consistency(m, N);
      con.push(performance.now() - t);
      if (i < 5) {
        const oldRoot = rootFromReader(m, await readLedgerNodes(db, rangeNodes(0, m)));
        if (!verifyConsistency(m, N, oldRoot, root, c.proof.map(fromBase64))) throw new Error(`consistency proof ${m} -> ${N} does not verify`);
      }
      conHashes = Math.max(conHashes, c.proof.length);
      t = performance.now();
      const a = await app.inject({ method: 'GET', url: `/api/iot/v2/ledger/proof/inclusion?index=${index}&size=${N}` });
      incApi.push(performance.now() - t);
      incJson = Math.max(incJson, a.rawPayload.length);
      t = performance.now();
      const b = await app.inject({ method: 'GET', url: `/api/iot/v2/ledger/proof/consistency?from=${m}&to=${N}` });
      conApi.push(performance.now() - t);
      conJson = Math.max(conJson, b.rawPayload.length);
      if (a.statusCode !== 200 || b.statusCode !== 200) throw new Error(`proof API answered ${a.statusCode} / ${b.statusCode}`);
    }
    report(`ledger.${engine}.inclusion_proof_p50_${label}`, p50(inc), 'ms');
    report(`ledger.${engine}.consistency_proof_p50_${label}`, p50(con), 'ms');
    report(`ledger.${engine}.inclusion_api_p50_${label}`, p50(incApi), 'ms');
    report(`ledger.${engine}.consistency_api_p50_${label}`, p50(conApi), 'ms');
    report(`ledger.${engine}.inclusion_proof_hashes_${label}`, incHashes, 'hashes');
    report(`ledger.${engine}.inclusion_proof_bytes_${label}`, incHashes * 32, 'bytes');
    report(`ledger.${engine}.inclusion_api_json_${label}`, incJson, 'bytes');
    report(`ledger.${engine}.consistency_proof_hashes_${label}`, conHashes, 'hashes');
    report(`ledger.${engine}.consistency_proof_bytes_${label}`, conHashes * 32, 'bytes');
    report(`ledger.${engine}.consistency_api_json_${label}`, conJson, 'bytes');
  } finally {
    await close();
  }
}

const rowsOfAny = <T = { n: string }>(r: unknown) => (r as { rows: T[] }).rows;

interface LoadResult {
  sent: number;
  acked: number;
  failed: number;
  elapsedMs: number;
  /** From the first publish to the last acknowledgement. */
  ackedMs: number;
  latency: { p50: number; p99: number; missing: number };
}

/**
 * Storage (issue 24): BENCH_STORAGE_DEVICES devices (100 on PostgreSQL, 10 on PGlite) x 30 days at
 * one report every 10 s, each a simulated reefer van's real JSON report (position, sensor blocks)
 * stored through the intake pipeline (decoded, raw and decoded kept; loading not timed). Figures:
 * bytes per reading as rows (the partitions' tables and indexes) and as packs (the values, and
 * `reading_days` with its index and TOAST), the packing rate, one device's month of curves and
 * track summary read through the API from rows and then from packs, and dropping the oldest
 * month's partition with its rows.
 */
/**
 * A batch the intake refuses because the database did not answer in time (a busy machine during
 * a loading of hours: the availability check counts it down) is sent again, as a device whose
 * report was not acknowledged does; a re-sent reading is stored once. Anything else fails the
 * bench, and so does a database that stays unavailable for ten minutes.
 */
async function ingestUntilStored(send: () => Promise<unknown>): Promise<void> {
  const until = Date.now() + 600_000;
  for (;;) {
    try {
      await send();
      return;
    } catch (error) {
      if (!(error instanceof UnavailableError) || Date.now() > until) throw error;
      console.log(`storage: the intake refused a batch (${error.reason}); sending it again`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function storage() {
  const { app, engine, close } = await benchApp({ ARCHIVE_SECONDS: '0' });
  const DEVICES = Number(process.env.BENCH_STORAGE_DEVICES ?? (engine === 'postgres' ? 100 : 10));
  const DAYS = Number(process.env.BENCH_STORAGE_DAYS ?? 30);
  const STEP = 10_000;
  try {
    const db = app.database.db;
    const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
    const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    const start = today - DAYS * 86_400_000;
    const fleet: ReportingDevice[] = [];
    for (let d = 0; d < DEVICES; d++) {
      const [dev] = await db.insert(devices).values({ orgId: demo!.id, deviceId: `BENCH-STORE-${d}`, name: `bench reefer ${d}`, secretHash: hashSecret('bench-store-secret') }).returning();
      fleet.push({ id: dev!.id, orgId: demo!.id, deviceId: dev!.deviceId });
    }
    // An installation that has run for the month has its partitions: the server creates each
    // month's ahead of it. The back-filled months get theirs before loading, as they would have
    // (else their rows sit in the default partition and "dropping" a month is deleting rows).
    for (let month = monthOf(new Date(start)); month < monthOf(new Date(today)); month = addMonths(month, 1)) await createMonth(db, month);
    const loadStarted = performance.now();
    const sims = fleet.map((f, k) => createDevice({ deviceId: f.deviceId, seed: 1000 + k, kind: 'vehicle' }));
    // What was stored, counted as it is sent (each reading is stored once, a re-sent batch too):
    // counting 25.9 million rows afterwards outlasts the pool's statement timeout, and the packs'
    // total checks the figure below. The days are whole UTC days, so a month starts on one.
    const thisMonth = Date.parse(`${new Date(today).toISOString().slice(0, 7)}-01T00:00:00Z`);
    let readings = 0;
    let readingsBeforeThisMonth = 0;
    // A day at a time for all devices together, as the intake leaves them.
    for (let day = start; day < today; day += 86_400_000) {
      await Promise.all(
        fleet.map(async (f, k) => {
          const reports: ReturnType<typeof step>[] = [];
          for (let t = day; t < day + 86_400_000; t += STEP) reports.push(step(sims[k]!, t));
          readings += reports.length;
          if (day < thisMonth) readingsBeforeThisMonth += reports.length;
          for (let i = 0; i < reports.length; i += 500) await ingestUntilStored(() => app.intake.ingest(f, reports.slice(i, i + 500), 'mqtt'));
        }),
      );
    }
    await app.readings.flushed();
    // The planner's statistics for the queries below. Not VACUUM: over 20 GB of rows it outlasted
    // the pool's statement timeout after two hours of loading (and the sizes do not need it).
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local statement_timeout = 0`);
      await tx.execute(sql`analyze telemetry`);
    });
    report(`storage.${engine}.load_${DEVICES}_devices_${DAYS}_days`, Math.round(performance.now() - loadStarted), 'ms');
    report(`storage.${engine}.readings`, readings, 'readings');
    const rowBytes = Number(
      rowsOf<{ b: string }>(await db.execute(sql`select coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) as b from pg_inherits i where i.inhparent = 'telemetry'::regclass`))[0]!.b,
    );
    report(`storage.${engine}.row_bytes_per_reading`, rowBytes / readings, 'bytes');

    const packStarted = performance.now();
    let packed = 0;
    for (;;) {
      const r = await archiveTick(db, { limit: 1_000_000 });
      packed += r.readings;
      if (r.caughtUp) break;
    }
    const packMs = performance.now() - packStarted;
    // Nothing else stores while the bench runs: every pack holds all its day's rows, however
    // recently they were received (the job leaves a minute's overlap for a live intake).
    await db.execute(sql`update reading_days set packed_at = now()`);
    report(`storage.${engine}.pack_rate`, Math.round(packed / (packMs / 1000)), 'readings/s');
    const [sizes] = rowsOf<{ data: string; raw: string; n: string; total: string }>(
      await db.execute(sql`select sum(octet_length(data)) as data, sum(octet_length(raw)) as raw, sum(readings) as n, pg_total_relation_size('reading_days') as total from reading_days`),
    );
    if (Number(sizes!.n) !== readings) throw new Error(`the packs hold ${sizes!.n} readings; ${readings} were stored`);
    report(`storage.${engine}.pack_bytes_per_reading`, (Number(sizes!.data) + Number(sizes!.raw)) / Number(sizes!.n), 'bytes');
    report(`storage.${engine}.pack_raw_bytes_per_reading`, Number(sizes!.raw) / Number(sizes!.n), 'bytes');
    report(`storage.${engine}.pack_table_bytes_per_reading`, Number(sizes!.total) / Number(sizes!.n), 'bytes');
    report(`storage.${engine}.rows_to_packs_ratio`, rowBytes / Number(sizes!.total), 'x');

    await addOrgUser(db, { orgId: demo!.id, account: 'bench-store', password: app.seedResult.demo!.password, roleCodes: ['org_admin'] });
    const login = await app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'bench-store', password: app.seedResult.demo!.password }) });
    const token = (login.json() as { data: { token: string } }).data.token;
    const timed = async (url: string) => {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: { access_token: token } });
        runs.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      }
      return runs.sort((a, b) => a - b)[1]!;
    };
    const dev = fleet[0]!.id;
    const from = new Date(start).toISOString();
    const to = new Date(today).toISOString();
    const curves = `/api/iot/v2/telemetry/series?device=${dev}&from=${from}&to=${new Date(today - 1).toISOString()}&maxPoints=2000`;
    const summary = `/api/iot/v2/tracks/summary?deviceId=${dev}&from=${from}&to=${to}`;
    // From rows: the packs out of the way for a moment.
    await db.execute(sql`alter table reading_days rename to reading_days_aside`);
    await db.execute(sql`create table reading_days (like reading_days_aside including all)`);
    report(`storage.${engine}.month_curves_from_rows`, Math.round(await timed(curves)), 'ms');
    report(`storage.${engine}.month_summary_from_rows`, Math.round(await timed(summary)), 'ms');
    await db.execute(sql`drop table reading_days`);
    await db.execute(sql`alter table reading_days_aside rename to reading_days`);
    // From the packs (a fresh pack is read alone: its day's rows are not looked at).
    report(`storage.${engine}.month_curves_from_packs`, Math.round(await timed(curves)), 'ms');
    report(`storage.${engine}.month_summary_from_packs`, Math.round(await timed(summary)), 'ms');

    // Dropping the oldest month's partition with its rows (every one of them is in a pack).
    const month = new Date(start).toISOString().slice(0, 7);
    if (month < new Date(today).toISOString().slice(0, 7)) {
      const t0 = performance.now();
      const dropped = await dropMonth(db, month);
      report(`storage.${engine}.drop_month_partition_${readingsBeforeThisMonth}_rows`, Math.round(performance.now() - t0), 'ms');
      // Whether the month had a partition of its own (dropped) or its rows sat in the default one (deleted).
      console.log(`storage: ${month} ${dropped.dropped ? 'partition dropped' : 'had no partition'}, ${dropped.deletedFromDefault} rows deleted from the default partition`);
    } else console.log(`storage: the readings start in this month (${month}); no closed month to drop`);
  } finally {
    await close();
  }
}

const areas: Record<string, () => Promise<void>> = { auth, list, table, intake, jt808, alarm, monitor, track, storage, ledger, soak, web: () => web(report) };
if (only && !areas[only]) {
  console.error(`unknown bench area "${only}"; areas: ${Object.keys(areas).join(', ')}`);
  process.exit(2);
}
for (const [name, fn] of Object.entries(areas)) {
  if (!only || only === name) await fn();
}

// Process entry: reads the environment, builds the app, listens, starts the device link and
// housekeeping, prints where to sign in, and shuts down cleanly on SIGTERM / SIGINT.
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { ConfigError, loadConfig, type AppConfig } from './config.ts';
import { buildApp } from './app.ts';
import { DataDirInUseError } from './db/data-lock.ts';
import { adminBannerLine } from './ops/admin-banner.ts';
import { EMBEDDED_MQTT_VERSIONS, startMqtt } from './ingest/mqtt.ts';
import { startJt808Gateway } from './modules/jt808/gateway.ts';
import { jt808Repo } from './modules/jt808/repo.ts';
import { jt808FrameLog } from './modules/jt808/frame-log.ts';
import { jt808Service } from './modules/jt808/service.ts';
import { DEMO_HISTORY_HOURS, demoDevices, rekey, seedDemoFleet } from './demo/seed-demo.ts';
import { seedDemoTransport } from './demo/seed-demo-transport.ts';
import { seedDemoWarehouse } from './demo/seed-demo-warehouse.ts';
import { startDemoSimulation, storeBackfill } from './sim/demo.ts';
import { takeSnapshot } from './modules/storage/job.ts';
import type { Simulator } from './sim/publisher.ts';

let config: AppConfig;
try {
  config = loadConfig(process.env);
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}
config.webDist = join(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp(config);
} catch (e) {
  // Another server (or a backup) has this DATA_DIR's embedded database open: two processes would corrupt it.
  if (e instanceof DataDirInUseError) {
    console.error(
      `Cannot start: ${e.message}. One process at a time opens an embedded database: stop that one, give this server another DATA_DIR, ` +
        'or run several servers on PostgreSQL (DATABASE_URL).',
    );
    process.exit(1);
  }
  throw e;
}
const address = await app.listen({ port: config.port, host: config.host });
const link = await startMqtt({
  url: config.mqttUrl,
  port: config.mqttPort,
  host: config.host,
  log: app.log,
  authenticate: app.intake.authenticate,
  authFailures: app.intake.authFailures,
  sink: app.intake,
  commandAcks: app.commands.onAck,
  // With an external broker this process is one node of possibly several (see README, "Several nodes").
  node: { id: config.nodeId, shareGroup: config.mqttShareGroup },
});
// Readiness: a node whose device link is down takes no reports (the embedded broker is not
// listening, or the external broker is not connected).
app.health.addCheck('mqtt', () => {
  if (!link.connected()) throw new Error(link.mode === 'embedded' ? 'the embedded MQTT broker is not listening' : 'not connected to the MQTT broker');
});
// JT/T 808 terminals over TCP, on every node (README, "Several nodes"): into the same intake pipeline.
const jt808Frames = jt808FrameLog({ db: app.database.db, log: app.log });
const jt808 = await startJt808Gateway({
  port: config.jt808Port,
  host: config.host,
  log: app.log,
  intake: app.intake,
  service: jt808Service(jt808Repo(app.database.db), { nodeId: config.nodeId }),
  commands: app.jt808Commands,
  frames: jt808Frames,
  items: app.jt808Models,
  confirmations: app.jt808Confirmations,
});
app.health.addCheck('jt808', () => {
  if (!jt808.listening()) throw new Error('the JT/T 808 listener is not listening');
});
// Approved remote-control commands go out over this link from now on.
const detachCommands = app.commands.attach(link);

/**
 * The demo organisation comes alive: its fleet is put in on a fresh database with the past day
 * of readings, then the simulator reports for its devices over the real MQTT path, and for its
 * JT/T 808 trucks over TCP to this node's gateway.
 */
async function startDemo(): Promise<Simulator | undefined> {
  if (!config.seedDemo || !config.demoSimulator) return undefined;
  const fresh = await seedDemoFleet(app.database.db);
  const fleet = await demoDevices(app.database.db);
  if (fleet.length === 0) return undefined;
  if (fresh) {
    // Tasks first: the recogniser starts and ends them from the past day's readings stored next.
    await seedDemoTransport(app.database.db, { tasks: app.transportTasks, templates: app.transportTemplates }, fleet);
    // A JT/T 808 truck's past day as its gateway would have stored it, through its model's item mapping.
    await storeBackfill(fleet, { intake: app.intake, items: app.jt808Models }, { hours: DEMO_HISTORY_HOURS, stepMs: 120_000, now: Date.now() });
    // The past week's warehouse records, read against the readings just stored.
    await app.readings.flushed();
    await seedDemoWarehouse(app.database.db);
    // The storage figures of the start were taken before this past day was stored: again now.
    if (config.storageMs > 0) await takeSnapshot(app.database.db, { lease: app.lease });
  }
  const secrets = await rekey(app.database.db, fleet.map((d) => d.id));
  const mqttUrl = link.mode === 'embedded' ? `mqtt://127.0.0.1:${link.port}` : config.mqttUrl!;
  const gatewayHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return startDemoSimulation({
    mqttUrl,
    jt808: { host: gatewayHost, port: jt808.port },
    devices: fleet.map((d) => ({ deviceId: d.deviceId, secret: secrets.get(d.id)!, kind: d.kind, profile: d.profile, protocol: d.protocol, plate: d.plate, model: d.model })),
    log: app.log,
  });
}
// In the background: the console is usable while the past day is being stored.
const demo = startDemo().catch((err: unknown) => {
  app.log.error({ err }, 'the demo simulator could not start');
  return undefined;
});

// Expired sessions, captchas, codes, sign-in flows and old intake log rows go every hour.
app.job('housekeeping', { everyMs: 3_600_000 }, async () => {
  await Promise.all([app.authService.purge(), app.captchaService.purge(), app.accountService.purge(), app.ssoService.purge(), app.intake.purge()]);
});

const port = new URL(address).port;
const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const s = app.seedResult;
const lines = [
  '',
  `IoT Cloud Console is running at http://${host}:${port}`,
  `  Database: ${app.database.kind === 'pglite' ? `PGlite under ${join(config.dataDir, 'pglite')}` : 'PostgreSQL (DATABASE_URL)'}`,
  `  MQTT: ${link.mode === 'embedded' ? `embedded broker on mqtt://${host}:${link.port} (${EMBEDDED_MQTT_VERSIONS})` : 'external broker (MQTT_URL)'}`,
  `  JT/T 808: TCP on port ${jt808.port}`,
  `  Mail: ${app.messenger.transports.email === 'smtp' ? 'SMTP (SMTP_URL)' : 'the outbox table (set SMTP_URL to send)'}; SMS: ${
    app.messenger.transports.sms === 'gateway' ? 'HTTP gateway (SMS_GATEWAY_URL)' : 'the outbox table'
  }`,
];
if (s.demo && config.demoSimulator) lines.push('  Demo devices: simulated, reporting every 10 s over MQTT and, for two trucks, over JT/T 808 (DEMO_SIMULATOR=false turns this off)');
if (s.demo) {
  lines.push(
    s.demo.passwordValid
      ? `  Demo sign-in: ${s.demo.account} / ${s.demo.password}`
      : `  Demo sign-in: ${s.demo.account} (its password has been changed)`,
  );
}
lines.push(adminBannerLine(s, config.adminPassword !== undefined));
console.log(lines.join('\n') + '\n');

/** How long a shutdown may take before the process gives up and exits 1 (orchestrators usually allow 30 s). */
const SHUTDOWN_LIMIT_MS = 25_000;

let closing = false;
/**
 * SIGTERM / SIGINT drain, then exit 0. Readiness answers `draining` at once (a load balancer
 * stops sending traffic); the device link stops taking reports (the embedded broker refuses new
 * connections and publishes, which the devices keep and send again, and acknowledges those being
 * stored once they are); the HTTP server takes no new connections and finishes the requests under
 * way; the app's queues are flushed (readings, alarms, push, faults, tasks, commands, reports,
 * ledger) and the database closed. A report is acknowledged only after it is stored, so nothing a
 * device was told is stored can be lost. Past SHUTDOWN_LIMIT_MS: exit 1, saying what was left.
 */
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  const started = Date.now();
  let step = 'demo simulator';
  app.health.setDraining();
  app.log.info({ signal }, 'shutting down: draining (readiness says so; no new device reports; storing those under way)');
  const limit = setTimeout(() => {
    const left = app.readings.stats();
    app.log.error(
      { step, readingsWaiting: left.waiting, readingsWriting: left.writing },
      `shutdown did not finish within ${SHUTDOWN_LIMIT_MS / 1000} s (at: ${step}; ${left.waiting + left.writing} readings not stored, none of them acknowledged); exiting`,
    );
    process.exit(1);
  }, SHUTDOWN_LIMIT_MS);
  limit.unref();
  try {
    await (await demo)?.stop().catch(() => undefined);
    detachCommands();
    step = 'device link';
    await link.close().catch((err: unknown) => app.log.warn({ err }, 'the device link did not close cleanly'));
    step = 'JT/T 808 gateway';
    await jt808.close().catch((err: unknown) => app.log.warn({ err }, 'the JT/T 808 gateway did not close cleanly'));
    await jt808Frames.close();
    step = 'HTTP server and queues';
    await app.close();
  } catch (err) {
    app.log.error({ err, step }, 'shutdown failed');
    process.exit(1);
  }
  const s = app.readings.stats();
  app.log.info(
    { ms: Date.now() - started, readingsWaiting: s.waiting, readingsWriting: s.writing },
    'shut down cleanly: every acknowledged report is stored, the queues are flushed',
  );
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

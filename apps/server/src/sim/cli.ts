// The device simulator from the command line: signs in to a running server, registers (or
// renews the secrets of) <prefix>000001..N in the caller's organisation, and runs them over
// MQTT until Ctrl-C or --duration, printing throughput every 10 s. With --protocol jt808 the
// devices are JT/T 808 terminals (12-digit phone numbers) reporting over TCP to the gateway.
//   npm run simulate -- --devices 5000 --interval 10
//   npm run simulate -- --protocol jt808 --devices 20
import { parseCliOptions, USAGE, UsageError, type CliOptions } from './cli-options.ts';
import { startJt808Simulator, type Jt808SimulatorStats } from './jt808-terminal.ts';
import { createDevice, simDeviceId } from './models.ts';
import { ApiError, provisionDevices, provisionTerminals, signIn } from './provision.ts';
import { startSimulator, type SimLogger, type Simulator, type SimulatorStats } from './publisher.ts';

const STATS_EVERY_MS = 10_000;

const consoleLog: SimLogger = {
  info: (obj, msg) => console.log(`sim: ${msg.replace(/^simulator: /, '')}`, JSON.stringify(obj)),
  warn: (obj, msg) => console.warn(`sim: ${msg.replace(/^simulator: /, '')}`, JSON.stringify(obj)),
};

/** The devices wanted, each with its kind. */
function wantedDevices(o: CliOptions) {
  const what = o.protocol === 'jt808' ? 'JT/T 808' : 'Simulated';
  return Array.from({ length: o.devices }, (_, i) => {
    const deviceId = simDeviceId(o.prefix, i + 1);
    const { kind } = createDevice({ deviceId, seed: o.seed });
    return { deviceId, kind, name: `${what} ${kind} ${deviceId}` };
  });
}

/** The devices to run, each with its kind, registered if missing, with a working secret. */
async function prepareDevices(o: CliOptions, token: string) {
  const wanted = wantedDevices(o);
  console.log(`sim: making sure ${o.devices} devices ${wanted[0]!.deviceId}..${wanted.at(-1)!.deviceId} exist`);
  const { devices, created, renewed } = await provisionDevices({ baseUrl: o.url, token, devices: wanted, keyword: o.prefix });
  console.log(`sim: ${created} registered, ${renewed} given a new secret`);
  return devices.map((d, i) => ({ ...d, kind: wanted[i]!.kind }));
}

/** The JT/T 808 terminals to run, their devices (protocol jt808) registered if missing. */
async function prepareTerminals(o: CliOptions, token: string) {
  const wanted = wantedDevices(o);
  console.log(`sim: making sure ${o.devices} JT/T 808 devices ${wanted[0]!.deviceId}..${wanted.at(-1)!.deviceId} exist`);
  const { created, existing, notJt808 } = await provisionTerminals({ baseUrl: o.url, token, devices: wanted, keyword: o.prefix });
  console.log(`sim: ${created} registered, ${existing} there already`);
  if (notJt808.length) console.warn(`sim: ${notJt808.length} of them are not JT/T 808 devices (e.g. ${notJt808[0]}); the gateway will refuse their terminals`);
  return wanted.map(({ deviceId, kind }) => ({ deviceId, kind }));
}

function statsLine(now: SimulatorStats | Jt808SimulatorStats, before: SimulatorStats, seconds: number): string {
  const rate = (n: number) => Math.round(n / seconds);
  const refused = now.refused ? `, ${now.refused} refused` : '';
  const jt808 = 'batches' in now ? `, ${now.resent} re-sent, ${now.batchedFixes} fixes in ${now.batches} blind-area batches` : '';
  return (
    `sim: ${now.devices} devices (${now.connected} connected${refused}), ` +
    `${rate(now.sent - before.sent)} reports/s sent, ${rate(now.acked - before.acked)} acked/s, ${now.failed} failed${jt808}`
  );
}

async function start(o: CliOptions): Promise<Simulator> {
  console.log(`sim: signing in to ${o.url} as ${o.account}`);
  const token = await signIn(o.url, o.account, o.password);
  if (o.protocol === 'json') {
    const devices = await prepareDevices(o, token);
    return startSimulator({ mqttUrl: o.mqttUrl, devices, intervalMs: o.intervalMs, seed: o.seed, log: consoleLog });
  }
  const devices = await prepareTerminals(o, token);
  console.log(`sim: terminals report to the JT/T 808 gateway at ${o.jt808.host}:${o.jt808.port}`);
  return startJt808Simulator({ ...o.jt808, devices, intervalMs: o.intervalMs, seed: o.seed, gaps: o.gaps, log: consoleLog });
}

async function main(): Promise<number> {
  const o = parseCliOptions(process.argv.slice(2), process.env);
  if (o === 'help') {
    console.log(USAGE);
    return 0;
  }
  const sim = await start(o);
  let last = sim.stats();
  let lastAt = Date.now();
  const ticker = setInterval(() => {
    const now = sim.stats();
    console.log(statsLine(now, last, (Date.now() - lastAt) / 1000));
    [last, lastAt] = [now, Date.now()];
  }, STATS_EVERY_MS);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    if (o.durationMs !== undefined) setTimeout(resolve, o.durationMs).unref();
  });
  clearInterval(ticker);
  console.log('sim: stopping');
  // The simulator logs its totals as it stops.
  await sim.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) console.error(`sim: ${err.message}\n\n${USAGE}`);
    else if (err instanceof ApiError && err.status === 403) {
      console.error(`sim: ${err.message}\nThe account may not register devices (device:write); pass --account/--password of an organisation administrator.`);
    } else console.error(`sim: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);

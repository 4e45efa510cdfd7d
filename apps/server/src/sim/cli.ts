// The device simulator from the command line: signs in to a running server, registers (or
// renews the secrets of) <prefix>000001..N in the caller's organisation, and runs them over
// MQTT until Ctrl-C or --duration, printing throughput every 10 s.
//   npm run simulate -- --devices 5000 --interval 10
import { parseCliOptions, USAGE, UsageError, type CliOptions } from './cli-options.ts';
import { createDevice, simDeviceId } from './models.ts';
import { ApiError, provisionDevices, signIn } from './provision.ts';
import { startSimulator, type SimLogger, type SimulatorStats } from './publisher.ts';

const STATS_EVERY_MS = 10_000;

const consoleLog: SimLogger = {
  info: (obj, msg) => console.log(`sim: ${msg.replace(/^simulator: /, '')}`, JSON.stringify(obj)),
  warn: (obj, msg) => console.warn(`sim: ${msg.replace(/^simulator: /, '')}`, JSON.stringify(obj)),
};

/** The devices to run, each with its kind, registered if missing, with a working secret. */
async function prepareDevices(o: CliOptions) {
  console.log(`sim: signing in to ${o.url} as ${o.account}`);
  const token = await signIn(o.url, o.account, o.password);
  const wanted = Array.from({ length: o.devices }, (_, i) => {
    const deviceId = simDeviceId(o.prefix, i + 1);
    const { kind } = createDevice({ deviceId, seed: o.seed });
    return { deviceId, kind, name: `Simulated ${kind} ${deviceId}` };
  });
  console.log(`sim: making sure ${o.devices} devices ${wanted[0]!.deviceId}..${wanted.at(-1)!.deviceId} exist`);
  const { devices, created, renewed } = await provisionDevices({ baseUrl: o.url, token, devices: wanted, keyword: o.prefix });
  console.log(`sim: ${created} registered, ${renewed} given a new secret`);
  return devices.map((d, i) => ({ ...d, kind: wanted[i]!.kind }));
}

function statsLine(now: SimulatorStats, before: SimulatorStats, seconds: number): string {
  const rate = (n: number) => Math.round(n / seconds);
  const refused = now.refused ? `, ${now.refused} refused` : '';
  return (
    `sim: ${now.devices} devices (${now.connected} connected${refused}), ` +
    `${rate(now.sent - before.sent)} reports/s sent, ${rate(now.acked - before.acked)} acked/s, ${now.failed} failed`
  );
}

async function main(): Promise<number> {
  const o = parseCliOptions(process.argv.slice(2), process.env);
  if (o === 'help') {
    console.log(USAGE);
    return 0;
  }
  const devices = await prepareDevices(o);
  const sim = startSimulator({ mqttUrl: o.mqttUrl, devices, intervalMs: o.intervalMs, seed: o.seed, log: consoleLog });
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

// The simulator's command line: `npm run simulate -- --devices 100 --interval 10`.
import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from './models.ts';

export interface CliOptions {
  devices: number;
  intervalMs: number;
  /** The server's base URL, for signing in and registering devices. */
  url: string;
  mqttUrl: string;
  account: string;
  password: string;
  prefix: string;
  /** Stop after this long; run until Ctrl-C when absent. */
  durationMs?: number;
  seed: number;
}

// The seeded demo operator (db/seed.ts; the password is DEMO_PASSWORD's default in config.ts).
const DEMO_ACCOUNT = 'demo';
const DEMO_PASSWORD = 'Demo@2026';
/** The embedded broker's port (MQTT_PORT's default in config.ts: 1884, clear of a system Mosquitto). */
const EMBEDDED_MQTT_PORT = 1884;

export const USAGE = `Simulated trucks, reefer containers and cold rooms reporting over MQTT.

npm run simulate -- [options]
  --devices N     how many devices (default 50): <prefix>000001 ... are registered if missing
  --interval S    seconds between a device's reports (default 10)
  --url URL       server base URL (default http://127.0.0.1:3000)
  --mqtt URL      MQTT broker (default: the server's embedded one, mqtt://<host of --url>:${EMBEDDED_MQTT_PORT})
  --account A     sign-in account (default $IOTC_ACCOUNT, else demo); it needs device:write
  --password P    its password (default $IOTC_PASSWORD, else the demo password)
  --prefix P      device id prefix (default SIM)
  --duration S    stop after S seconds (default: run until Ctrl-C)
  --seed N        the fleet's seed: the same seed gives the same devices (default ${DEFAULT_SEED})
  --help`;

/** Thrown for a bad command line; the message says what to fix. */
export class UsageError extends Error {}

function number(name: string, raw: string | undefined, fallback: number, check: (n: number) => boolean, what: string): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} must be ${what} (got "${raw}")`);
  return n;
}

const FLAGS = {
  devices: { type: 'string' },
  interval: { type: 'string' },
  url: { type: 'string', default: 'http://127.0.0.1:3000' },
  mqtt: { type: 'string' },
  account: { type: 'string' },
  password: { type: 'string' },
  prefix: { type: 'string', default: 'SIM' },
  duration: { type: 'string' },
  seed: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function flags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The options of a command line, or 'help'; throws UsageError on a bad one. */
export function parseCliOptions(argv: readonly string[], env: Record<string, string | undefined>): CliOptions | 'help' {
  const v = flags(argv);
  if (v.help) return 'help';
  // Six digits follow the prefix, and a device id is at most 40 letters, digits, _ or -.
  if (!/^[A-Za-z0-9_-]{1,34}$/.test(v.prefix)) throw new UsageError('--prefix must be 1-34 letters, digits, _ or -');
  const devices = number('devices', v.devices, 50, (n) => Number.isInteger(n) && n >= 1 && n <= 999_999, 'a whole number from 1 to 999999');
  const interval = number('interval', v.interval, 10, (n) => n >= 0.1, 'at least 0.1 (seconds)');
  const duration = v.duration === undefined ? undefined : number('duration', v.duration, 0, (n) => n > 0, 'a positive number of seconds');
  if (!URL.canParse(v.url)) throw new UsageError(`--url must be a URL (got "${v.url}")`);
  const mqttUrl = v.mqtt ?? `mqtt://${new URL(v.url).hostname}:${EMBEDDED_MQTT_PORT}`;
  if (!URL.canParse(mqttUrl)) throw new UsageError(`--mqtt must be a URL (got "${mqttUrl}")`);
  return {
    devices,
    intervalMs: Math.round(interval * 1000),
    url: v.url,
    mqttUrl,
    account: v.account ?? env.IOTC_ACCOUNT ?? DEMO_ACCOUNT,
    password: v.password ?? env.IOTC_PASSWORD ?? DEMO_PASSWORD,
    prefix: v.prefix,
    durationMs: duration === undefined ? undefined : Math.round(duration * 1000),
    seed: number('seed', v.seed, DEFAULT_SEED, Number.isSafeInteger, 'a whole number'),
  };
}

// The simulator's command line: `npm run simulate -- --devices 100 --interval 10`, or
// `npm run simulate -- --protocol jt808 --devices 10` for JT/T 808 terminals over TCP.
import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from './models.ts';

export type SimProtocol = 'json' | 'jt808';

export interface CliOptions {
  /** json: the report format over MQTT; jt808: JT/T 808 terminals over TCP to the gateway. */
  protocol: SimProtocol;
  devices: number;
  intervalMs: number;
  /** The server's base URL, for signing in and registering devices. */
  url: string;
  mqttUrl: string;
  /** The JT/T 808 gateway (protocol jt808). */
  jt808: { host: string; port: number };
  /** jt808: each terminal loses coverage for `forMs` once every `everyMs` (0: never), then re-sends what it buffered as a 0x0704 batch. */
  gaps: { everyMs: number; forMs: number };
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
/** JT808_PORT's default in config.ts. */
const GATEWAY_PORT = 6808;
/** JT/T 808 device ids are 12-digit phone numbers: a six-digit prefix and the six-digit number. */
const JT808_PREFIX = '014400';

export const USAGE = `Simulated trucks, reefer containers and cold rooms reporting over MQTT, or over JT/T 808.

npm run simulate -- [options]
  --protocol P    json (default): the report format over MQTT; jt808: JT/T 808 (2013) terminals over
                  TCP that register, authenticate and report locations, with coverage gaps re-sent as
                  0x0704 batches
  --devices N     how many devices (default 50): <prefix>000001 ... are registered if missing
  --interval S    seconds between a device's reports (default 10)
  --url URL       server base URL (default http://127.0.0.1:3000)
  --mqtt URL      MQTT broker (default: the server's embedded one, mqtt://<host of --url>:${EMBEDDED_MQTT_PORT})
  --account A     sign-in account (default $IOTC_ACCOUNT, else demo); it needs device:write
  --password P    its password (default $IOTC_PASSWORD, else the demo password)
  --jt808 H:P     the JT/T 808 gateway (default: <host of --url>:${GATEWAY_PORT})
  --gap-every S   jt808: each terminal loses coverage once every S seconds (default 600; 0: never)
  --gap-for S     jt808: for S seconds (default 60)
  --prefix P      device id prefix (default SIM; jt808: six digits, default ${JT808_PREFIX}, ids are
                  12-digit phone numbers ${JT808_PREFIX}000001 ...)
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
  protocol: { type: 'string', default: 'json' },
  devices: { type: 'string' },
  interval: { type: 'string' },
  url: { type: 'string', default: 'http://127.0.0.1:3000' },
  mqtt: { type: 'string' },
  account: { type: 'string' },
  password: { type: 'string' },
  jt808: { type: 'string' },
  'gap-every': { type: 'string' },
  'gap-for': { type: 'string' },
  prefix: { type: 'string' },
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
  if (v.protocol !== 'json' && v.protocol !== 'jt808') throw new UsageError(`--protocol must be json or jt808 (got "${v.protocol}")`);
  const protocol: SimProtocol = v.protocol;
  const prefix = v.prefix ?? (protocol === 'jt808' ? JT808_PREFIX : 'SIM');
  // Six digits follow the prefix, and a device id is at most 40 letters, digits, _ or -.
  if (!/^[A-Za-z0-9_-]{1,34}$/.test(prefix)) throw new UsageError('--prefix must be 1-34 letters, digits, _ or -');
  if (protocol === 'jt808' && !/^\d{6}$/.test(prefix)) throw new UsageError(`--prefix must be six digits with --protocol jt808 (got "${prefix}")`);
  const devices = number('devices', v.devices, 50, (n) => Number.isInteger(n) && n >= 1 && n <= 999_999, 'a whole number from 1 to 999999');
  const interval = number('interval', v.interval, 10, (n) => n >= 0.1, 'at least 0.1 (seconds)');
  const duration = v.duration === undefined ? undefined : number('duration', v.duration, 0, (n) => n > 0, 'a positive number of seconds');
  if (!URL.canParse(v.url)) throw new UsageError(`--url must be a URL (got "${v.url}")`);
  const mqttUrl = v.mqtt ?? `mqtt://${new URL(v.url).hostname}:${EMBEDDED_MQTT_PORT}`;
  if (!URL.canParse(mqttUrl)) throw new UsageError(`--mqtt must be a URL (got "${mqttUrl}")`);
  const jt808 = gatewayAddress(v.jt808, new URL(v.url).hostname);
  const gapEvery = number('gap-every', v['gap-every'], 600, (n) => n === 0 || n >= 1, '0 or at least 1 (seconds)');
  const gapFor = number('gap-for', v['gap-for'], 60, (n) => n >= 1, 'at least 1 (seconds)');
  if (gapEvery > 0 && gapFor >= gapEvery) throw new UsageError('--gap-for must be shorter than --gap-every');
  return {
    protocol,
    devices,
    intervalMs: Math.round(interval * 1000),
    url: v.url,
    mqttUrl,
    jt808,
    gaps: { everyMs: Math.round(gapEvery * 1000), forMs: Math.round(gapFor * 1000) },
    account: v.account ?? env.IOTC_ACCOUNT ?? DEMO_ACCOUNT,
    password: v.password ?? env.IOTC_PASSWORD ?? DEMO_PASSWORD,
    prefix,
    durationMs: duration === undefined ? undefined : Math.round(duration * 1000),
    seed: number('seed', v.seed, DEFAULT_SEED, Number.isSafeInteger, 'a whole number'),
  };
}

/** `host:port`, `port` alone (on the --url host), or the default port on the --url host. */
function gatewayAddress(raw: string | undefined, urlHost: string): { host: string; port: number } {
  // An IPv6 URL's host comes in brackets, which a socket does not take.
  const bare = (host: string) => host.replace(/^\[|\]$/g, '');
  if (raw === undefined) return { host: bare(urlHost), port: GATEWAY_PORT };
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(raw);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535) throw new UsageError(`--jt808 must be host:port or a port (got "${raw}")`);
  return { host: bare(m[1] ?? urlHost), port };
}

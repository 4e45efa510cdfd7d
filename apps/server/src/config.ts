// Settings of the server: read once from the environment, validated, typed. A bad value stops
// the start with one line naming the variable (see main.ts).
import { hostname } from 'node:os';
import { z } from 'zod';
import type { MapConfig } from '@iotc/shared/live';
import { NO_TILES, OSM_TILES } from '@iotc/shared/map-tiles';
import { isValidPassword } from '@iotc/shared/validation';

const port = z.coerce.number().int().min(0).max(65535);
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .optional()
    .refine((v) => v === undefined || (URL.canParse(v) && protocols.includes(new URL(v).protocol)), {
      message: `must be a URL starting with ${protocols.map((p) => p + '//').join(' or ')}`,
    });
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  /** Port of the embedded MQTT broker; only used when MQTT_URL is not set. */
  MQTT_PORT: port.default(1884),
  /** TCP port of the JT/T 808 gateway (0: any free port). */
  JT808_PORT: port.default(6808),
  MQTT_URL: optionalUrl(['mqtt:', 'mqtts:', 'tcp:', 'ssl:', 'ws:', 'wss:']),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  /** Sender of the platform's mail. */
  MAIL_FROM: z.string().trim().min(3).default('IoT Cloud Console <no-reply@iot-console.local>'),
  /** HTTP SMS gateway: POST {to, text} as JSON; without it texts go to the outbox table (the log names the row). */
  SMS_GATEWAY_URL: optionalUrl(['http:', 'https:']),
  SMS_GATEWAY_TOKEN: z.string().trim().optional(),
  /** OpenID Connect provider for external sign-in (its issuer URL); off when empty. */
  OIDC_ISSUER: optionalUrl(['http:', 'https:']),
  OIDC_CLIENT_ID: z.string().trim().optional(),
  OIDC_CLIENT_SECRET: z.string().trim().optional(),
  /** The provider's name on the login button. */
  OIDC_NAME: z.string().trim().min(1).max(40).default('SSO'),
  /** The address users reach the console at (for the provider's redirect); else taken from each request. */
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  /** With DATABASE_URL: how long a starting node waits for a database it cannot reach yet, in seconds (0: fail at once). */
  DB_START_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
  /**
   * This process's name among several on one database: its MQTT client id (the broker keeps its
   * session, and what it had not acknowledged, under it) and its name in logs. Unique per running
   * node and the same across its restarts; default: <host name>-<PORT>.
   */
  NODE_ID: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^[A-Za-z0-9._:-]{1,64}$/.test(v), { message: 'must be 1-64 letters, digits, ".", "_", ":" or "-"' }),
  /** With MQTT_URL: the shared-subscription group of the nodes (each report goes to one node of the group). */
  MQTT_SHARE_GROUP: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'must be 1-64 letters, digits, "_" or "-"' })
    .default('iotc'),
  /** Reports dated before this are refused into the intake log (a date or an ISO time, UTC). */
  INTAKE_EARLIEST_TIME: z
    .string()
    .trim()
    .default('2000-01-01')
    .refine((v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/.test(v) && !Number.isNaN(Date.parse(v)) && Date.parse(v) >= Date.parse('1970-01-01'), {
      message: 'must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:mm:ssZ) from 1970 on',
    })
    .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v)),
  /** Failed device sign-ins a minute from one address (MQTT and HTTP) before it is refused unread and unlogged. */
  INTAKE_AUTH_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Days the intake log (refused reports and sign-ins) is kept. */
  INTAKE_LOG_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Silence after which a device counts as offline, in seconds. */
  OFFLINE_AFTER_SECONDS: z.coerce.number().int().min(30).max(7 * 86_400).default(600),
  /** How often the time-based alarms (offline, stay timeout) are checked, in seconds. */
  ALARM_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  /** A sent remote-control command without the device's acknowledgement after this many seconds fails. */
  COMMAND_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  /** Unset: OpenStreetMap's standard tiles; `none`: the offline outline only; else a tile server's address. */
  MAP_TILE_URL: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || v.toLowerCase() === 'none' || (URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol)), {
      message: 'must be a URL starting with http:// or https://, or none',
    }),
  MAP_TILE_SUBDOMAINS: z.string().trim().max(20).optional(),
  MAP_TILE_ATTRIBUTION: z.string().trim().max(300).optional(),
  /** The tiles' coordinates: gcj02 for Chinese providers (AutoNavi, Tencent), else wgs84. */
  MAP_TILE_CRS: z.enum(['wgs84', 'gcj02']).default('wgs84'),
  /** Default: 19 for OpenStreetMap's tiles, 18 for others. */
  MAP_TILE_MAX_ZOOM: z.coerce.number().int().min(1).max(22).optional(),
  /** OSRM-compatible routing service (e.g. a self-hosted OSRM) for road routes of transport tasks; without it routes are drawn by hand. */
  ROUTING_URL: optionalUrl(['http:', 'https:']),
  /** Nominatim-compatible geocoder (e.g. a self-hosted Nominatim) for address search and addresses of positions; without it coordinates are shown. */
  GEOCODER_URL: optionalUrl(['http:', 'https:']),
  /** Requests per second this node sends the geocoder at most (Nominatim's public service allows 1). */
  GEOCODER_RATE_PER_SECOND: z.coerce.number().min(0.1).max(1000).default(1),
  /** A geocoder request without an answer after this many seconds fails. */
  GEOCODER_TIMEOUT_SECONDS: z.coerce.number().min(1).max(120).default(5),
  /** How often the ledger signs a new tree head (when it grew), in seconds. */
  LEDGER_CHECKPOINT_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  /** How often the position archive's job looks for closed days to pack, in seconds; 0 turns it off on this node. */
  ARCHIVE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** How often the retention job removes what the retention rules no longer keep, in seconds (and once at start); 0 turns it off on this node. */
  RETENTION_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3_600),
  /** How often the live batches' excursion budgets are computed again and their alarms raised, in seconds; 0 turns it off on this node. */
  PRODUCT_BUDGET_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** How often the storage figures' job takes its snapshot (and at start), in seconds; 0 turns it off on this node. */
  STORAGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3600),
  /**
   * The ledger's name in its tree heads; default: the name of its signer key, else
   * iot-cloud-console/<host name>. Several nodes on one database must use the same.
   */
  LEDGER_ORIGIN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^[^\s+]{1,200}$/.test(v), { message: 'must be 1-200 characters without spaces or "+"' }),
  /**
   * The tree-head signer key (PRIVATE+KEY+<name>+<id>+<key>); default: the file
   * DATA_DIR/ledger/signer.key, made at first start. Several nodes on one database need the same key.
   */
  LEDGER_SIGNER_KEY: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^PRIVATE\+KEY\+[^\s+]+\+[0-9a-f]{8}\+[A-Za-z0-9+/=]+$/.test(v), { message: 'must be a signer key PRIVATE+KEY+<name>+<id>+<key>' }),
  /**
   * Behind a reverse proxy: which hops' X-Forwarded-For to believe for the client address (the
   * per-address limits and the audit log use it): `true` (any), or the proxies' addresses and
   * CIDR ranges separated by commas. Unset: the connecting address is the client.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || v === 'true' || v === 'false' || v.split(',').every((p) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(p.trim())), {
      message: 'must be true, false, or addresses / CIDR ranges separated by commas',
    })
    .transform((v): boolean | string[] => (!v || v === 'false' ? false : v === 'true' ? true : v.split(',').map((p) => p.trim()))),
  /** Sign-in attempts (login, SSO binding, password change) per minute from one client address. */
  LOGIN_RATE_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Sign-in attempts per minute naming one account (the 5-failure lock-out comes on top). */
  LOGIN_RATE_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Captchas, verification codes sent or checked, registrations and retrieval steps per minute from one client address. */
  CODE_RATE_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Verification codes sent or checked, per minute, for one account or address. */
  CODE_RATE_PER_TARGET: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Messages (MQTT messages or HTTP calls, each one report or a batch) one device may send per second, sustained. */
  INTAKE_DEVICE_RATE: z.coerce.number().min(0.01).max(100_000).default(10),
  /** Messages one device may send at once after a quiet spell. */
  INTAKE_DEVICE_BURST: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** On the demo organisation: feed its devices with simulated reports over MQTT. */
  DEMO_SIMULATOR: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || isValidPassword(v), {
      message: 'must be 8-20 characters with at least two of letters, digits and symbols, no spaces',
    })
    .transform((v) => (v ? v : undefined)),
  /** Length of a session without "stay logged in for a week"; it slides with use. */
  SESSION_HOURS: z.coerce.number().int().min(1).max(72).default(2),
  /** Seed the demo organisation with its operator account. */
  SEED_DEMO: bool.default(true),
  DEMO_PASSWORD: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || isValidPassword(v), {
      message: 'must be 8-20 characters with at least two of letters, digits and symbols, no spaces',
    })
    .transform((v) => (v ? v : 'Demo@2026')),
}).superRefine((e, ctx) => {
  if (e.OIDC_ISSUER && !e.OIDC_CLIENT_ID) {
    ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'is required when OIDC_ISSUER is set' });
  }
});

export type Env = z.infer<typeof envSchema>;

/** Requests allowed per minute (see plugins/rate-limit.ts). */
export interface RateLimits {
  loginPerIp: number;
  loginPerAccount: number;
  codePerIp: number;
  codePerTarget: number;
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  mqttPort: number;
  /** TCP port of the JT/T 808 gateway (0: any free port). */
  jt808Port: number;
  mqttUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  smsGatewayUrl?: string;
  smsGatewayToken?: string;
  oidc?: { issuer: string; clientId: string; clientSecret?: string; name: string };
  publicUrl?: string;
  redisUrl?: string;
  /** With a database URL: how long a starting node waits for the database to be reachable (ms). */
  dbStartWaitMs: number;
  /** This node's name: MQTT client id with an external broker, and in logs. */
  nodeId: string;
  /** The shared-subscription group of the nodes on an external broker. */
  mqttShareGroup: string;
  offlineAfterMs: number;
  alarmTickMs: number;
  /** A sent command without an acknowledgement after this long fails (`timeout`). */
  commandTimeoutMs: number;
  map: MapConfig;
  /** OSRM-compatible routing service for the planned road route of a transport task. */
  routingUrl?: string;
  /** Nominatim-compatible geocoder (modules/geocode): its address, requests per second and time-out. */
  geocoder: { url?: string; ratePerSecond: number; timeoutMs: number };
  /** The ledger: how often a tree head is signed; its origin and signer key when set (else from DATA_DIR). */
  ledgerCheckpointMs: number;
  /** How often the ledger logs what was stored since (closed sensor minutes, events, removals); 0: not on this node. */
  ledgerTickMs: number;
  /** The position archive's job interval; 0: not run on this node. */
  archiveMs: number;
  /** The retention job's period; 0: not on this node. */
  retentionMs: number;
  /** The excursion budgets' job period; 0: not on this node. */
  productBudgetMs: number;
  /** The storage figures' snapshot interval; 0: not taken on this node. */
  storageMs: number;
  ledgerOrigin?: string;
  ledgerSignerKey?: string;
  demoSimulator: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** Bearer token GET /metrics requires; open when unset. */
  metricsToken?: string;
  adminPassword?: string;
  sessionHours: number;
  seedDemo: boolean;
  demoPassword: string;
  /** Which proxies' X-Forwarded-For gives the client address (Fastify's trustProxy). */
  trustProxy: boolean | string[];
  /** Request limits per fixed minute (plugins/rate-limit.ts); counted in Redis when REDIS_URL is set. */
  rateLimits: RateLimits;
  /** The per-device token bucket of the MQTT and HTTP intake (ingest/device-rate.ts). */
  intakeDeviceRate: { rate: number; burst: number };
  /** Reports dated before this are refused. */
  intakeEarliest: Date;
  /** Failed device sign-ins a minute from one address before it is refused unread. */
  intakeAuthFailuresPerIp: number;
  /** How long intake log rows are kept (ms). */
  intakeLogMs: number;
  /** Where the built web app lives; absent in API tests. */
  webDist?: string;
  /** Start the embedded broker / broker connection (main does; API tests do not). */
  mqtt: boolean;
}

export class ConfigError extends Error {}

/** The start-up tiles: OpenStreetMap's without MAP_TILE_URL, none with `none`, else the given server. */
function mapConfigOf(e: z.infer<typeof envSchema>): MapConfig {
  if (!e.MAP_TILE_URL) {
    return {
      ...OSM_TILES,
      tileAttribution: e.MAP_TILE_ATTRIBUTION || OSM_TILES.tileAttribution,
      tileMaxZoom: e.MAP_TILE_MAX_ZOOM ?? OSM_TILES.tileMaxZoom,
    };
  }
  if (e.MAP_TILE_URL.toLowerCase() === 'none') return NO_TILES;
  return {
    tileUrl: e.MAP_TILE_URL,
    tileSubdomains: e.MAP_TILE_SUBDOMAINS || null,
    tileAttribution: e.MAP_TILE_ATTRIBUTION || null,
    tileCrs: e.MAP_TILE_CRS,
    tileMaxZoom: e.MAP_TILE_MAX_ZOOM ?? 18,
  };
}

/** Parses the environment; throws a ConfigError whose message is one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const value = env[name];
    const shown = /(PASSWORD|SECRET|TOKEN|KEY)$/.test(name) || value === undefined ? '' : ` (got "${value}")`;
    throw new ConfigError(`Invalid setting ${name}${shown}: ${issue.message}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    mqttPort: e.MQTT_PORT,
    jt808Port: e.JT808_PORT,
    mqttUrl: e.MQTT_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    smsGatewayUrl: e.SMS_GATEWAY_URL,
    smsGatewayToken: e.SMS_GATEWAY_TOKEN || undefined,
    oidc: e.OIDC_ISSUER
      ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID!, clientSecret: e.OIDC_CLIENT_SECRET || undefined, name: e.OIDC_NAME }
      : undefined,
    publicUrl: e.PUBLIC_URL,
    redisUrl: e.REDIS_URL,
    dbStartWaitMs: e.DB_START_WAIT_SECONDS * 1000,
    nodeId: e.NODE_ID ?? `${hostname().replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 50)}-${e.PORT}`,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    offlineAfterMs: e.OFFLINE_AFTER_SECONDS * 1000,
    alarmTickMs: e.ALARM_TICK_SECONDS * 1000,
    commandTimeoutMs: e.COMMAND_TIMEOUT_SECONDS * 1000,
    map: mapConfigOf(e),
    routingUrl: e.ROUTING_URL,
    geocoder: { url: e.GEOCODER_URL, ratePerSecond: e.GEOCODER_RATE_PER_SECOND, timeoutMs: e.GEOCODER_TIMEOUT_SECONDS * 1000 },
    ledgerCheckpointMs: e.LEDGER_CHECKPOINT_SECONDS * 1000,
    ledgerTickMs: 5_000,
    archiveMs: e.ARCHIVE_SECONDS * 1000,
    retentionMs: e.RETENTION_SECONDS * 1000,
    productBudgetMs: e.PRODUCT_BUDGET_SECONDS * 1000,
    storageMs: e.STORAGE_SECONDS * 1000,
    ledgerOrigin: e.LEDGER_ORIGIN,
    ledgerSignerKey: e.LEDGER_SIGNER_KEY,
    demoSimulator: e.DEMO_SIMULATOR,
    trustProxy: e.TRUST_PROXY,
    rateLimits: {
      loginPerIp: e.LOGIN_RATE_PER_IP,
      loginPerAccount: e.LOGIN_RATE_PER_ACCOUNT,
      codePerIp: e.CODE_RATE_PER_IP,
      codePerTarget: e.CODE_RATE_PER_TARGET,
    },
    intakeDeviceRate: { rate: e.INTAKE_DEVICE_RATE, burst: e.INTAKE_DEVICE_BURST },
    intakeEarliest: e.INTAKE_EARLIEST_TIME,
    intakeAuthFailuresPerIp: e.INTAKE_AUTH_FAILURES_PER_IP,
    intakeLogMs: e.INTAKE_LOG_DAYS * 86_400_000,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    adminPassword: e.ADMIN_PASSWORD,
    sessionHours: e.SESSION_HOURS,
    seedDemo: e.SEED_DEMO,
    demoPassword: e.DEMO_PASSWORD,
    mqtt: true,
  };
}

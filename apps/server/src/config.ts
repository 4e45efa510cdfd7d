// Settings of the server: read once from the environment, validated, typed. A bad value stops
// the start with one line naming the variable (see main.ts).
import { z } from 'zod';
import type { MapConfig } from '@iotc/shared/live';
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
  MQTT_URL: optionalUrl(['mqtt:', 'mqtts:', 'tcp:', 'ssl:', 'ws:', 'wss:']),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  /** Sender of the platform's mail. */
  MAIL_FROM: z.string().trim().min(3).default('IoT Cloud Console <no-reply@iot-console.local>'),
  /** HTTP SMS gateway: POST {to, text} as JSON; without it texts go to the outbox and the log. */
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
  /** Silence after which a device counts as offline, in seconds. */
  OFFLINE_AFTER_SECONDS: z.coerce.number().int().min(30).max(7 * 86_400).default(600),
  /** How often the time-based alarms (offline, stay timeout) are checked, in seconds. */
  ALARM_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  /** A sent remote-control command without the device's acknowledgement after this many seconds fails. */
  COMMAND_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  /** Map tiles, e.g. https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png; without it the offline base layer only. */
  MAP_TILE_URL: optionalUrl(['http:', 'https:']),
  MAP_TILE_SUBDOMAINS: z.string().trim().max(20).optional(),
  MAP_TILE_ATTRIBUTION: z.string().trim().max(300).optional(),
  /** The tiles' coordinates: gcj02 for Chinese providers (AutoNavi, Tencent), else wgs84. */
  MAP_TILE_CRS: z.enum(['wgs84', 'gcj02']).default('wgs84'),
  MAP_TILE_MAX_ZOOM: z.coerce.number().int().min(1).max(22).default(18),
  /** OSRM-compatible routing service (e.g. a self-hosted OSRM) for road routes of transport tasks; without it routes are drawn by hand. */
  ROUTING_URL: optionalUrl(['http:', 'https:']),
  /** How often the ledger signs a new tree head (when it grew), in seconds. */
  LEDGER_CHECKPOINT_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
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
  /** On the demo organisation: feed its devices with simulated reports over MQTT. */
  DEMO_SIMULATOR: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  mqttPort: number;
  mqttUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  smsGatewayUrl?: string;
  smsGatewayToken?: string;
  oidc?: { issuer: string; clientId: string; clientSecret?: string; name: string };
  publicUrl?: string;
  redisUrl?: string;
  offlineAfterMs: number;
  alarmTickMs: number;
  /** A sent command without an acknowledgement after this long fails (`timeout`). */
  commandTimeoutMs: number;
  map: MapConfig;
  /** OSRM-compatible routing service for the planned road route of a transport task. */
  routingUrl?: string;
  /** The ledger: how often a tree head is signed; its origin and signer key when set (else from DATA_DIR). */
  ledgerCheckpointMs: number;
  ledgerOrigin?: string;
  ledgerSignerKey?: string;
  demoSimulator: boolean;
  logLevel: Env['LOG_LEVEL'];
  adminPassword?: string;
  sessionHours: number;
  seedDemo: boolean;
  demoPassword: string;
  /** Where the built web app lives; absent in API tests. */
  webDist?: string;
  /** Start the embedded broker / broker connection (main does; API tests do not). */
  mqtt: boolean;
}

export class ConfigError extends Error {}

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
    offlineAfterMs: e.OFFLINE_AFTER_SECONDS * 1000,
    alarmTickMs: e.ALARM_TICK_SECONDS * 1000,
    commandTimeoutMs: e.COMMAND_TIMEOUT_SECONDS * 1000,
    map: {
      tileUrl: e.MAP_TILE_URL ?? null,
      tileSubdomains: e.MAP_TILE_SUBDOMAINS || null,
      tileAttribution: e.MAP_TILE_ATTRIBUTION || null,
      tileCrs: e.MAP_TILE_CRS,
      tileMaxZoom: e.MAP_TILE_MAX_ZOOM,
    },
    routingUrl: e.ROUTING_URL,
    ledgerCheckpointMs: e.LEDGER_CHECKPOINT_SECONDS * 1000,
    ledgerOrigin: e.LEDGER_ORIGIN,
    ledgerSignerKey: e.LEDGER_SIGNER_KEY,
    demoSimulator: e.DEMO_SIMULATOR,
    logLevel: e.LOG_LEVEL,
    adminPassword: e.ADMIN_PASSWORD,
    sessionHours: e.SESSION_HOURS,
    seedDemo: e.SEED_DEMO,
    demoPassword: e.DEMO_PASSWORD,
    mqtt: true,
  };
}

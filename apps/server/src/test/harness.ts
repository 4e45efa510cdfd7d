// Test harness: builds the real app on a fresh database per test file: PGlite in memory, or,
// when DATABASE_URL is set, a throw-away PostgreSQL database created for the file and dropped after.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig, type AppConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { pgliteTemplate } from './db-template.ts';
import type { Envelope } from '@iotc/shared/envelope';

export const ADMIN_PASSWORD = 'Admin#2026';
export const DEMO_PASSWORD = 'Demo@2026';
/**
 * Tests sign in, ask for captchas and send reports many times a second from one address; the
 * protective limits (plugins/rate-limit.ts, ingest/device-rate.ts) are tested on their own with
 * limits of their own, so other tests run with limits they never reach.
 */
/**
 * The environment of a real server process (main.ts) in a test: the embedded database under
 * `dataDir`, the embedded broker, every port picked by the OS, no demo, `extra` on top.
 */
export function embeddedServerEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: '',
    MQTT_URL: '',
    REDIS_URL: '',
    DATA_DIR: dataDir,
    PORT: '0',
    MQTT_PORT: '0',
    JT808_PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    DEMO_SIMULATOR: 'false',
    ADMIN_PASSWORD,
    ...extra,
  };
}

export const TEST_RATE_LIMITS = {
  LOGIN_RATE_PER_IP: '100000',
  LOGIN_RATE_PER_ACCOUNT: '100000',
  CODE_RATE_PER_IP: '100000',
  CODE_RATE_PER_TARGET: '100000',
  INTAKE_DEVICE_RATE: '100000',
  INTAKE_DEVICE_BURST: '100000',
};

export interface TestApp {
  app: FastifyInstance;
  /** The PostgreSQL URL of this file's database, when running on PostgreSQL. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * What the run's global setup made (test/db-template.ts): the migrated schema to start each
 * file's database from. Nothing outside a Vitest run (a bench), or in a run without it.
 */
export async function runTemplates(): Promise<{ pglite?: Blob; pg?: string }> {
  if (!process.env.VITEST) return {};
  const { inject } = await import('vitest');
  return { pglite: pgliteTemplate(inject('pgliteTemplate')), pg: inject('pgTemplate') };
}

/** A throw-away database on `baseUrl`'s server: empty, or a copy of the `template` database. */
export async function createPgDatabase(baseUrl: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `iotc_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function testApp(overrides: Partial<AppConfig> = {}, opts: Parameters<typeof buildApp>[1] = {}): Promise<TestApp> {
  // No tiles (the offline outline) unless a test gives a map: tests never reach the internet.
  const base = loadConfig({ LOG_LEVEL: 'silent', MAP_TILE_URL: 'none', ADMIN_PASSWORD, DEMO_PASSWORD, ...TEST_RATE_LIMITS });
  const pgBase = process.env.DATABASE_URL;
  const templates = await runTemplates();
  const created = pgBase ? await createPgDatabase(pgBase, templates.pg) : undefined;
  // In memory, from the run's migrated schema: unless the test gives a database or a data directory.
  let own: Database | undefined;
  if (!pgBase && templates.pglite && !opts.database && !overrides.dataDir && !overrides.databaseUrl) own = await openDatabase({ kind: 'pglite', from: templates.pglite });
  try {
    const app = await buildApp({ ...base, dataDir: '', databaseUrl: created?.url, mqtt: false, retentionMs: 0, ...overrides }, { ...opts, database: opts.database ?? own });
    return {
      app,
      databaseUrl: created?.url,
      close: async () => {
        await app.close();
        await own?.close();
        await created?.drop();
      },
    };
  } catch (e) {
    await own?.close();
    throw e;
  }
}

export interface Answer<T> {
  status: number;
  body: Envelope<T>;
}

/** inject() with the product's headers; returns status and parsed envelope. */
export async function call<T = unknown>(
  app: FastifyInstance,
  opts: { method: InjectOptions['method']; url: string; token?: string; lang?: 'zh-CN' | 'en-US'; body?: unknown; raw?: string },
): Promise<Answer<T>> {
  const headers: Record<string, string> = { language: opts.lang ?? 'en-US', timezone: 'Asia/Shanghai' };
  if (opts.token) headers['access_token'] = opts.token;
  if (opts.body !== undefined || opts.raw !== undefined) headers['content-type'] = 'application/json';
  const res = await app.inject({
    method: opts.method,
    url: opts.url,
    headers,
    payload: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  return { status: res.statusCode, body: res.json() as Envelope<T> };
}

export async function login(app: FastifyInstance, account: string, password: string, period?: 7): Promise<string> {
  const r = await call<{ token: string }>(app, {
    method: 'POST',
    url: '/iot-cloud-auth/auth/v1/login',
    body: { account, password, ...(period ? { period } : {}) },
  });
  if (r.status !== 200) throw new Error(`login ${account} failed: ${r.status} ${r.body.errormsg}`);
  return r.body.data!.token;
}

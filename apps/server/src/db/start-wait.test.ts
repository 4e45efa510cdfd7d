// A node started before its database (PostgreSQL behind a proxy that refuses connections, as a
// stopped server does): the start waits, says so once in the log, and completes by itself when
// the database comes; a wrong setting, or a database that stays away past DB_START_WAIT_SECONDS,
// fails the start with the database's own error instead of waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, createPgDatabase, login } from '../test/harness.ts';
import { tcpProxy, type TcpProxy } from '../test/tcp-proxy.ts';

const base = process.env.DATABASE_URL;

interface Line {
  level: number;
  msg: string;
}

describe.skipIf(!base)('a node started before its database', () => {
  let created: { url: string; drop: () => Promise<void> };
  let proxy: TcpProxy;

  beforeAll(async () => {
    created = await createPgDatabase(base!);
    const target = new URL(base!);
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  });
  afterAll(async () => {
    await proxy?.close();
    await created?.drop();
  });

  const start = (url: string, waitSeconds: string, lines: Line[]) => {
    const config = loadConfig({ LOG_LEVEL: 'info', ADMIN_PASSWORD, DEMO_PASSWORD, SEED_DEMO: 'false', DB_START_WAIT_SECONDS: waitSeconds });
    return buildApp({ ...config, dataDir: '', databaseUrl: url, mqtt: false }, { logStream: { write: (s: string) => void lines.push(JSON.parse(s) as Line) } });
  };

  it('waits for the database, says so, and starts by itself once it is there', async () => {
    proxy.cut('refuse');
    const lines: Line[] = [];
    let started = false;
    const starting = start(proxy.urlFor(created.url), '60', lines).then((app) => {
      started = true;
      return app;
    });
    await new Promise((r) => setTimeout(r, 4_000));
    // Still waiting, not crashed: one warning so far (the next after 10 s).
    expect(started).toBe(false);
    expect(lines.filter((l) => /database not reachable at start; waiting for it \(up to 60 s\)/.test(l.msg))).toHaveLength(1);
    proxy.restore();
    const app = await starting;
    try {
      expect(lines.some((l) => /^database reached after \d+ s$/.test(l.msg))).toBe(true);
      // A working node: migrated, seeded, signs in, ready.
      expect(await login(app, 'admin', ADMIN_PASSWORD)).toBeTruthy();
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('gives up after DB_START_WAIT_SECONDS with the connection error', async () => {
    proxy.cut('refuse');
    try {
      const at = Date.now();
      await expect(start(proxy.urlFor(created.url), '2', [])).rejects.toThrow();
      expect(Date.now() - at).toBeGreaterThanOrEqual(2_000);
    } finally {
      proxy.restore();
    }
  });

  it('does not wait on a wrong setting (a database that does not exist)', async () => {
    const url = new URL(created.url);
    url.pathname = '/iotc_no_such_database';
    const lines: Line[] = [];
    await expect(start(url.toString(), '60', lines)).rejects.toThrow(/does not exist/);
    expect(lines.some((l) => /waiting for it/.test(l.msg))).toBe(false);
  });
});

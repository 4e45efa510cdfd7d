// The seed is idempotent and the embedded database keeps its data across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { call, DEMO_PASSWORD, login, testApp } from '../test/harness.ts';
import { menus, users } from './schema.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('seed', () => {
  it('generates an administrator password once, and running again changes nothing', async () => {
    const t = await testApp({ adminPassword: undefined });
    try {
      const first = t.app.seedResult;
      expect(first.adminCreated).toBe(true);
      const generated = first.generatedAdminPassword!;
      expect(generated).toMatch(/^.{8,20}$/);
      await login(t.app, 'admin', generated);

      const { seed } = await import('./seed.ts');
      const again = await seed(t.app.database.db, { seedDemo: true, demoPassword: DEMO_PASSWORD });
      expect(again.adminCreated).toBe(false);
      expect(again.generatedAdminPassword).toBeUndefined();
      const [n] = await t.app.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
      expect(n!.n).toBe(2);
      const [m] = await t.app.database.db.select({ n: sql<number>`count(*)::int` }).from(menus);
      expect(m!.n).toBeGreaterThan(4 * 30);
      await login(t.app, 'admin', generated);
    } finally {
      await t.close();
    }
  });

  it('PGlite under DATA_DIR keeps accounts and sessions across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iotc-data-'));
    dirs.push(dir);
    const config = { ...loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dir }), mqtt: false };
    const a = await buildApp(config);
    const adminPassword = a.seedResult.generatedAdminPassword!;
    const token = await login(a, 'demo', DEMO_PASSWORD, 7);
    await a.close();

    const b = await buildApp(config);
    try {
      expect(b.seedResult.adminCreated).toBe(false);
      expect(b.seedResult.demo?.passwordValid).toBe(true);
      await login(b, 'admin', adminPassword);
      const info = await call<{ account: string }>(b, { method: 'POST', url: '/iot-cloud-auth/auth/v1/info', token });
      expect(info.status).toBe(200);
      expect(info.body.data!.account).toBe('demo');
    } finally {
      await b.close();
    }
  });
});

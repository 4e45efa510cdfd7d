// A database that answers but is read-only (SQLSTATE 25006): the intake refuses what it cannot
// store (HTTP 503 INTAKE_UNAVAILABLE with Retry-After), the console's reads go on, the log says
// so once and once when writes work again, readiness fails its database-writes check meanwhile,
// and the intake resumes by itself. PGlite: its one session made read-only; PostgreSQL: the
// throw-away database's default made read-only and its idle connections replaced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../test/harness.ts';

interface Line {
  level: number;
  msg: string;
  [k: string]: unknown;
}

describe('a read-only database', () => {
  let t: TestApp;
  let admin: string;
  let device: DeviceWithSecret;
  const lines: Line[] = [];
  const logged = (re: RegExp) => lines.filter((l) => re.test(l.msg));

  beforeAll(async () => {
    t = await testApp({ logLevel: 'info' }, { logStream: { write: (s: string) => void lines.push(JSON.parse(s) as Line) } });
    admin = await login(t.app, 'admin', ADMIN_PASSWORD);
    device = (await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: `RO-${process.pid}`, name: 'read-only' } })).body.data!;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Makes the database read-only or writable again, as its kind allows. */
  async function readOnly(on: boolean) {
    if (!t.databaseUrl) {
      await t.app.database.db.execute(sql.raw(`set default_transaction_read_only = ${on ? 'on' : 'off'}`));
      return;
    }
    const name = new URL(t.databaseUrl).pathname.slice(1);
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    try {
      await c.query(on ? `alter database ${name} set default_transaction_read_only = on` : `alter database ${name} reset default_transaction_read_only`);
      // The pool's idle connections keep the setting they started with: they are replaced.
      await c.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and state = 'idle' and pid <> pg_backend_pid()`, [name]);
    } finally {
      await c.end();
    }
  }

  const report = (time: Date) =>
    t.app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json', language: 'zh-CN' },
      payload: JSON.stringify({ deviceId: device.deviceId, time: time.toISOString(), lat: 30.5, lon: 114.3 }),
    });

  it('refuses reports while it is read-only, keeps the reads going, and resumes by itself', async () => {
    const first = new Date(Date.now() - 60_000);
    expect((await report(first)).statusCode).toBe(200);
    await readOnly(true);
    // The first refused write is what tells the state (no probe finds a read-only database). Each
    // try has a time of its own: one that went through on a connection still writable (a job's,
    // busy while the idle ones were replaced) is stored, and must not be taken for a refused one.
    let refusedAt = new Date(Date.now() - 50_000);
    await expect
      .poll(
        async () => {
          refusedAt = new Date(refusedAt.getTime() + 1);
          return (await report(refusedAt)).statusCode;
        },
        { timeout: 10_000 },
      )
      .toBe(503);
    const refused = await report(refusedAt);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.json()).toMatchObject({ errorcode: 'INTAKE_UNAVAILABLE', errormsg: expect.stringContaining('暂时无法保存上报数据') });
    expect(t.app.availability.stats()).toMatchObject({ unwritable: true, down: false, unwritableCause: { code: '25006' } });
    expect(logged(/^database cannot write \(read-only\)/)).toHaveLength(1);
    // The console still reads.
    const list = await call(t.app, { method: 'GET', url: '/api/iot/v2/devices', token: admin });
    expect(list.status).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks).toMatchObject({ database: { ok: true }, 'database-writes': { ok: false } });

    await readOnly(false);
    await expect.poll(() => logged(/^database writes again after/).length, { timeout: 15_000, interval: 50 }).toBe(1);
    const again = await report(refusedAt);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ accepted: 1 });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect(logged(/^database cannot write/)).toHaveLength(1);
    expect(logged(/^database writes again after/)[0]!.refused).toBe(t.app.availability.stats().refusedWhileUnwritable);
  }, 60_000);
});

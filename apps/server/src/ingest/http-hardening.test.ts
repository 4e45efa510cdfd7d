// The HTTP intake's edges: a device id the database could not take (a NUL) is a plain 401, not a
// 500 with the failed query in the log; a failed sign-in keeps a bounded device id; an address
// with too many failed sign-ins is refused unread and unlogged; the intake log is purged by age;
// bytes that are not UTF-8 are refused as the escaped forms of unstorable text are.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { intakeLog } from '../db/schema.ts';
import { testApp, type TestApp } from '../test/harness.ts';
import { LOGGED_DEVICE_ID_MAX } from './pipeline.ts';

let t: TestApp;
const logLines: string[] = [];
beforeAll(async () => {
  t = await testApp({
    intakeAuthFailuresPerIp: 5,
    intakeLogMs: 30 * 86_400_000,
  });
});
afterAll(async () => t.close());

// A second app whose log the test reads (the first one's failures would count against its limit).
let logged: TestApp;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const { buildApp } = await import('../app.ts');
  const { loadConfig } = await import('../config.ts');
  const { ADMIN_PASSWORD, DEMO_PASSWORD } = await import('../test/harness.ts');
  const app = await buildApp({ ...loadConfig({ LOG_LEVEL: 'debug', ADMIN_PASSWORD, DEMO_PASSWORD }), dataDir: '', databaseUrl: undefined, mqtt: false }, { logStream: stream });
  logged = { app, close: () => app.close() };
});
afterAll(async () => logged?.close());

const basic = (user: string, secret = 'whatever') => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
const post = (app: TestApp['app'], auth: string, payload: string | Buffer, remoteAddress = '198.51.100.7') =>
  app.inject({ method: 'POST', url: '/api/iot/v2/device/report', headers: { authorization: auth, 'content-type': 'application/json', language: 'en-US' }, payload, remoteAddress });
const report = JSON.stringify({ deviceId: 'X', time: new Date().toISOString() });

describe('device sign-in over HTTP', () => {
  it('answers a NUL in the device id with 401 and logs nothing of a query', async () => {
    const res = await post(logged.app, basic('DEV\u0000ICE'), report);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ errorcode: 'DEVICE_AUTH_FAILED', errormsg: 'Device authentication failed' });
    const text = logLines.join('');
    expect(text).not.toMatch(/select|invalid byte sequence|\\u0000|22021/i);
  });

  it('keeps at most 64 characters of the device id a failed sign-in gave', async () => {
    const long = `LONG${'x'.repeat(9_996)}`;
    expect((await post(t.app, basic(long), report, '198.51.100.8')).statusCode).toBe(401);
    const rows = await t.app.database.db.select().from(intakeLog).where(sql`${intakeLog.deviceId} like 'LONG%'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.deviceId!.length).toBeLessThanOrEqual(LOGGED_DEVICE_ID_MAX + 3);
    expect(rows[0]!.deviceId).toBe(`${long.slice(0, LOGGED_DEVICE_ID_MAX)}...`);
  });

  it('refuses an address past its failed sign-ins at once with 429, logging nothing more; other addresses are unaffected', async () => {
    const count = async () => Number((await t.app.database.db.select({ n: sql<number>`count(*)` }).from(intakeLog).where(eq(intakeLog.deviceId, 'NOSUCHDEVICE')))[0]!.n);
    for (let i = 0; i < 5; i++) expect((await post(t.app, basic('NOSUCHDEVICE'), report, '203.0.113.9')).statusCode).toBe(401);
    expect(await count()).toBe(5);
    for (let i = 0; i < 20; i++) {
      const res = await post(t.app, basic('NOSUCHDEVICE'), report, '203.0.113.9');
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(await count()).toBe(5);
    expect((await post(t.app, basic('NOSUCHDEVICE'), report, '203.0.113.10')).statusCode).toBe(401);
    expect(await count()).toBe(6);
  });
});

describe('the intake log', () => {
  it('is purged of rows older than INTAKE_LOG_DAYS, oldest first, the rest kept', async () => {
    const db = t.app.database.db;
    const day = 86_400_000;
    await db.insert(intakeLog).values([
      ...Array.from({ length: 12_000 }, (_, i) => ({ deviceId: 'PURGE-OLD', channel: 'http' as const, reason: `old ${i}`, at: new Date(Date.now() - 40 * day) })),
      { deviceId: 'PURGE-NEW', channel: 'http' as const, reason: 'recent', at: new Date(Date.now() - 29 * day) },
    ]);
    const gone = await t.app.intake.purge();
    expect(gone).toBeGreaterThanOrEqual(12_000);
    const left = await db.select({ id: intakeLog.deviceId }).from(intakeLog).where(sql`${intakeLog.deviceId} like 'PURGE-%'`);
    expect(left).toEqual([{ id: 'PURGE-NEW' }]);
  });
});

describe('text that is not UTF-8', () => {
  const invalid = Buffer.concat([Buffer.from('{"account":"demo'), Buffer.from([0xff, 0xfe]), Buffer.from('","password":"x"}')]);
  it('is refused like its escaped form on an API call, in the caller\'s language', async () => {
    const raw = await t.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json', language: 'zh-CN' }, payload: invalid });
    const escaped = await t.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json', language: 'zh-CN' }, payload: '{"account":"demo\\udcff","password":"x"}' });
    expect(raw.statusCode).toBe(400);
    expect(escaped.statusCode).toBe(400);
    expect(raw.json()).toMatchObject({ errorcode: 'TEXT_UNSTORABLE' });
    expect(escaped.json()).toMatchObject({ errorcode: 'TEXT_UNSTORABLE' });
    // The escaped form names its field; raw bytes are found before the body is read as JSON, so the body.
    expect(escaped.json().errormsg).toMatch(/^文本含有无法保存的字符.*: body\.account$/);
    expect(raw.json().errormsg).toMatch(/^文本含有无法保存的字符.*: body$/);
  });

  it('is refused on the device intake, nothing stored', async () => {
    const res = await post(t.app, basic('NOSUCHDEVICE2'), Buffer.concat([Buffer.from('{"deviceId":"A'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]), '198.51.100.20');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorcode: 'TEXT_UNSTORABLE' });
  });
});

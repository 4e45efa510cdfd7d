// Rate limits of the open doors, through the real app: the attempt after the limit answers 429
// in the envelope, in the caller's language, with Retry-After; sign-ins are limited per client
// address and per account, captchas and verification codes per address and per target; the
// HTTP intake per device (another device still gets through). With REDIS_URL, two app
// instances count one client's sign-ins together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Envelope } from '@iotc/shared/envelope';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../test/harness.ts';
import { loadConfig } from '../config.ts';
import { intakeLog, telemetry } from '../db/schema.ts';
import { rateLimitPlugin } from './rate-limit.ts';

const LOGIN = '/iot-cloud-auth/auth/v1/login';
/** A client address of its own for each test, so counters never carry over between tests or runs. */
const newIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;

async function post(app: FastifyInstance, url: string, body: unknown, ip: string, lang: 'en-US' | 'zh-CN' = 'en-US') {
  const res = await app.inject({ method: 'POST', url, remoteAddress: ip, headers: { 'content-type': 'application/json', language: lang }, payload: JSON.stringify(body) });
  return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: res.json() as Envelope<unknown> };
}

describe('settings', () => {
  it('reads the limits from the environment with their defaults, and refuses nonsense', () => {
    const d = loadConfig({});
    expect(d.rateLimits).toEqual({ loginPerIp: 30, loginPerAccount: 10, codePerIp: 20, codePerTarget: 10 });
    expect(d.intakeDeviceRate).toEqual({ rate: 10, burst: 100 });
    const c = loadConfig({ LOGIN_RATE_PER_IP: '5', LOGIN_RATE_PER_ACCOUNT: '3', CODE_RATE_PER_IP: '7', CODE_RATE_PER_TARGET: '2', INTAKE_DEVICE_RATE: '0.5', INTAKE_DEVICE_BURST: '4' });
    expect(c.rateLimits).toEqual({ loginPerIp: 5, loginPerAccount: 3, codePerIp: 7, codePerTarget: 2 });
    expect(c.intakeDeviceRate).toEqual({ rate: 0.5, burst: 4 });
    expect(() => loadConfig({ LOGIN_RATE_PER_IP: '0' })).toThrow('Invalid setting LOGIN_RATE_PER_IP');
    expect(() => loadConfig({ INTAKE_DEVICE_BURST: 'lots' })).toThrow('Invalid setting INTAKE_DEVICE_BURST');
    expect(d.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow('Invalid setting TRUST_PROXY');
  });
});

describe('sign-in and codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ rateLimits: { loginPerIp: 3, loginPerAccount: 4, codePerIp: 3, codePerTarget: 2 } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the attempt after the limit with 429 and Retry-After in both languages, per client address', async () => {
    const ip = newIp();
    // Different accounts: the address is what is counted (the lock-out counts per account).
    for (const account of ['nobody-1', 'nobody-2', 'admin']) {
      const r = await post(t.app, LOGIN, { account, password: account === 'admin' ? ADMIN_PASSWORD : 'Wrong#123' }, ip);
      expect(r.status).not.toBe(429);
    }
    const en = await post(t.app, LOGIN, { account: 'admin', password: ADMIN_PASSWORD }, ip);
    expect(en.status).toBe(429);
    expect(en.body).toEqual({ isSuccess: 'N', data: null, errorcode: 'RATE_LIMITED', errormsg: 'Too many requests, please try again in a minute' });
    expect(Number(en.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(en.retryAfter)).toBeLessThanOrEqual(60);
    const zh = await post(t.app, LOGIN, { account: 'admin', password: ADMIN_PASSWORD }, ip, 'zh-CN');
    expect(zh.status).toBe(429);
    expect(zh.body.errormsg).toBe('请求过于频繁，请一分钟后再试');
    expect(zh.retryAfter).toBeDefined();
    // Another address signs in as usual.
    const other = await post(t.app, LOGIN, { account: 'admin', password: ADMIN_PASSWORD }, newIp());
    expect(other.status).toBe(200);
    expect(other.body.isSuccess).toBe('Y');
  });

  it('limits the attempts naming one account from any number of addresses', async () => {
    for (let i = 0; i < 4; i++) expect((await post(t.app, LOGIN, { account: 'target-account', password: 'Wrong#123' }, newIp())).status).not.toBe(429);
    const r = await post(t.app, LOGIN, { account: 'TARGET-account', password: 'Wrong#123' }, newIp());
    expect(r.status).toBe(429);
    expect(r.body.errorcode).toBe('RATE_LIMITED');
    // The same addresses may still try another account.
    expect((await post(t.app, LOGIN, { account: 'admin', password: ADMIN_PASSWORD }, newIp())).status).toBe(200);
  });

  it('limits captchas per address, and verification codes per address and per account', async () => {
    const ip = newIp();
    for (let i = 0; i < 3; i++) expect((await post(t.app, '/api/iot/v2/captchas', undefined, ip)).status).toBe(200);
    const captcha = await post(t.app, '/api/iot/v2/captchas', undefined, ip, 'zh-CN');
    expect(captcha.status).toBe(429);
    expect(captcha.body.errorcode).toBe('RATE_LIMITED');
    expect(captcha.retryAfter).toBeDefined();
    // The address's budget is shared by every code call: password retrieval is refused too.
    expect((await post(t.app, '/iot-cloud-auth/auth/v1/sendMail', { account: 'admin', channel: 'email' }, ip)).status).toBe(429);

    // Per target: checks of one account's code from changing addresses.
    const verify = (account: string) => post(t.app, '/iot-cloud-auth/auth/v1/mailVerify', { account, channel: 'email', code: '1234' }, newIp());
    for (let i = 0; i < 2; i++) expect((await verify('admin')).status).not.toBe(429);
    const third = await verify('admin');
    expect(third.status).toBe(429);
    expect(third.body.errorcode).toBe('RATE_LIMITED');
    // The same account by SMS is another target; another account too.
    expect((await post(t.app, '/iot-cloud-auth/auth/v1/mailVerify', { account: 'admin', channel: 'sms', code: '1234' }, newIp())).status).not.toBe(429);
    expect((await verify('demo')).status).not.toBe(429);
  });
});

describe('HTTP intake', () => {
  let t: TestApp;
  let a: DeviceWithSecret;
  let b: DeviceWithSecret;
  beforeAll(async () => {
    // A burst of 3, then one message every 100 s: the 4th call within the test is over the rate.
    t = await testApp({ intakeDeviceRate: { rate: 0.01, burst: 3 } });
    const admin = await login(t.app, 'admin', ADMIN_PASSWORD);
    const make = async (deviceId: string) => (await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId, name: deviceId } })).body.data!;
    a = await make('RATE-HTTP-A');
    b = await make('RATE-HTTP-B');
  });
  afterAll(async () => {
    await t.close();
  });

  const send = async (d: DeviceWithSecret, i: number, lang: 'en-US' | 'zh-CN' = 'en-US') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`, 'content-type': 'application/json', language: lang },
      payload: JSON.stringify({ deviceId: d.deviceId, time: new Date(Date.now() - 60_000 + i * 1000).toISOString(), lat: 31, lon: 121 }),
    });
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: res.json() as Envelope<{ accepted: number }> };
  };

  it('refuses a device over its rate with 429 and the reason in its intake log; another device goes on', async () => {
    for (let i = 0; i < 3; i++) expect((await send(a, i)).body.data!.accepted).toBe(1);
    const over = await send(a, 3, 'zh-CN');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ errorcode: 'DEVICE_RATE_LIMITED', errormsg: '该设备上报过于频繁，请降低频率后重新上报' });
    expect(Number(over.retryAfter)).toBeGreaterThan(1);
    expect((await send(a, 4)).body.errormsg).toBe('This device is sending too often, please slow down and send again later');
    expect((await send(b, 0)).body.data!.accepted).toBe(1);
    const db = t.app.database.db;
    await t.app.readings.flushed();
    expect(await db.$count(telemetry, eq(telemetry.deviceRef, a.id))).toBe(3);
    const log = await db.select().from(intakeLog).where(eq(intakeLog.deviceRef, a.id));
    // Two refusals within a second: one line, the next second's line would count the other.
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ channel: 'http', deviceId: 'RATE-HTTP-A', reason: 'over the device rate limit of 0.01 messages/s (burst 3): message refused' });
    expect(await db.$count(intakeLog, eq(intakeLog.deviceRef, b.id))).toBe(0);
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ trustProxy: ['10.9.0.0/16'], rateLimits: { loginPerIp: 2, loginPerAccount: 100, codePerIp: 100, codePerTarget: 100 } });
  });
  afterAll(async () => {
    await t.close();
  });

  it("counts each client by the proxy's X-Forwarded-For, not the proxy's own address", async () => {
    const via = (client: string) =>
      t.app.inject({
        method: 'POST',
        url: LOGIN,
        remoteAddress: '10.9.0.1',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
        payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }),
      });
    const first = newIp();
    expect((await via(first)).statusCode).toBe(200);
    expect((await via(first)).statusCode).toBe(200);
    expect((await via(first)).statusCode).toBe(429);
    // Another client through the same proxy has its own count.
    expect((await via(newIp())).statusCode).toBe(200);
    // A caller that is not the proxy cannot choose its address by the header.
    const direct = newIp();
    const spoof = (client: string) =>
      t.app.inject({ method: 'POST', url: LOGIN, remoteAddress: direct, headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
    expect((await spoof(newIp())).statusCode).toBe(200);
    expect((await spoof(newIp())).statusCode).toBe(200);
    expect((await spoof(newIp())).statusCode).toBe(429);
  });
});

describe('a Redis that is away', () => {
  it('lets sign-ins through instead of failing them, and the app still closes', async () => {
    // A port nobody listens on.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const app = Fastify({ logger: false });
    await app.register(rateLimitPlugin, { redisUrl: `redis://127.0.0.1:${port}`, limits: { loginPerIp: 1, loginPerAccount: 1, codePerIp: 1, codePerTarget: 1 } });
    app.post(LOGIN, async () => ({ signedIn: true }));
    for (let i = 0; i < 3; i++) expect((await post(app, LOGIN, { account: 'admin' }, '10.1.1.1')).status).toBe(200);
    await app.close();
  });
});

// Two nodes behind one address: with Redis they count one client together.
describe.skipIf(!process.env.REDIS_URL)('with REDIS_URL', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    const limits = { loginPerIp: 3, loginPerAccount: 100, codePerIp: 100, codePerTarget: 100 };
    one = await testApp({ rateLimits: limits, redisUrl: process.env.REDIS_URL });
    two = await testApp({ rateLimits: limits, redisUrl: process.env.REDIS_URL });
  });
  afterAll(async () => {
    await one.close();
    await two.close();
  });

  it('shares the sign-in counter of an address between two app instances', async () => {
    const ip = newIp();
    expect((await post(one.app, LOGIN, { account: 'admin', password: ADMIN_PASSWORD }, ip)).status).toBe(200);
    expect((await post(two.app, LOGIN, { account: 'admin', password: ADMIN_PASSWORD }, ip)).status).toBe(200);
    expect((await post(one.app, LOGIN, { account: 'admin', password: ADMIN_PASSWORD }, ip)).status).toBe(200);
    const fourth = await post(two.app, LOGIN, { account: 'admin', password: ADMIN_PASSWORD }, ip);
    expect(fourth.status).toBe(429);
    expect(fourth.body.errorcode).toBe('RATE_LIMITED');
    expect(Number(fourth.retryAfter)).toBeGreaterThanOrEqual(1);
    // Each instance alone would still have let this one through.
    expect((await post(two.app, LOGIN, { account: 'admin', password: ADMIN_PASSWORD }, newIp())).status).toBe(200);
  });
});

// API tests of login, logout and info through inject(), on PGlite (or PostgreSQL when
// DATABASE_URL is set): the happy paths, bad input, lock-out, expiry, revocation, isolation.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { LoginData, UserInfo } from '@iotc/shared/auth';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { loginFailures, orgs, sessions, users } from '../../db/schema.ts';
import { createTenantUser } from '../../test/fixtures.ts';

const LOGIN = '/iot-cloud-auth/auth/v1/login';
const INFO = '/iot-cloud-auth/auth/v1/info';
const LOGOUT = '/iot-cloud-auth/auth/v1/logout';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.app.database.db.delete(loginFailures);
});

const db = () => t.app.database.db;

/** A second tenant with one operator who may open one menu item. */
const makeTenant = (code: string, account: string, password: string, menuIds?: string[]) =>
  createTenantUser(db(), { code, account, password, menuIds });

describe('login', () => {
  it('signs in the demo operator with a random token kept only as its hash', async () => {
    const r = await call<LoginData>(t.app, { method: 'POST', url: LOGIN, body: { account: 'demo', password: DEMO_PASSWORD } });
    expect(r.status).toBe(200);
    expect(r.body.isSuccess).toBe('Y');
    const d = r.body.data!;
    expect(d.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    expect(d.period).toBeNull();
    expect(d.user).toMatchObject({ account: 'demo', orgName: 'Demo Cold Chain Co.', roles: ['operator'], isPlatformAdmin: false });
    // A sliding session of SESSION_HOURS (2 by default).
    const ms = Date.parse(d.expiresAt) - Date.now();
    expect(ms).toBeGreaterThan(1.9 * 3_600_000);
    expect(ms).toBeLessThan(2.1 * 3_600_000);
    const rows = await db().select().from(sessions);
    expect(rows.some((s) => s.tokenHash === d.token)).toBe(false);
    expect(rows.some((s) => s.tokenHash === createHash('sha256').update(d.token).digest('hex'))).toBe(true);
  });

  it('keeps a week when period is 7', async () => {
    const r = await call<LoginData>(t.app, { method: 'POST', url: LOGIN, body: { account: 'DEMO', password: DEMO_PASSWORD, period: 7 } });
    expect(r.status).toBe(200);
    expect(r.body.data!.period).toBe(7);
    const days = (Date.parse(r.body.data!.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
  });

  it('two logins give two different tokens', async () => {
    const a = await login(t.app, 'demo', DEMO_PASSWORD);
    const b = await login(t.app, 'demo', DEMO_PASSWORD);
    expect(a).not.toBe(b);
  });

  it('refuses a wrong password with the spec text in the request language', async () => {
    const en = await call(t.app, { method: 'POST', url: LOGIN, body: { account: 'demo', password: 'Wrong#123' } });
    expect(en.status).toBe(401);
    expect(en.body).toEqual({
      isSuccess: 'N',
      data: null,
      errorcode: 'ACCOUNT_PASSWORD_ERROR',
      errormsg: 'Account password error, please re-enter',
    });
    const zh = await call(t.app, { method: 'POST', url: LOGIN, lang: 'zh-CN', body: { account: 'demo', password: 'Wrong#123' } });
    expect(zh.body.errormsg).toBe('账号密码错误，请重新输入');
  });

  it('answers an unknown account exactly like a wrong password', async () => {
    const r = await call(t.app, { method: 'POST', url: LOGIN, body: { account: 'nobody', password: 'Wrong#123' } });
    expect(r.status).toBe(401);
    expect(r.body.errorcode).toBe('ACCOUNT_PASSWORD_ERROR');
  });

  it.each([
    [{ account: '', password: 'x' }, 'Account cannot be empty', '账号不能为空'],
    [{ account: '   ', password: 'x' }, 'Account cannot be empty', '账号不能为空'],
    [{ account: 'demo', password: '' }, 'Password cannot be empty', '密码不能为空'],
  ])('refuses empty fields %j', async (body, en, zh) => {
    const r = await call(t.app, { method: 'POST', url: LOGIN, body });
    expect(r.status).toBe(400);
    expect(r.body.errormsg).toBe(en);
    const rz = await call(t.app, { method: 'POST', url: LOGIN, lang: 'zh-CN', body });
    expect(rz.body.errormsg).toBe(zh);
  });

  it.each([
    ['missing fields', {}],
    ['account of the wrong type', { account: 123, password: 'x' }],
    ['password of the wrong type', { account: 'demo', password: ['x'] }],
    ['period other than 7', { account: 'demo', password: DEMO_PASSWORD, period: 30 }],
    ['an array', [1, 2]],
  ])('refuses %s with 400 and changes nothing', async (_name, body) => {
    const before = await db().select({ n: sql<number>`count(*)::int` }).from(sessions);
    const r = await call(t.app, { method: 'POST', url: LOGIN, body });
    expect(r.status).toBe(400);
    expect(r.body.isSuccess).toBe('N');
    expect(r.body.errormsg).toBeTruthy();
    const after = await db().select({ n: sql<number>`count(*)::int` }).from(sessions);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('refuses malformed JSON and an empty body with 400 in the request language', async () => {
    const r = await call(t.app, { method: 'POST', url: LOGIN, raw: '{"account":' });
    expect(r.status).toBe(400);
    expect(r.body.errorcode).toBe('VALIDATION');
    const zh = await call(t.app, { method: 'POST', url: LOGIN, lang: 'zh-CN', raw: '' });
    expect(zh.status).toBe(400);
    expect(zh.body.errormsg).toMatch(/^请求参数有误/);
  });

  it('locks an account for 15 minutes after 5 wrong passwords with 429, other accounts unaffected', async () => {
    await makeTenant('lock', 'lockme', 'Right#123');
    for (let i = 0; i < 5; i++) {
      const r = await call(t.app, { method: 'POST', url: LOGIN, body: { account: 'lockme', password: `Wrong#${i}00` } });
      expect(r.status).toBe(401);
    }
    const locked = await call(t.app, { method: 'POST', url: LOGIN, body: { account: 'lockme', password: 'Right#123' } });
    expect(locked.status).toBe(429);
    expect(locked.body.errorcode).toBe('TOO_MANY_ATTEMPTS');
    expect(locked.body.errormsg).toBe('Too many wrong passwords for this account, please try again in 15 minutes');
    const zh = await call(t.app, { method: 'POST', url: LOGIN, lang: 'zh-CN', body: { account: 'LockMe', password: 'Right#123' } });
    expect(zh.status).toBe(429);
    expect(zh.body.errormsg).toBe('该账号密码错误次数过多，请15分钟后再试');
    // Another account is not locked.
    await login(t.app, 'demo', DEMO_PASSWORD);
    // Once the failures are older than 15 minutes the account opens again.
    await db().update(loginFailures).set({ at: sql`now() - interval '16 minutes'` });
    await login(t.app, 'lockme', 'Right#123');
  });

  it('refuses a deactivated account and an account of a deactivated organisation with the spec text', async () => {
    const { user, org } = await makeTenant('deact', 'deact', 'Right#123');
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    const r = await call(t.app, { method: 'POST', url: LOGIN, body: { account: 'deact', password: 'Right#123' } });
    expect(r.status).toBe(403);
    expect(r.body.errormsg).toBe('Account number does not exist or has been deactivated, please re-enter');
    await db().update(users).set({ status: 'active' }).where(eq(users.id, user.id));
    await db().update(orgs).set({ status: 'disabled' }).where(eq(orgs.id, org.id));
    const zh = await call(t.app, { method: 'POST', url: LOGIN, lang: 'zh-CN', body: { account: 'deact', password: 'Right#123' } });
    expect(zh.status).toBe(403);
    expect(zh.body.errormsg).toBe('账号不存在或已停用，请重新输入');
  });

  it("refuses an account whose roles open nothing with 'No permission'", async () => {
    await makeTenant('noperm', 'noperm', 'Right#123', []);
    const r = await call(t.app, { method: 'POST', url: LOGIN, body: { account: 'noperm', password: 'Right#123' } });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ errorcode: 'NO_PERMISSION', errormsg: 'No permission' });
    const zh = await call(t.app, { method: 'POST', url: LOGIN, lang: 'zh-CN', body: { account: 'noperm', password: 'Right#123' } });
    expect(zh.body.errormsg).toBe('暂无权限');
  });
});

describe('info and logout', () => {
  it('info answers the signed-in user, with an empty body', async () => {
    const token = await login(t.app, 'demo', DEMO_PASSWORD);
    const res = await t.app.inject({ method: 'POST', url: INFO, headers: { access_token: token, 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
    const u = (res.json() as { data: UserInfo }).data;
    expect(u).toMatchObject({ account: 'demo', name: 'Demo Operator', orgName: 'Demo Cold Chain Co.', mustChangePassword: false });
  });

  it.each([
    ['no token', undefined],
    ['an unknown token', 'x'.repeat(43)],
    ['an absurdly long token', 'y'.repeat(5000)],
  ])('info with %s is 401 with the expired-login text', async (_n, token) => {
    const r = await call(t.app, { method: 'POST', url: INFO, token });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ isSuccess: 'N', errorcode: 'TOKEN_INVALID', errormsg: 'Current login status has expired, whether to log in again?' });
    const zh = await call(t.app, { method: 'POST', url: INFO, token, lang: 'zh-CN' });
    expect(zh.body.errormsg).toBe('当前登录状态已过期，是否重新登录？');
  });

  it('an expired token is refused', async () => {
    const token = await login(t.app, 'demo', DEMO_PASSWORD, 7);
    expect((await call(t.app, { method: 'POST', url: INFO, token })).status).toBe(200);
    const hash = createHash('sha256').update(token).digest('hex');
    await db().update(sessions).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(sessions.tokenHash, hash));
    expect((await call(t.app, { method: 'POST', url: INFO, token })).status).toBe(401);
  });

  it('a session without period slides with use; a week session does not', async () => {
    const sliding = await login(t.app, 'demo', DEMO_PASSWORD);
    const week = await login(t.app, 'demo', DEMO_PASSWORD, 7);
    const hs = createHash('sha256').update(sliding).digest('hex');
    const hw = createHash('sha256').update(week).digest('hex');
    // Both almost run out, last used two minutes ago.
    await db()
      .update(sessions)
      .set({ expiresAt: sql`now() + interval '1 minute'`, lastSeenAt: sql`now() - interval '2 minutes'` })
      .where(sql`${sessions.tokenHash} in (${hs}, ${hw})`);
    expect((await call(t.app, { method: 'POST', url: INFO, token: sliding })).status).toBe(200);
    expect((await call(t.app, { method: 'POST', url: INFO, token: week })).status).toBe(200);
    const [s] = await db().select().from(sessions).where(eq(sessions.tokenHash, hs));
    const [w] = await db().select().from(sessions).where(eq(sessions.tokenHash, hw));
    expect(s!.expiresAt.getTime() - Date.now()).toBeGreaterThan(1.9 * 3_600_000);
    expect(w!.expiresAt.getTime() - Date.now()).toBeLessThan(120_000);
  });

  it('logout revokes that token only', async () => {
    const a = await login(t.app, 'demo', DEMO_PASSWORD);
    const b = await login(t.app, 'demo', DEMO_PASSWORD);
    const out = await call(t.app, { method: 'GET', url: LOGOUT, token: a });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ isSuccess: 'Y', data: null, errorcode: null, errormsg: null });
    expect((await call(t.app, { method: 'POST', url: INFO, token: a })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: LOGOUT, token: a })).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: INFO, token: b })).status).toBe(200);
  });

  it('a deactivated user loses access at once', async () => {
    const { user } = await makeTenant('gone', 'gone', 'Right#123');
    const token = await login(t.app, 'gone', 'Right#123');
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    expect((await call(t.app, { method: 'POST', url: INFO, token })).status).toBe(401);
  });
});

describe('organisations are kept apart', () => {
  it("one organisation's token shows and revokes only its own user's data", async () => {
    await makeTenant('other', 'other', 'Other#123');
    const mine = await login(t.app, 'demo', DEMO_PASSWORD);
    const theirs = await login(t.app, 'other', 'Other#123');
    const me = await call<UserInfo>(t.app, { method: 'POST', url: INFO, token: mine });
    const them = await call<UserInfo>(t.app, { method: 'POST', url: INFO, token: theirs });
    expect(me.body.data!.orgName).toBe('Demo Cold Chain Co.');
    expect(them.body.data!.orgName).toBe('Org other');
    expect(them.body.data!.orgId).not.toBe(me.body.data!.orgId);
    // Their logout does not touch my session.
    await call(t.app, { method: 'GET', url: LOGOUT, token: theirs });
    expect((await call(t.app, { method: 'POST', url: INFO, token: mine })).status).toBe(200);
  });
});

describe('unknown API paths and OpenAPI', () => {
  it('an unknown API path is a 404 envelope in the request language', async () => {
    const r = await call(t.app, { method: 'GET', url: '/api/iot/v2/nothing-here', lang: 'zh-CN' });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ isSuccess: 'N', errorcode: 'NOT_FOUND', errormsg: '请求的资源不存在' });
  });

  it('publishes the OpenAPI description of the calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of [LOGIN, LOGOUT, INFO, '/iot-cloud-auth/menu/v1/loadMenu', '/iot-cloud-auth/dict/v1/all/config']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
  });
});

// The spec's 'update password' through inject(): captcha (single use, expiring), the password
// rule and its messages in both languages, 'Old password error', lock-out, deactivated accounts,
// another user's account, the initial-password flag, and the revocation of other sessions.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Captcha, LoginData } from '@iotc/shared/auth';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { auditLogs, captchas, loginFailures, users } from '../../db/schema.ts';
import { createTenantUser } from '../../test/fixtures.ts';

const CHANGE = '/iot-cloud-auth/user/v1/resetPassword';
const INFO = '/iot-cloud-auth/auth/v1/info';
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

let n = 0;
/** A fresh operator of a fresh organisation, created by an administrator with an initial password. */
async function newUser(password = 'Init#2026') {
  n += 1;
  const account = `user${n}`;
  const made = await createTenantUser(t.app.database.db, { code: `cp${n}`, account, password, mustChangePassword: true });
  return { account, password, ...made };
}

async function captcha() {
  const c = await t.app.captchaService.create();
  return { captchaId: c.id, captcha: c.answer };
}

const change = async (body: Record<string, unknown>, opts: { token?: string; lang?: 'zh-CN' | 'en-US' } = {}) =>
  call(t.app, { method: 'POST', url: CHANGE, body, ...opts });

describe('captcha', () => {
  it('is a server-drawn SVG image, valid for five minutes, never cached', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/iot/v2/captchas' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const c = (res.json() as { data: Captcha }).data;
    expect(c.image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(c.image.split(',')[1]!, 'base64').toString()).toMatch(/^<svg/);
    const minutes = (Date.parse(c.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4.9);
    expect(minutes).toBeLessThanOrEqual(5);
    expect(JSON.stringify(c)).not.toMatch(/answer/);
  });
});

describe('change password', () => {
  it('changes an initial password without a token, clears the prompt and ends every session', async () => {
    const u = await newUser();
    const first = await call<LoginData>(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: u.account, password: u.password } });
    expect(first.body.data!.mustChangePassword).toBe(true);
    const again = await login(t.app, u.account, u.password);

    const r = await change({ account: u.account, oldPassword: u.password, newPassword: 'Fresh#2026', confirmPassword: 'Fresh#2026', ...(await captcha()) });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ isSuccess: 'Y', data: null, errorcode: null, errormsg: null });

    for (const token of [first.body.data!.token, again]) expect((await call(t.app, { method: 'POST', url: INFO, token })).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: u.account, password: u.password } })).status).toBe(401);
    const after = await call<LoginData>(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: u.account, password: 'Fresh#2026' } });
    expect(after.status).toBe(200);
    expect(after.body.data!.mustChangePassword).toBe(false);

    const [entry] = await t.app.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'password_change'));
    expect(entry).toMatchObject({ account: u.account, result: 'success', orgId: u.org.id });
  });

  it('with a token: the session that changed it stays, the others end', async () => {
    const u = await newUser();
    const mine = await login(t.app, u.account, u.password);
    const other = await login(t.app, u.account, u.password, 7);
    const r = await change({ account: u.account, oldPassword: u.password, newPassword: 'Fresh#2026', confirmPassword: 'Fresh#2026', ...(await captcha()) }, { token: mine });
    expect(r.status).toBe(200);
    expect((await call(t.app, { method: 'POST', url: INFO, token: mine })).status).toBe(200);
    expect((await call(t.app, { method: 'POST', url: INFO, token: other })).status).toBe(401);
  });

  it("refuses a signed-in user changing another organisation's user, and uses no captcha for it", async () => {
    const u = await newUser();
    const demo = await login(t.app, 'demo', DEMO_PASSWORD);
    const c = await captcha();
    const r = await change({ account: u.account, oldPassword: u.password, newPassword: 'Fresh#2026', confirmPassword: 'Fresh#2026', ...c }, { token: demo });
    expect(r.status).toBe(403);
    expect(r.body.errormsg).toBe('No permission');
    await login(t.app, u.account, u.password);
    const [row] = await t.app.database.db.select().from(captchas).where(eq(captchas.id, c.captchaId));
    expect(row!.usedAt).toBeNull();
  });

  it.each([
    ['a wrong answer', async () => ({ captchaId: (await captcha()).captchaId, captcha: 'zzzz' })],
    ['an unknown captcha', async () => ({ captchaId: '00000000-0000-4000-8000-000000000000', captcha: 'abcd' })],
    ['a malformed id', async () => ({ captchaId: "1' or '1'='1", captcha: 'abcd' })],
    [
      'an expired captcha',
      async () => {
        const c = await captcha();
        await t.app.database.db.update(captchas).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(captchas.id, c.captchaId));
        return c;
      },
    ],
    [
      'a captcha already used',
      async () => {
        const c = await captcha();
        await t.app.captchaService.consume(c.captchaId, c.captcha);
        return c;
      },
    ],
  ])('refuses %s with the spec text, changing nothing', async (_name, make) => {
    const u = await newUser();
    const body = { account: u.account, oldPassword: u.password, newPassword: 'Fresh#2026', confirmPassword: 'Fresh#2026', ...(await make()) };
    const r = await change(body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errorcode: 'CAPTCHA_ERROR', errormsg: 'There is an error in the input of the verification code, please re-enter' });
    const zh = await change({ ...body, ...(await make()) }, { lang: 'zh-CN' });
    expect(zh.body.errormsg).toBe('验证码输入有误，请重新输入');
    await login(t.app, u.account, u.password);
  });

  it('a wrong answer uses the captcha up: the right answer afterwards is refused too', async () => {
    const u = await newUser();
    const c = await captcha();
    const body = { account: u.account, oldPassword: u.password, newPassword: 'Fresh#2026', confirmPassword: 'Fresh#2026' };
    expect((await change({ ...body, captchaId: c.captchaId, captcha: 'nope' })).status).toBe(400);
    expect((await change({ ...body, ...c })).body.errorcode).toBe('CAPTCHA_ERROR');
    // The answer is not case-sensitive.
    const d = await captcha();
    expect((await change({ ...body, captchaId: d.captchaId, captcha: d.captcha.toUpperCase() })).status).toBe(200);
  });

  it("answers 'Old password error' in both languages, and locks after five", async () => {
    const u = await newUser();
    const body = async (old: string) => ({ account: u.account, oldPassword: old, newPassword: 'Fresh#2026', confirmPassword: 'Fresh#2026', ...(await captcha()) });
    const en = await change(await body('Wrong#0001'));
    expect(en.status).toBe(400);
    expect(en.body).toMatchObject({ errorcode: 'OLD_PASSWORD_ERROR', errormsg: 'Old password error' });
    const zh = await change(await body('Wrong#0002'), { lang: 'zh-CN' });
    expect(zh.body.errormsg).toBe('原密码错误');
    for (let i = 3; i <= 5; i++) expect((await change(await body(`Wrong#000${i}`))).status).toBe(400);
    const locked = await change(await body(u.password));
    expect(locked.status).toBe(429);
    expect(locked.body.errorcode).toBe('TOO_MANY_ATTEMPTS');
    const failures = await t.app.database.db.select().from(auditLogs).where(eq(auditLogs.account, u.account));
    expect(failures.filter((f) => f.action === 'password_change' && f.result === 'failure')).toHaveLength(6);
  });

  it('an unknown account answers like a wrong original password', async () => {
    const r = await change({ account: 'nobody-here', oldPassword: 'Whatever#1', newPassword: 'Fresh#2026', confirmPassword: 'Fresh#2026', ...(await captcha()) });
    expect(r.status).toBe(400);
    expect(r.body.errorcode).toBe('OLD_PASSWORD_ERROR');
  });

  it('refuses a deactivated account', async () => {
    const u = await newUser();
    await t.app.database.db.update(users).set({ status: 'disabled' }).where(eq(users.id, u.user.id));
    const r = await change({ account: u.account, oldPassword: u.password, newPassword: 'Fresh#2026', confirmPassword: 'Fresh#2026', ...(await captcha()) });
    expect(r.status).toBe(403);
    expect(r.body.errormsg).toBe('Account number does not exist or has been deactivated, please re-enter');
  });

  it.each([
    [{ account: '' }, 'Account cannot be empty', '账号不能为空'],
    [{ oldPassword: '' }, 'Password cannot be empty', '密码不能为空'],
    [{ newPassword: 'weakweak', confirmPassword: 'weakweak' }, 'The password you entered is in the wrong format, please re-enter it', '您输入的密码格式有误，请重新输入'],
    [{ newPassword: 'has space 1', confirmPassword: 'has space 1' }, 'The password you entered is in the wrong format, please re-enter it', '您输入的密码格式有误，请重新输入'],
    [{ newPassword: 'Init#2026', confirmPassword: 'Init#2026' }, 'The new password you entered cannot be the same as the original password', '您输入的新密码不能与原密码相同'],
    [{ confirmPassword: 'Other#2026' }, 'The new password you entered is not the same as the confirmation password', '您输入的新密码与确认密码不一致'],
    [{ captcha: '' }, 'Please input the verification code', '请输入验证码'],
  ])('refuses %j with the spec message, changing nothing', async (patch, en, zh) => {
    const u = await newUser();
    const body = { account: u.account, oldPassword: u.password, newPassword: 'Fresh#2026', confirmPassword: 'Fresh#2026', ...(await captcha()), ...patch };
    const r = await change(body);
    expect(r.status).toBe(400);
    expect(r.body.errormsg).toBe(en);
    expect((await change(body, { lang: 'zh-CN' })).body.errormsg).toBe(zh);
    await login(t.app, u.account, u.password);
  });
});

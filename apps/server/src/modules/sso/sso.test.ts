// External sign-in against a real OpenID Connect provider started here: an unknown identity is
// led to the bind page, bound with an account's password (the spec's bindUser and its messages),
// then signs straight in; replays, another identity for the same account and deactivated
// accounts are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LoginData, UserInfo } from '@iotc/shared/auth';
import type { SsoConfig } from '@iotc/shared/account';
import { call, DEMO_PASSWORD, testApp, type TestApp } from '../../test/harness.ts';
import { OIDC_CLIENT, signInAtProvider, startOidcProvider } from '../../test/oidc.ts';
import { auditLogs, orgs, userIdentities, users } from '../../db/schema.ts';
import { addOrgUser } from '../../test/fixtures.ts';

const CONSOLE = 'http://console.test';
const CALLBACK = `${CONSOLE}/iot-cloud-auth/auth/v1/oauth/callback`;
let idp: Awaited<ReturnType<typeof startOidcProvider>>;
let t: TestApp;
let off: TestApp;

beforeAll(async () => {
  idp = await startOidcProvider([CALLBACK]);
  t = await testApp({
    oidc: { issuer: idp.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, name: 'Company SSO' },
    publicUrl: CONSOLE,
  });
  off = await testApp();
});
afterAll(async () => {
  await Promise.all([t.close(), off.close()]);
  await idp.close();
});

/** Login page -> provider -> back at the console's callback; answers where the console sends the browser. */
async function externalSignIn(subject: string): Promise<URL> {
  const start = await t.app.inject({ method: 'GET', url: '/iot-cloud-auth/auth/v1/oauth' });
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin).toBe(idp.issuer);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('redirect_uri')).toBe(CALLBACK);
  const back = await signInAtProvider(authorize.toString(), subject, CALLBACK);
  const res = await t.app.inject({ method: 'GET', url: back.pathname + back.search });
  expect(res.statusCode).toBe(302);
  return new URL(res.headers.location as string, CONSOLE);
}

const bind = (query: Record<string, string>, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<LoginData>(t.app, { method: 'GET', url: `/api/iot/v2/sso/auth/bindUser?${new URLSearchParams(query)}`, lang });

describe('external sign-in', () => {
  it('is offered on the login page only when a provider is configured', async () => {
    const on = await call<SsoConfig>(t.app, { method: 'GET', url: '/api/iot/v2/sso/config' });
    expect(on.body.data).toEqual({ enabled: true, name: 'Company SSO', startUrl: '/iot-cloud-auth/auth/v1/oauth' });
    const none = await call<SsoConfig>(off.app, { method: 'GET', url: '/api/iot/v2/sso/config' });
    expect(none.body.data).toMatchObject({ enabled: false, name: null });
    const start = await off.app.inject({ method: 'GET', url: '/iot-cloud-auth/auth/v1/oauth' });
    expect(start.headers.location).toBe('/login?ssoError=SSO_DISABLED');
  });

  it('binds an unknown identity with the account and password, then signs it straight in', async () => {
    const first = await externalSignIn('alice-ext');
    expect(first.pathname).toBe('/view/login/bindUserPage');
    const openid = first.searchParams.get('openid')!;
    expect(openid.length).toBeGreaterThan(30);

    expect((await bind({ openid, userCode: '', password: 'x' }, 'en-US')).body).toMatchObject({ errorcode: 'ACCOUNT_REQUIRED', errormsg: 'Account cannot be empty' });
    expect((await bind({ openid, userCode: 'demo', password: '' }, 'zh-CN')).body).toMatchObject({ errorcode: 'PASSWORD_REQUIRED', errormsg: '密码不能为空' });
    const wrong = await bind({ openid, userCode: 'demo', password: 'Wrong#2026' }, 'zh-CN');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ errorcode: 'USERNAME_PASSWORD_ERROR', errormsg: '用户名或密码错误，请重新输入' });
    expect((await bind({ openid, userCode: 'nobody', password: 'Wrong#2026' }, 'en-US')).body).toMatchObject({
      errorcode: 'USERNAME_PASSWORD_ERROR',
      errormsg: 'Username or password error, please re-enter',
    });
    expect((await bind({ openid: 'made-up', userCode: 'demo', password: DEMO_PASSWORD })).body.errorcode).toBe('BIND_EXPIRED');

    const bound = await bind({ openid, userCode: 'demo', password: DEMO_PASSWORD });
    expect(bound.status).toBe(200);
    expect(bound.body.data!.user.account).toBe('demo');
    const info = await call<UserInfo>(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/info', token: bound.body.data!.token });
    expect(info.body.data!.account).toBe('demo');
    // The pending sign-in is used up.
    expect((await bind({ openid, userCode: 'demo', password: DEMO_PASSWORD })).body).toMatchObject({
      errorcode: 'BIND_EXPIRED',
      errormsg: 'The external sign-in has expired, please sign in with the external account again',
    });

    const second = await externalSignIn('alice-ext');
    expect(second.pathname).toBe('/view/deviceManage/realTimeMonitoring');
    const token = second.searchParams.get('token')!;
    const me = await call<UserInfo>(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/info', token });
    expect(me.body.data!.account).toBe('demo');
    const actions = (await t.app.database.db.select().from(auditLogs).where(eq(auditLogs.account, 'demo'))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['sso_bind', 'sso_login']));
  });

  it('refuses a second identity of the same provider for one account, and a replayed answer', async () => {
    const bob = await externalSignIn('bob-ext');
    const openid = bob.searchParams.get('openid')!;
    const demoOrg = (await t.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
    await addOrgUser(t.app.database.db, { orgId: demoOrg, account: 'bob', password: 'Bob#20260', roleCodes: ['operator'] });
    // alice-ext is bound to demo already (previous test).
    const taken = await bind({ openid, userCode: 'demo', password: DEMO_PASSWORD }, 'zh-CN');
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ errorcode: 'ALREADY_BOUND', errormsg: '该账号已绑定其他第三方账号' });
    expect((await bind({ openid, userCode: 'bob', password: 'Bob#20260' })).status).toBe(200);
    const identities = await t.app.database.db.select().from(userIdentities);
    expect(identities.map((i) => i.subject).sort()).toEqual(['alice-ext', 'bob-ext']);

    // The same provider answer twice: the state was single use.
    const start = await t.app.inject({ method: 'GET', url: '/iot-cloud-auth/auth/v1/oauth' });
    const back = await signInAtProvider(start.headers.location as string, 'bob-ext', CALLBACK);
    expect((await t.app.inject({ method: 'GET', url: back.pathname + back.search })).headers.location).toMatch(/token=/);
    expect((await t.app.inject({ method: 'GET', url: back.pathname + back.search })).headers.location).toBe('/login?ssoError=BIND_EXPIRED');
    expect((await t.app.inject({ method: 'GET', url: '/iot-cloud-auth/auth/v1/oauth/callback?code=x&state=forged' })).headers.location).toBe(
      '/login?ssoError=BIND_EXPIRED',
    );
  });

  it('does not sign a deactivated account in through its identity', async () => {
    await t.app.database.db.update(users).set({ status: 'disabled' }).where(eq(users.account, 'bob'));
    const back = await externalSignIn('bob-ext');
    expect(back.pathname + back.search).toBe('/login?ssoError=ACCOUNT_DEACTIVATED');
    await t.app.database.db.update(users).set({ status: 'active' }).where(eq(users.account, 'bob'));
  });
});

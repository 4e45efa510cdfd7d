// Signing with the external sign-in's re-authentication instead of the password, against a real
// OpenID Connect provider started here: the console asks the provider for a forced sign-in again
// (prompt=login, max_age=0) of the identity bound to the signer; the provider's answer becomes a
// single-use proof that approves a warehouse record with a signature whose method is 'sso'.
// Refused: a proof used twice or by someone else, another identity at the provider, a sign-in
// that was not done again, and an account with no bound identity, in both languages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ACCOUNT_API, type SsoReauthStart } from '@iotc/shared/account';
import type { AssetRow } from '@iotc/shared/asset';
import { SIGNATURE_API, type SignatureRow } from '@iotc/shared/signature';
import { WAREHOUSE_API, type RecordRow } from '@iotc/shared/warehouse';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { OIDC_CLIENT, signInAtProvider, startOidcProvider } from '../../test/oidc.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { auditLogs, orgs, ssoFlows, userIdentities } from '../../db/schema.ts';

const CONSOLE = 'http://console.test';
const CALLBACK = `${CONSOLE}${ACCOUNT_API.oauthCallback}`;
let idp: Awaited<ReturnType<typeof startOidcProvider>>;
let t: TestApp;
let alice: string;
let bob: string;
let carol: string;
let operator: string;
let room: AssetRow;

type Lang = 'zh-CN' | 'en-US';
const api = <T>(method: 'GET' | 'POST', url: string, token: string | undefined, body?: unknown, lang: Lang = 'en-US') => call<T>(t.app, { method, url, token, body, lang });

/** The console window's start, the provider's sign-in as `login`, and the console's callback: where the re-authentication window lands. */
async function reauth(token: string, login: string, tamper?: () => Promise<void>): Promise<URL> {
  const start = await api<SsoReauthStart>('POST', ACCOUNT_API.ssoReauth, token);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  await tamper?.();
  const back = await signInAtProvider(start.body.data!.url, login, CALLBACK);
  const res = await t.app.inject({ method: 'GET', url: back.pathname + back.search });
  expect(res.statusCode).toBe(302);
  return new URL(res.headers.location as string, CONSOLE);
}
const proofOf = (landed: URL) => new URLSearchParams(landed.hash.slice(1)).get('proof');

async function pending(): Promise<RecordRow> {
  const res = await api<RecordRow>('POST', WAREHOUSE_API.records, operator, { locationId: room.id, direction: 'in', goodsName: '疫苗', batchNo: 'SSO-1', quantity: 5, unit: '箱', handler: '李娜' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
const statusOf = async (id: string) => (await api<RecordRow>('GET', WAREHOUSE_API.record(id), alice)).body.data!.auditStatus;

beforeAll(async () => {
  idp = await startOidcProvider([CALLBACK]);
  t = await testApp({ oidc: { issuer: idp.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, name: 'Company SSO' }, publicUrl: CONSOLE });
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  const [a, b] = await Promise.all([
    addOrgUser(db, { orgId: demoOrg, account: 'reauth-a', password: DEMO_PASSWORD, roleCodes: ['org_admin'] }),
    addOrgUser(db, { orgId: demoOrg, account: 'reauth-b', password: DEMO_PASSWORD, roleCodes: ['org_admin'] }),
    addOrgUser(db, { orgId: demoOrg, account: 'reauth-c', password: DEMO_PASSWORD, roleCodes: ['org_admin'] }),
  ]);
  // Bound as the bind page binds them (issuer as the provider names itself).
  await db.insert(userIdentities).values([
    { issuer: idp.issuer, subject: 'alice-idp', userId: a.id },
    { issuer: idp.issuer, subject: 'bob-idp', userId: b.id },
  ]);
  [alice, bob, carol, operator] = await Promise.all([
    login(t.app, 'reauth-a', DEMO_PASSWORD),
    login(t.app, 'reauth-b', DEMO_PASSWORD),
    login(t.app, 'reauth-c', DEMO_PASSWORD),
    login(t.app, 'demo', DEMO_PASSWORD),
  ]);
  const wh = await api<AssetRow>('POST', '/api/iot/v2/warehouses', alice, { code: 'SSO-WH', name: '重新验证仓' });
  room = (await api<AssetRow>('POST', '/api/iot/v2/cold-rooms', alice, { code: 'SSO-WH-C', name: '冷藏库', parentId: wh.body.data!.id, tempMin: 2, tempMax: 8 })).body.data!;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

describe('signing with the external sign-in again', () => {
  it('forces a new sign-in at the provider and approves with a signature made by sso', async () => {
    const start = await api<SsoReauthStart>('POST', ACCOUNT_API.ssoReauth, alice);
    const url = new URL(start.body.data!.url);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('prompt')).toBe('login');
    expect(url.searchParams.get('max_age')).toBe('0');
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);

    const landed = await reauth(alice, 'alice-idp');
    expect(landed.pathname).toBe(ACCOUNT_API.ssoReauthDone);
    const proof = proofOf(landed);
    expect(proof?.length).toBeGreaterThan(30);

    const r = await pending();
    const approved = await api<RecordRow>('POST', WAREHOUSE_API.approve(r.id), alice, { ssoProof: proof });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await statusOf(r.id)).toBe('approved');
    const sigs = (await api<SignatureRow[]>('GET', `${SIGNATURE_API.signatures}?recordType=warehouse_record&recordId=${r.id}`, alice)).body.data!;
    expect(sigs).toMatchObject([{ signerAccount: 'reauth-a', method: 'sso', meaning: 'approved', matches: true }]);
    const audited = await t.app.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'signature'), eq(auditLogs.result, 'success'), eq(auditLogs.account, 'reauth-a')));
    expect(audited).toHaveLength(1);

    // Single use: the same proof signs nothing more, in either language.
    const again = await pending();
    const en = await api('POST', WAREHOUSE_API.approve(again.id), alice, { ssoProof: proof });
    expect(en).toMatchObject({ status: 400, body: { errorcode: 'SSO_REAUTH_INVALID', errormsg: 'The external re-authentication is used or has expired: please verify again' } });
    const zh = await api('POST', WAREHOUSE_API.approve(again.id), alice, { ssoProof: proof }, 'zh-CN');
    expect(zh).toMatchObject({ status: 400, body: { errorcode: 'SSO_REAUTH_INVALID', errormsg: '第三方重新验证已使用或已过期，请重新验证' } });
    expect(await statusOf(again.id)).toBe('pending');
  });

  it("refuses another user's proof, and a proof past its five minutes", async () => {
    const r = await pending();
    const alicesProof = proofOf(await reauth(alice, 'alice-idp'))!;
    expect((await api('POST', WAREHOUSE_API.approve(r.id), bob, { ssoProof: alicesProof })).body).toMatchObject({ errorcode: 'SSO_REAUTH_INVALID' });
    expect(await statusOf(r.id)).toBe('pending');

    const late = proofOf(await reauth(bob, 'bob-idp'))!;
    await t.app.database.db.update(ssoFlows).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(ssoFlows.kind, 'proof'));
    expect((await api('POST', WAREHOUSE_API.approve(r.id), bob, { ssoProof: late })).body).toMatchObject({ errorcode: 'SSO_REAUTH_INVALID' });
    expect(await statusOf(r.id)).toBe('pending');
    // With neither proof nor password the password is asked for.
    expect((await api('POST', WAREHOUSE_API.approve(r.id), bob, {}, 'zh-CN')).body).toMatchObject({ errorcode: 'SIGNATURE_PASSWORD_REQUIRED', errormsg: '请输入登录密码以完成签名' });
  });

  it('gives no proof when another identity signs in at the provider, or when the sign-in was not done again', async () => {
    const before = (await t.app.database.db.select().from(ssoFlows).where(eq(ssoFlows.kind, 'proof'))).length;
    const other = await reauth(alice, 'mallory-idp');
    expect(other.pathname).toBe(ACCOUNT_API.ssoReauthDone);
    expect(other.hash).toBe('#error=SSO_REAUTH_MISMATCH');

    // The provider's sign-in is older than the console's request (its auth_time before the flow began).
    const stale = await reauth(alice, 'alice-idp', () => t.app.database.db.update(ssoFlows).set({ createdAt: sql`now() + interval '1 hour'` }).where(eq(ssoFlows.kind, 'reauth')).then(() => undefined));
    expect(stale.hash).toBe('#error=SSO_REAUTH_STALE');
    expect((await t.app.database.db.select().from(ssoFlows).where(eq(ssoFlows.kind, 'proof'))).length).toBe(before);
  });

  it('is refused to an account with no bound identity, and to no one signed in', async () => {
    const en = await api('POST', ACCOUNT_API.ssoReauth, carol);
    expect(en).toMatchObject({ status: 409, body: { errorcode: 'SSO_NOT_BOUND', errormsg: 'Your account is not bound to an external identity: sign with your password' } });
    const zh = await api('POST', ACCOUNT_API.ssoReauth, carol, undefined, 'zh-CN');
    expect(zh.body).toMatchObject({ errorcode: 'SSO_NOT_BOUND', errormsg: '您的账号未绑定第三方账号，请使用登录密码签名' });
    expect((await api('POST', ACCOUNT_API.ssoReauth, undefined)).status).toBe(401);
  });
});

describe('signing again at a provider that cannot be reached', () => {
  it('says the external sign-in failed, in the signer’s language', async () => {
    const down = await testApp({ oidc: { issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y', name: 'Down SSO' }, publicUrl: CONSOLE });
    try {
      const token = await login(down.app, 'demo', DEMO_PASSWORD);
      const res = await call(down.app, { method: 'POST', url: ACCOUNT_API.ssoReauth, token, lang: 'zh-CN' });
      expect(res).toMatchObject({ status: 502, body: { errorcode: 'SSO_FAILED', errormsg: '第三方登录失败，请重试' } });
    } finally {
      await down.close();
    }
  });
});

// The list convention on its first resource: audit-logs. Paging, allow-listed sorting, filters,
// organisation scoping, bad input, and export of the same query to CSV and Excel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { AuditLogRow } from '@iotc/shared/audit';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { auditLogs, orgs, signatures } from '../../db/schema.ts';
import { addOrgUser } from '../../test/fixtures.ts';

const LIST = '/api/iot/v2/audit-logs';
let t: TestApp;
let demo: string;
let admin: string;
let demoOrg: string;
let platformOrg: string;

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const all = await db.select().from(orgs);
  demoOrg = all.find((o) => o.code === 'demo')!.id;
  platformOrg = all.find((o) => o.code === 'platform')!.id;
  // 25 known entries of the demo organisation, one a minute, and 5 of the platform's.
  const base = Date.parse('2026-11-01T00:00:00Z');
  await db.insert(auditLogs).values([
    ...Array.from({ length: 25 }, (_, i) => ({
      orgId: demoOrg,
      at: new Date(base + i * 60_000),
      account: i % 5 === 0 ? 'Zhang_San' : `op${String(i).padStart(2, '0')}`,
      action: i % 2 ? 'logout' : 'login',
      result: (i % 3 ? 'success' : 'failure') as 'success' | 'failure',
      ip: '10.0.0.1',
      detail: i % 3 ? null : 'ACCOUNT_PASSWORD_ERROR',
    })),
    ...Array.from({ length: 5 }, (_, i) => ({
      orgId: platformOrg,
      at: new Date(base + i * 60_000),
      account: `root${i}`,
      action: 'login',
      result: 'success' as const,
    })),
  ]);
  // The demo organisation's administrator reads its log; the demo operator's role grants no log access.
  await addOrgUser(db, { orgId: demoOrg, account: 'demo-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  demo = await login(t.app, 'demo-admin', DEMO_PASSWORD);
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t.close();
});

const list = (token: string, query: string, lang?: 'zh-CN' | 'en-US') =>
  call<Page<AuditLogRow>>(t.app, { method: 'GET', url: `${LIST}?${query}`, token, lang });

describe('audit-logs list', () => {
  it('answers 403 No permission to a user whose roles do not grant the audit log', async () => {
    const operator = await login(t.app, 'demo', DEMO_PASSWORD);
    const r = await list(operator, '', 'zh-CN');
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ isSuccess: 'N', errorcode: 'NO_PERMISSION', errormsg: '暂无权限' });
    const file = await t.app.inject({ method: 'GET', url: `${LIST}/export?format=csv`, headers: { access_token: operator } });
    expect(file.statusCode).toBe(403);
  });

  it('records sign-in and sign-out with who, when and from where', async () => {
    const token = await login(t.app, 'demo', DEMO_PASSWORD);
    await call(t.app, { method: 'GET', url: '/iot-cloud-auth/auth/v1/logout', token });
    await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'demo', password: 'Wrong#999' } });
    const r = await list(demo, 'account=demo&size=10&sort=time,desc');
    expect(r.status).toBe(200);
    const [failed, out, signedIn] = r.body.data!.rows;
    expect(failed).toMatchObject({ account: 'demo', action: 'login', result: 'failure', detail: 'ACCOUNT_PASSWORD_ERROR', orgName: 'Demo Cold Chain Co.' });
    expect(out).toMatchObject({ action: 'logout', result: 'success' });
    expect(signedIn).toMatchObject({ action: 'login', result: 'success' });
    expect(signedIn!.ip).toBeTruthy();
    // Nothing secret is ever recorded.
    const raw = JSON.stringify(await t.app.database.db.select().from(auditLogs));
    expect(raw).not.toContain(DEMO_PASSWORD);
    expect(raw).not.toContain('Wrong#999');
    expect(raw).not.toContain(token);
  });

  it('attempts on unknown accounts go to the platform log, not to any tenant', async () => {
    await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'ghost', password: 'Nope#1234' } });
    expect((await list(demo, 'account=ghost')).body.data!.total).toBe(0);
    expect((await list(admin, 'account=ghost')).body.data!.rows[0]).toMatchObject({ orgName: 'IoT Cloud Platform', result: 'failure' });
  });

  it('pages with the list contract: rows, total, page, size', async () => {
    const p1 = await list(demo, 'account=op&page=1&size=10&sort=time,asc');
    expect(p1.body.data).toMatchObject({ total: 20, page: 1, size: 10 });
    expect(p1.body.data!.rows).toHaveLength(10);
    const p2 = await list(demo, 'account=op&page=2&size=10&sort=time,asc');
    const p3 = await list(demo, 'account=op&page=3&size=10&sort=time,asc');
    expect(p3.body.data!.rows).toHaveLength(0);
    const ids = [...p1.body.data!.rows, ...p2.body.data!.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(20);
    const times = [...p1.body.data!.rows, ...p2.body.data!.rows].map((r) => r.time);
    expect(times).toEqual([...times].sort());
  });

  it('defaults to page 1, size 10, newest first', async () => {
    const r = await list(demo, '');
    expect(r.body.data).toMatchObject({ page: 1, size: 10 });
    const times = r.body.data!.rows.map((row) => Date.parse(row.time));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('sorts by allow-listed fields only', async () => {
    const r = await list(demo, 'account=op&sort=account,desc&size=3');
    expect(r.body.data!.rows.map((x) => x.account)).toEqual(['op24', 'op23', 'op22']);
    const bad = await list(demo, 'sort=passwordHash,asc');
    expect(bad.status).toBe(400);
    expect(bad.body.errormsg).toContain('"passwordHash" cannot be sorted');
    expect((await list(demo, 'sort=time;drop table users,asc')).status).toBe(400);
    expect((await list(demo, 'sort=time,sideways')).status).toBe(400);
  });

  it('filters by account (literal, case-insensitive), action, result and time range', async () => {
    expect((await list(demo, 'account=zhang_san')).body.data!.total).toBe(5);
    // LIKE wildcards in the input are literal characters.
    expect((await list(demo, 'account=%25')).body.data!.total).toBe(0);
    expect((await list(demo, 'account=_')).body.data!.total).toBe(5);
    expect((await list(demo, 'action=logout&account=op')).body.data!.total).toBe(10);
    const failures = await list(demo, 'result=failure&account=op&size=100');
    expect(failures.body.data!.rows.every((r) => r.result === 'failure')).toBe(true);
    const range = await list(demo, 'timeFrom=2026-11-01T00:05:00Z&timeTo=2026-11-01T00:09:00Z&size=100');
    expect(range.body.data!.total).toBe(5);
    // An empty value is no filter.
    expect((await list(demo, 'account=&action=&result=&timeFrom=&timeTo=')).status).toBe(200);
  });

  it.each([
    ['page=0', 'Page'],
    ['page=abc', 'Page'],
    ['size=101', 'Page size'],
    ['size=-5', 'Page size'],
    ['action=delete_everything', 'Action'],
    ['result=maybe', 'Result'],
    ['timeFrom=yesterday', 'Start time'],
    [`account=${'x'.repeat(65)}`, 'Account'],
  ])('refuses %s with 400 naming the field', async (query, field) => {
    const r = await list(demo, query);
    expect(r.status).toBe(400);
    expect(r.body.errorcode).toBe('VALIDATION');
    expect(r.body.errormsg).toContain(field);
    const zh = await list(demo, query, 'zh-CN');
    expect(zh.body.errormsg).toMatch(/^请求参数有误/);
  });

  it("keeps organisations apart: a tenant never sees another organisation's rows", async () => {
    const mine = await list(demo, 'size=100');
    expect(mine.body.data!.rows.every((r) => r.orgId === demoOrg)).toBe(true);
    expect((await list(demo, 'account=root')).body.data!.total).toBe(0);
    // The platform administrator's tree holds every tenant.
    const all = await list(admin, 'account=root&size=100');
    expect(all.body.data!.total).toBe(5);
    expect((await list(admin, 'account=op')).body.data!.total).toBe(20);
    // A sibling tenant sees neither.
    const db = t.app.database.db;
    const [other] = await db.insert(orgs).values({ code: 'sib', name: 'Sibling', parentId: platformOrg }).returning();
    await db.insert(auditLogs).values({ orgId: other!.id, account: 'sibling-op', action: 'login', result: 'success' });
    expect((await list(demo, 'account=sibling')).body.data!.total).toBe(0);
    expect((await list(admin, 'account=sibling')).body.data!.total).toBe(1);
  });

  it('is append-only for everyone: the database refuses updates, deletes and truncation', async () => {
    const db = t.app.database.db;
    const [row] = await db.insert(auditLogs).values({ orgId: demoOrg, account: 'keeper', action: 'login', result: 'success' }).returning();
    await db.insert(signatures).values({ orgId: demoOrg, recordType: 'work_order', recordId: 'WO-1', meaning: 'approved', signerId: demoOrg, signerAccount: 'keeper', signerName: 'Keeper', method: 'password', recordHash: '0'.repeat(64) });
    for (const statement of [
      sql`update audit_logs set detail = 'changed' where id = ${row!.id}`,
      sql`delete from audit_logs where id = ${row!.id}`,
      sql`truncate audit_logs`,
      sql`update signatures set meaning = 'rejected'`,
      sql`delete from signatures`,
    ]) {
      await expect(db.execute(statement)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/is append-only: (UPDATE|DELETE|TRUNCATE) refused/) } });
    }
    const [kept] = await db.select().from(auditLogs).where(sql`${auditLogs.id} = ${row!.id}`);
    expect(kept).toMatchObject({ account: 'keeper', detail: null });
  });

  it("keeps a removed organisation's history as written, readable from the organisation above it", async () => {
    const made = await call<{ id: string }>(t.app, { method: 'POST', url: '/api/iot/v2/orgs', token: admin, body: { parentId: demoOrg, code: 'gone-branch', name: 'Gone Branch' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const gone = made.body.data!.id;
    await t.app.database.db.insert(auditLogs).values({ orgId: gone, account: 'branch-op', action: 'login', result: 'success' });
    expect((await call(t.app, { method: 'DELETE', url: `/api/iot/v2/orgs/${gone}`, token: admin })).status).toBe(200);
    const [row] = (await list(demo, 'account=branch-op')).body.data!.rows;
    expect(row).toMatchObject({ orgId: gone, orgName: 'Gone Branch', account: 'branch-op' });
  });

  it('needs a token', async () => {
    expect((await call(t.app, { method: 'GET', url: LIST })).status).toBe(401);
  });
});

describe('audit-logs export', () => {
  async function download(query: string, lang: string, tz = 'Asia/Shanghai') {
    return t.app.inject({ method: 'GET', url: `${LIST}/export?${query}`, headers: { access_token: demo, language: lang, timezone: tz } });
  }

  it('writes the same query to CSV in the request language and time zone', async () => {
    const res = await download('format=csv&account=Zhang_San&sort=time,asc', 'zh-CN');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename=".*\.csv"; filename\*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97/);
    const text = res.body.replace(/^\ufeff/, '');
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('时间,组织,账号,操作,结果,IP 地址,详情,客户端');
    expect(lines).toHaveLength(6);
    // 2026-11-01T00:00:00Z is 08:00 in Shanghai.
    expect(lines[1]).toMatch(/^2026-11-01 08:00:00,Demo Cold Chain Co\.,Zhang_San,登录,失败,10\.0\.0\.1,ACCOUNT_PASSWORD_ERROR,/);
  });

  it('writes Excel with English headers and UTC when asked so', async () => {
    const res = await download('format=xlsx&account=Zhang_San&sort=time,asc', 'en-US', 'UTC');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Audit log')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Time', 'Organisation', 'Account', 'Action', 'Result', 'IP address', 'Detail', 'Client']);
    expect(sheet.rowCount).toBe(6);
    expect(sheet.getRow(2).getCell(1).value).toBe('2026-11-01 00:00:00');
    expect(sheet.getRow(2).getCell(4).value).toBe('Sign in');
  });

  it('an unknown time zone falls back to UTC; a bad format is refused', async () => {
    const res = await download('format=csv&account=Zhang_San&sort=time,asc', 'en-US', 'Mars/Olympus');
    expect(res.body).toContain('2026-11-01 00:00:00');
    const bad = await download('format=pdf', 'en-US');
    expect(bad.statusCode).toBe(400);
  });

  it('exports only the caller organisation rows', async () => {
    const res = await download('format=csv&account=root', 'en-US');
    expect(res.body.trim().split('\n')).toHaveLength(1);
  });

  it('refuses more rows than an export may hold, with a clear text', async () => {
    const db = t.app.database.db;
    await db.execute(
      sql`insert into audit_logs (org_id, account, action, result) select ${demoOrg}::uuid, 'bulk', 'login', 'success' from generate_series(1, 100001)`,
    );
    const res = await download('format=csv&account=bulk', 'en-US');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorcode: 'EXPORT_TOO_LARGE', errormsg: 'Too many rows to export (at most 100,000): please narrow the filters' });
  });
});

// Share links end (issue 19): a link made without an expiry lasts 30 days, the maker may pick
// days or a date up to 5 years; an expired link (the service's clock moved on, or its expiry set
// in the database) and a revoked one answer 410 with their own code in the request's language,
// records and certificate alike, and a token never made 404; the organisation tree lists its
// links (paged, filtered, only the kinds the reader may read) and revokes them, audited by id and
// never by token; another organisation can neither list nor revoke them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { errorText } from '@iotc/shared/errors';
import { LEDGER_API, MAX_SHARE_EXPIRY_DAYS, type PublicRecordsAnswer, type ShareAnswer, type ShareRow } from '@iotc/shared/ledger/api';
import type { TaskDetail } from '@iotc/shared/transport';
import { auditLogs, ledgerShares, orgs, roleMenus, rolePermissions, roles } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { ledgerService } from './service.ts';

const DAY = 86_400_000;
let t: TestApp;
let admin: string;
/** Same organisation, transport:read only. */
let taskReader: string;
let rival: string;
/** Another organisation without any ledger permission. */
let outsider: string;
let demoOrg: string;
let device: DeviceWithSecret & { id: string };
let task: TaskDetail;

const api = <T>(method: 'GET' | 'POST', url: string, token?: string, body?: unknown, lang?: 'zh-CN' | 'en-US') => call<T>(t.app, { method, url, token, body, lang });
const db = () => t.app.database.db;
const range = () => ({ deviceId: device.id, from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() });
const share = async (body: Record<string, unknown>, token = admin) => {
  const made = await api<ShareAnswer>('POST', LEDGER_API.shares, token, body);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.data!;
};
const list = (token: string, query = '') => api<Page<ShareRow>>('GET', `${LEDGER_API.shares}${query}`, token);

beforeAll(async () => {
  t = await testApp();
  demoOrg = (await db().select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db(), { orgId: demoOrg, account: 'sh-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  const [role] = await db().insert(roles).values({ orgId: demoOrg, code: 'sh_tasks', nameZh: '任务查看', nameEn: 'Task reader' }).returning();
  await db().insert(rolePermissions).values({ roleId: role!.id, permission: 'transport:read' });
  // A role opens at least one screen, or its user cannot sign in.
  await db().insert(roleMenus).values({ roleId: role!.id, menuId: '102-monitor-live-device' });
  await addOrgUser(db(), { orgId: demoOrg, account: 'sh-tasks', password: DEMO_PASSWORD, roleCodes: ['sh_tasks'] });
  await createTenantUser(db(), { code: 'sh-rival', account: 'sh-rival', password: DEMO_PASSWORD, permissions: ['device:read', 'transport:read', 'warehouse:read'] });
  await createTenantUser(db(), { code: 'sh-outside', account: 'sh-outside', password: DEMO_PASSWORD, permissions: [] });
  admin = await login(t.app, 'sh-admin', DEMO_PASSWORD);
  taskReader = await login(t.app, 'sh-tasks', DEMO_PASSWORD);
  rival = await login(t.app, 'sh-rival', DEMO_PASSWORD);
  outsider = await login(t.app, 'sh-outside', DEMO_PASSWORD);
  const made = await api<DeviceWithSecret & { id: string }>('POST', '/api/iot/v2/devices', admin, { deviceId: 'SH00000001', name: 'Share tracker' });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  device = made.body.data!;
  const res = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', admin, {
    goodsName: 'Insulin',
    deviceIds: [device.id],
    origin: { name: 'Suzhou DC', lat: 31.3, lon: 120.6, radiusM: 500 },
    destination: { name: 'Wuxi Store', lat: 31.5, lon: 120.3, radiusM: 800 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  task = res.body.data!;
});
afterAll(async () => t?.close());

describe('a share link\'s expiry', () => {
  it('is 30 days unless the maker picks days or a date, never past 5 years', async () => {
    const before = Date.now();
    const plain = await share(range());
    const at = Date.parse(plain.expiresAt);
    expect(at).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(at).toBeLessThanOrEqual(Date.now() + 30 * DAY);
    const [stored] = await db().select().from(ledgerShares).where(eq(ledgerShares.id, plain.id));
    expect(stored).toMatchObject({ kind: 'device', createdBy: 'sh-admin', revokedAt: null });
    expect(stored!.expiresAt.toISOString()).toBe(plain.expiresAt);
    // Only the token's hash is kept.
    expect(JSON.stringify(stored)).not.toContain(plain.token);

    const week = await share({ ...range(), expiresInDays: 7 });
    expect(Date.parse(week.expiresAt) - Date.now()).toBeGreaterThan(6.99 * DAY);
    expect(Date.parse(week.expiresAt) - Date.now()).toBeLessThanOrEqual(7 * DAY);
    const date = new Date(Date.now() + 400 * DAY).toISOString();
    expect((await share({ taskId: task.id, expiresAt: date })).expiresAt).toBe(date);
    const public_ = await api<PublicRecordsAnswer>('GET', week.apiUrl);
    expect(public_.status).toBe(200);
    expect(public_.body.data!.expiresAt).toBe(week.expiresAt);

    for (const [body, code] of [
      [{ ...range(), expiresAt: new Date(Date.now() + (MAX_SHARE_EXPIRY_DAYS + 1) * DAY).toISOString() }, 'LEDGER_SHARE_EXPIRY_RANGE'],
      [{ ...range(), expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'LEDGER_SHARE_EXPIRY_RANGE'],
      [{ ...range(), expiresInDays: 7, expiresAt: date }, 'LEDGER_SHARE_EXPIRY_ONE'],
      [{ ...range(), expiresInDays: MAX_SHARE_EXPIRY_DAYS + 1 }, 'VALIDATION'],
      [{ ...range(), expiresInDays: 0 }, 'VALIDATION'],
    ] as const) {
      const refused = await api('POST', LEDGER_API.shares, admin, body, 'zh-CN');
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errorcode).toBe(code);
    }
  });

  it('ends the link: records and certificate answer 410 LEDGER_SHARE_EXPIRED in the request\'s language', async () => {
    const made = await share({ ...range(), expiresInDays: 1 });
    expect((await api('GET', made.apiUrl)).status).toBe(200);

    // The service's clock a day and a minute on: the same link has ended.
    const later = ledgerService(db(), { log: t.app.log, now: () => new Date(Date.now() + DAY + 60_000) });
    const ended = await later.shares.publicRecords(made.token).then(
      () => null,
      (e: unknown) => e,
    );
    expect(ended).toBeInstanceOf(AppError);
    expect(ended).toMatchObject({ statusCode: 410, code: 'LEDGER_SHARE_EXPIRED' });
    await expect(later.shares.verification(made.token, 'http://console.test')).rejects.toMatchObject({ statusCode: 410, code: 'LEDGER_SHARE_EXPIRED' });

    // Through the API once its expiry in the database has passed.
    await db().update(ledgerShares).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(ledgerShares.id, made.id));
    for (const lang of ['en-US', 'zh-CN'] as const) {
      for (const url of [made.apiUrl, LEDGER_API.certificate(made.token)]) {
        const res = await api('GET', url, undefined, undefined, lang);
        expect(res.status, url).toBe(410);
        expect(res.body).toMatchObject({ isSuccess: 'N', errorcode: 'LEDGER_SHARE_EXPIRED', errormsg: errorText('LEDGER_SHARE_EXPIRED', lang === 'zh-CN' ? 'zh' : 'en') });
      }
    }
    expect(errorText('LEDGER_SHARE_EXPIRED', 'zh')).toContain('已过期');
    const [row] = (await list(admin, `?status=expired&size=100`)).body.data!.rows.filter((r) => r.id === made.id);
    expect(row?.status).toBe('expired');
  });

  it('answers a token never made 404 LEDGER_SHARE_UNKNOWN', async () => {
    const res = await api('GET', LEDGER_API.public('x'.repeat(43)), undefined, undefined, 'zh-CN');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorcode: 'LEDGER_SHARE_UNKNOWN', errormsg: errorText('LEDGER_SHARE_UNKNOWN', 'zh') });
    expect((await api('GET', LEDGER_API.certificate('y'.repeat(43)))).status).toBe(404);
  });
});

describe('revoking a share link', () => {
  it('ends it at once, is audited by id (never by token), and a second revoke changes nothing', async () => {
    const made = await share({ taskId: task.id });
    expect((await api('GET', made.apiUrl)).status).toBe(200);
    const res = await api<ShareRow>('POST', LEDGER_API.revoke(made.id), admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id: made.id, kind: 'task', status: 'revoked', revokedBy: 'sh-admin', createdBy: 'sh-admin', subject: `${task.code} · Insulin` });
    for (const lang of ['en-US', 'zh-CN'] as const) {
      for (const url of [made.apiUrl, LEDGER_API.certificate(made.token)]) {
        const ended = await api('GET', url, undefined, undefined, lang);
        expect(ended.status, url).toBe(410);
        expect(ended.body).toMatchObject({ errorcode: 'LEDGER_SHARE_REVOKED', errormsg: errorText('LEDGER_SHARE_REVOKED', lang === 'zh-CN' ? 'zh' : 'en') });
      }
    }
    const again = await api<ShareRow>('POST', LEDGER_API.revoke(made.id), admin);
    expect(again.status).toBe(200);
    expect(again.body.data!.revokedAt).toBe(res.body.data!.revokedAt);

    const audited = await db().select().from(auditLogs).where(and(eq(auditLogs.orgId, demoOrg), sql`${auditLogs.detail} like ${`%${made.id}%`}`));
    expect(audited.map((a) => [a.action, a.account, a.result]).sort()).toEqual([
      ['ledger_share_create', 'sh-admin', 'success'],
      ['ledger_share_revoke', 'sh-admin', 'success'],
    ]);
    const everything = await db().select().from(auditLogs);
    expect(JSON.stringify(everything)).not.toContain(made.token);
    // The audit log's own list shows it under its action.
    const logged = await api<Page<{ action: string }>>('GET', '/api/iot/v2/audit-logs?action=ledger_share_revoke', admin);
    expect(logged.status, JSON.stringify(logged.body)).toBe(200);
    expect(logged.body.data!.total).toBeGreaterThanOrEqual(1);
  });

  it('is refused to another organisation (404) and to a reader without the scope\'s permission (403)', async () => {
    const made = await share(range());
    expect((await api('POST', LEDGER_API.revoke(made.id), rival)).status).toBe(404);
    expect((await api('POST', LEDGER_API.revoke(made.id), outsider)).status).toBe(404);
    expect((await api('POST', LEDGER_API.revoke(made.id), taskReader)).status).toBe(403);
    expect((await api('POST', LEDGER_API.revoke(made.id))).status).toBe(401);
    expect((await api('POST', LEDGER_API.revoke('00000000-0000-4000-8000-000000000000'), admin)).status).toBe(404);
    const [row] = await db().select().from(ledgerShares).where(eq(ledgerShares.id, made.id));
    expect(row!.revokedAt).toBeNull();
    expect((await api('GET', made.apiUrl)).status).toBe(200);
  });
});

describe('the list of share links', () => {
  it('pages the organisation tree\'s links with their status, filters them, and shows each reader only the kinds it may read', async () => {
    const page = await list(admin, '?page=1&size=2');
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const all = (await list(admin, '?size=100')).body.data!;
    expect(page.body.data).toMatchObject({ page: 1, size: 2, total: all.total });
    expect(page.body.data!.rows).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(6);
    // Newest first.
    const created = all.rows.map((r) => r.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    expect(new Set(all.rows.map((r) => r.status))).toEqual(new Set(['active', 'expired', 'revoked']));
    const deviceRow = all.rows.find((r) => r.kind === 'device')!;
    expect(deviceRow).toMatchObject({ subject: 'SH00000001 · Share tracker', from: expect.any(String), to: expect.any(String), orgName: expect.any(String) });
    expect(JSON.stringify(all)).not.toMatch(/token/i);

    const active = (await list(admin, '?status=active&size=100')).body.data!;
    expect(active.rows.every((r) => r.status === 'active')).toBe(true);
    expect(active.total).toBe(all.rows.filter((r) => r.status === 'active').length);
    const tasks = (await list(admin, '?kind=task&size=100')).body.data!;
    expect(tasks.rows.length).toBeGreaterThan(0);
    expect(tasks.rows.every((r) => r.kind === 'task')).toBe(true);
    const byExpiry = (await list(admin, '?sort=expiresAt,asc&size=100')).body.data!.rows.map((r) => r.expiresAt);
    expect([...byExpiry].sort()).toEqual(byExpiry);
    expect((await list(admin, '?sort=token,asc')).status).toBe(400);

    // A reader of tasks only sees task links.
    const forTasks = (await list(taskReader, '?size=100')).body.data!;
    expect(forTasks.total).toBe(tasks.total);
    expect(forTasks.rows.every((r) => r.kind === 'task')).toBe(true);

    // Another organisation sees none of them; one without any ledger permission is refused.
    const theirs = await list(rival);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data!.total).toBe(0);
    expect((await list(outsider)).status).toBe(403);
    expect((await list('')).status).toBe(401);
  });
});

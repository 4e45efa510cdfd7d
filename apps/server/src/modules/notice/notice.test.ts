// Platform notices (issue 26 item 5): only the platform administrator lists, publishes and
// withdraws them (a user of an organisation holding every permission is refused 403); bad input is
// refused in both languages; a notice for organisation A's tree reaches A, the organisation below
// A, and not B, in their inboxes and over the live bus; one for everyone reaches B too; withdrawing
// takes it out of every inbox; both are audited. On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import { INBOX_API, type InboxItem } from '@iotc/shared/inbox';
import { NOTICE_API, type NoticeRow } from '@iotc/shared/notice';
import { PERMISSION_CODES } from '@iotc/shared/platform';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';
import { auditLogs, orgs } from '../../db/schema.ts';
import { localBus, type LiveEvent } from '../../realtime/bus.ts';

type Lang = 'zh-CN' | 'en-US';
let t: TestApp;
let admin: string;
let userA: string;
let userChild: string;
let userB: string;
const ids = { orgA: '', a: '', child: '', b: '' };
const events: LiveEvent[] = [];

const api = <T>(method: 'GET' | 'POST' | 'DELETE', url: string, token: string | undefined, body?: unknown, lang: Lang = 'en-US') => call<T>(t.app, { method, url, token, body, lang });
const inbox = async (token: string, lang: Lang = 'en-US') => (await api<Page<InboxItem>>('GET', `${INBOX_API.list}?filter=notices`, token, undefined, lang)).body.data!.rows.map((i) => i.title);
const unread = async (token: string) => (await api<{ unread: number }>('GET', INBOX_API.unreadCount, token)).body.data!.unread;
const inboxTold = () => events.flatMap((e) => (e.type === 'inbox' ? e.userIds : []));

const NOTICE = { titleZh: '冷库停电演练', titleEn: 'Cold store power drill', bodyZh: '周六 22:00 开始', bodyEn: 'Saturday from 22:00', level: 'warning' };

beforeAll(async () => {
  const bus = localBus();
  bus.subscribe((e) => void events.push(e));
  t = await testApp({ alarmTickMs: 3_600_000 }, { bus });
  const db = t.app.database.db;
  const a = await createTenantUser(db, { code: 'nt-a', account: 'nt-a', password: DEMO_PASSWORD, permissions: PERMISSION_CODES, orgName: 'Notice A' });
  const child = await createTenantUser(db, { code: 'nt-a-child', account: 'nt-a-child', password: DEMO_PASSWORD, orgName: 'Notice A branch' });
  await db.update(orgs).set({ parentId: a.org.id }).where(eq(orgs.id, child.org.id));
  const b = await createTenantUser(db, { code: 'nt-b', account: 'nt-b', password: DEMO_PASSWORD, orgName: 'Notice B' });
  Object.assign(ids, { orgA: a.org.id, a: a.user.id, child: child.user.id, b: b.user.id });
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  userA = await login(t.app, 'nt-a', DEMO_PASSWORD);
  userChild = await login(t.app, 'nt-a-child', DEMO_PASSWORD);
  userB = await login(t.app, 'nt-b', DEMO_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const audited = async (action: string) =>
  (await t.app.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, action), eq(auditLogs.account, 'admin')))).map((r) => r.detail);

describe('platform notices', () => {
  it("are the platform administrator's alone: a user holding every permission gets 403, no session 401", async () => {
    const list = await api('GET', NOTICE_API.notices, userA, undefined, 'zh-CN');
    expect(list.status).toBe(403);
    expect(list.body).toMatchObject({ errorcode: 'NO_PERMISSION', errormsg: '暂无权限' });
    expect((await api('POST', NOTICE_API.notices, userA, NOTICE)).status).toBe(403);
    expect((await api('DELETE', NOTICE_API.one('00000000-0000-4000-8000-000000000001'), userA)).status).toBe(403);
    expect((await api('GET', NOTICE_API.notices, undefined)).status).toBe(401);
    expect((await api<Page<NoticeRow>>('GET', NOTICE_API.notices, admin)).body.data!.total).toBe(0);
  });

  it('refuses a missing title, an unknown level or audience, in both languages', async () => {
    const en = await api('POST', NOTICE_API.notices, admin, { ...NOTICE, titleEn: ' ' });
    expect(en.status).toBe(400);
    expect(en.body).toMatchObject({ errorcode: 'NOTICE_TITLE_EN_REQUIRED', errormsg: 'Please give the title in English' });
    const zh = await api('POST', NOTICE_API.notices, admin, { ...NOTICE, titleZh: '' }, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body.errormsg).toBe('请填写中文标题');
    const missing = await api('POST', NOTICE_API.notices, admin, { titleZh: '标题' }, 'zh-CN');
    expect(missing.body.errormsg).toBe('请填写英文标题');
    const level = await api('POST', NOTICE_API.notices, admin, { ...NOTICE, level: 'urgent' }, 'zh-CN');
    expect(level.status).toBe(400);
    expect(level.body.errormsg).toContain('级别');
    const org = await api('POST', NOTICE_API.notices, admin, { ...NOTICE, orgId: '00000000-0000-4000-8000-000000000001' }, 'zh-CN');
    expect(org.status).toBe(400);
    expect(org.body).toMatchObject({ errorcode: 'NOTICE_ORG_UNKNOWN', errormsg: '所选受众组织不存在' });
    expect((await api<Page<NoticeRow>>('GET', NOTICE_API.notices, admin)).body.data!.total).toBe(0);
  });

  it("a notice for A's tree reaches A and the organisation below it, live, and never B", async () => {
    events.length = 0;
    const res = await api<NoticeRow>('POST', NOTICE_API.notices, admin, { ...NOTICE, orgId: ids.orgA });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ titleEn: NOTICE.titleEn, level: 'warning', orgId: ids.orgA, orgName: 'Notice A' });
    expect(inboxTold()).toEqual(expect.arrayContaining([ids.a, ids.child]));
    expect(inboxTold()).not.toContain(ids.b);
    expect(await inbox(userA)).toEqual(['Cold store power drill']);
    expect(await inbox(userA, 'zh-CN')).toEqual(['冷库停电演练']);
    expect(await inbox(userChild)).toEqual(['Cold store power drill']);
    expect(await inbox(userB)).toEqual([]);
    expect(await unread(userB)).toBe(0);
    expect(await audited('notice_publish')).toEqual(['Cold store power drill (warning, to Notice A)']);
  });

  it('a notice for everyone reaches B as well; the list is newest first, a page at a time', async () => {
    events.length = 0;
    const res = await api<NoticeRow>('POST', NOTICE_API.notices, admin, { titleZh: '系统升级', titleEn: 'System upgrade' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ level: 'info', orgId: null, orgName: null, bodyEn: '' });
    expect(inboxTold()).toEqual(expect.arrayContaining([ids.a, ids.child, ids.b]));
    expect(await inbox(userB)).toEqual(['System upgrade']);
    expect(await inbox(userA)).toEqual(['System upgrade', 'Cold store power drill']);
    const page = (await api<Page<NoticeRow>>('GET', `${NOTICE_API.notices}?page=2&size=1`, admin)).body.data!;
    expect(page).toMatchObject({ total: 2, page: 2, size: 1, rows: [{ titleEn: 'Cold store power drill', orgName: 'Notice A' }] });
  });

  it('withdrawing one takes it out of every inbox and its unread count, audited; a second withdraw is 404', async () => {
    const rows = (await api<Page<NoticeRow>>('GET', NOTICE_API.notices, admin)).body.data!.rows;
    const drill = rows.find((r) => r.titleEn === 'Cold store power drill')!;
    expect(await unread(userA)).toBe(2);
    expect((await api('POST', INBOX_API.read, userA, { ids: [drill.id] })).status).toBe(200);
    expect(await unread(userChild)).toBe(2);
    events.length = 0;
    const res = await api('DELETE', NOTICE_API.one(drill.id), admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(inboxTold()).toEqual(expect.arrayContaining([ids.a, ids.child]));
    expect(await inbox(userA)).toEqual(['System upgrade']);
    expect(await inbox(userChild)).toEqual(['System upgrade']);
    expect(await unread(userChild)).toBe(1);
    expect(await unread(userA)).toBe(1);
    expect((await api<Page<NoticeRow>>('GET', NOTICE_API.notices, admin)).body.data!.rows.map((r) => r.titleEn)).toEqual(['System upgrade']);
    expect(await audited('notice_withdraw')).toEqual(['Cold store power drill (warning)']);
    expect((await api('DELETE', NOTICE_API.one(drill.id), admin)).status).toBe(404);
  });
});

// The header's inbox: an alarm pushed in-app to a user is in that user's inbox with the platform
// notices for them (in the request language), newest first; the unread count, marking one and
// all read; a live 'inbox' event for the recipient; and neither a colleague of the same
// organisation nor a user of another one sees or marks it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRow, LevelRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { INBOX_API, type InboxCount, type InboxItem, type InboxMarked } from '@iotc/shared/inbox';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { eq } from 'drizzle-orm';
import { alarms, notices } from '../../db/schema.ts';
import { localBus, type LiveEvent } from '../../realtime/bus.ts';

const PERMS = ['alarm:read', 'alarm:write', 'alarm:handle', 'device:read', 'device:write', 'transport:read', 'transport:write'];

let t: TestApp;
let admin: string;
let mate: string;
let rival: string;
let adminId: string;
const events: LiveEvent[] = [];
let alarm: AlarmRow;

type Lang = 'zh-CN' | 'en-US';
const api = <T>(method: 'GET' | 'POST', url: string, token: string, body?: unknown, lang: Lang = 'en-US') => call<T>(t.app, { method, url, token, body, lang });
const list = async (token: string, q = '', lang: Lang = 'en-US') => {
  const res = await api<Page<InboxItem>>('GET', `${INBOX_API.list}${q}`, token, undefined, lang);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
};
const unread = async (token: string) => (await api<InboxCount>('GET', INBOX_API.unreadCount, token)).body.data!.unread;
const mark = async (token: string, ids: string[]) => (await api<InboxMarked>('POST', INBOX_API.read, token, { ids })).body.data!.marked;

beforeAll(async () => {
  const bus = localBus();
  bus.subscribe((e) => void (e.type === 'inbox' && events.push(e)));
  t = await testApp({ alarmTickMs: 3_600_000 }, { bus });
  const db = t.app.database.db;
  const mine = await createTenantUser(db, { code: 'inbox-co', account: 'inbox-admin', password: DEMO_PASSWORD, permissions: PERMS, orgName: 'Inbox Cold Chain' });
  adminId = mine.user.id;
  await addOrgUser(db, { orgId: mine.org.id, account: 'inbox-mate', password: DEMO_PASSWORD, roleCodes: ['op'] });
  const theirs = await createTenantUser(db, { code: 'inbox-rival', account: 'inbox-rival', password: DEMO_PASSWORD, permissions: PERMS });
  const hour = 3_600_000;
  await db.insert(notices).values([
    { titleZh: '全体公告', titleEn: 'To everyone', bodyZh: '正文', bodyEn: 'Body', publishedAt: new Date(Date.now() - 3 * hour) },
    { orgId: mine.org.id, titleZh: '本组织公告', titleEn: 'To Inbox Cold Chain', level: 'important', publishedAt: new Date(Date.now() - 2 * hour) },
    { orgId: theirs.org.id, titleZh: '对手公告', titleEn: 'To the rival', publishedAt: new Date(Date.now() - hour) },
  ]);
  admin = await login(t.app, 'inbox-admin', DEMO_PASSWORD);
  mate = await login(t.app, 'inbox-mate', DEMO_PASSWORD);
  rival = await login(t.app, 'inbox-rival', DEMO_PASSWORD);

  // A device too warm above 8 °C, a rule pushing in-app to inbox-admin, and a report at 9.5 °C.
  const levels = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', admin)).body.data!.rows;
  const dev = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId: 'INBOX-REEFER', name: 'Inbox reefer' })).body.data!;
  const policy = await api<{ id: string }>('POST', '/api/iot/v2/alarm-policies', admin, {
    name: 'Inbox too warm',
    scope: 'devices',
    targets: [dev.id],
    rules: [{ id: 'hot', type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: levels[0]!.id }],
  });
  expect(policy.status, JSON.stringify(policy.body)).toBe(200);
  const rule = await api('POST', '/api/iot/v2/push-rules', admin, {
    name: 'Inbox rule',
    language: 'en',
    timezone: 'Asia/Shanghai',
    events: ['opened'],
    match: { policyIds: [policy.body.data!.id] },
    steps: [{ afterMinutes: 0, channels: ['in_app'], userIds: [adminId] }],
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(200);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: `Basic ${Buffer.from(`${dev.deviceId}:${dev.secret}`).toString('base64')}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: dev.deviceId, time: new Date().toISOString(), lat: 31.2, lon: 121.5, extraData: '{"3":{"temp":95}}' }),
  });
  expect(res.statusCode).toBe(200);
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
  await t.app.push.settled();
  alarm = (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${dev.id}&status=active`, admin)).body.data!.rows[0]!;
  expect(alarm).toBeDefined();
});
afterAll(async () => {
  await t.close();
});

describe('inbox', () => {
  it("lists the recipient's in-app alarm and the notices for them, newest first, in the request language", async () => {
    const en = await list(admin);
    expect(en.rows.map((i) => [i.kind, i.title, i.read])).toEqual([
      ['alarm', '[Urgent] Temperature high: Inbox reefer', false],
      ['notice', 'To Inbox Cold Chain', false],
      ['notice', 'To everyone', false],
    ]);
    expect(en.rows[0]).toMatchObject({ alarmId: alarm.id, level: null });
    expect(en.rows[1]).toMatchObject({ alarmId: null, level: 'important' });
    expect(en.total).toBe(3);
    const zh = await list(admin, '?page=2&size=2', 'zh-CN');
    expect(zh).toMatchObject({ total: 3, page: 2, size: 2, rows: [{ title: '全体公告', body: '正文' }] });
    expect(await unread(admin)).toBe(3);
    // The recipient's open tabs were told.
    expect(events.some((e) => e.type === 'inbox' && e.userIds.includes(adminId))).toBe(true);
  });

  it("an alarm of a transport task links to the task as well", async () => {
    expect((await list(admin)).rows[0]).toMatchObject({ alarmId: alarm.id, taskId: null, taskCode: null });
    const task = await api<{ id: string; code: string }>('POST', '/api/iot/v2/transport-tasks', admin, {
      goodsName: 'Vaccines',
      deviceIds: [alarm.device.id],
      origin: { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 },
      destination: { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 },
    });
    expect(task.status, JSON.stringify(task.body)).toBe(200);
    // The alarm as a task's alarm policy raises it (the task's own rule would on the next report).
    await t.app.database.db.update(alarms).set({ taskId: task.body.data!.id }).where(eq(alarms.id, alarm.id));
    const [item] = (await list(admin)).rows;
    expect(item).toMatchObject({ alarmId: alarm.id, taskId: task.body.data!.id, taskCode: task.body.data!.code });
    expect((await list(admin)).rows.slice(1).every((i) => i.taskId === null && i.taskCode === null)).toBe(true);
  });

  it('filters alarms or notices alone, with their own totals', async () => {
    const alarmsOnly = await list(admin, '?filter=alarms');
    expect(alarmsOnly.rows.map((i) => i.kind)).toEqual(['alarm']);
    expect(alarmsOnly.total).toBe(1);
    const noticesOnly = await list(admin, '?filter=notices');
    expect(noticesOnly.rows.map((i) => i.title)).toEqual(['To Inbox Cold Chain', 'To everyone']);
    expect(noticesOnly.total).toBe(2);
    expect((await list(mate, '?filter=alarms')).total).toBe(0);
  });

  it('marks one read, then all; the unread filter and the count follow', async () => {
    const [item] = (await list(admin)).rows;
    events.length = 0;
    expect(await mark(admin, [item!.id])).toBe(1);
    expect(await mark(admin, [item!.id])).toBe(0);
    expect(events).toEqual([{ type: 'inbox', userIds: [adminId] }]);
    expect(await unread(admin)).toBe(2);
    expect((await list(admin)).rows[0]).toMatchObject({ id: item!.id, read: true });
    expect((await list(admin, '?filter=unread')).rows.map((i) => i.title)).toEqual(['To Inbox Cold Chain', 'To everyone']);
    expect((await api<InboxMarked>('POST', INBOX_API.readAll, admin)).body.data).toEqual({ marked: 2 });
    expect(await unread(admin)).toBe(0);
    expect((await list(admin, '?filter=unread')).total).toBe(0);
    expect((await list(admin)).rows.every((i) => i.read)).toBe(true);
  });

  it("a colleague of the same organisation sees the organisation's notices, not the alarm, and cannot mark it", async () => {
    const theirs = await list(mate);
    expect(theirs.rows.map((i) => i.kind)).toEqual(['notice', 'notice']);
    const delivery = (await list(admin)).rows.find((i) => i.kind === 'alarm')!;
    expect(await mark(mate, [delivery.id])).toBe(0);
    // Reads are each user's own: the administrator's marks left the colleague's notices unread.
    expect(await unread(mate)).toBe(2);
    expect((await api<InboxMarked>('POST', INBOX_API.readAll, mate)).body.data).toEqual({ marked: 2 });
    expect(await unread(mate)).toBe(0);
  });

  it('a user of another organisation sees neither the alarm nor the notices of that organisation, and marks nothing of them', async () => {
    const theirs = await list(rival);
    expect(theirs.rows.map((i) => i.title)).toEqual(['To the rival', 'To everyone']);
    const mine = (await list(admin)).rows;
    expect(await mark(rival, mine.filter((i) => i.title !== 'To everyone').map((i) => i.id))).toBe(0);
    expect(await unread(rival)).toBe(2);
  });

  it('refuses a bad body or filter, and callers without a session', async () => {
    expect((await api('POST', INBOX_API.read, admin, { ids: [] })).status).toBe(400);
    expect((await api('POST', INBOX_API.read, admin, { ids: ['not-a-uuid'] })).status).toBe(400);
    expect((await api('GET', `${INBOX_API.list}?filter=some`, admin)).status).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: INBOX_API.unreadCount })).statusCode).toBe(401);
  });
});

// Scheduled reports end to end: the resource with its refusals (nothing stored), another
// organisation sees and touches none of it; the scheduler's tick (its clock given, no sleeping)
// mails one PDF per recipient to a local SMTP server for the previous period, records the run
// and moves the next slot; a second tick and a second node send nothing more; a run after
// downtime sends once; "send now" is recorded manual (each kind of report); a refused mailbox
// fails the run with its reason; without SMTP the run is 'outbox'; a disabled schedule never
// runs; a creator who left or a deleted asset makes a failed run with the reason.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { Page } from '@iotc/shared/envelope';
import { nextRunAt, previousPeriod, type ScheduleInput, type ScheduleRow, type ScheduleRun } from '@iotc/shared/ops-report';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { assets, auditLogs, devices, orgs, outbox, reportScheduleRuns, reportSchedules, users } from '../../db/schema.ts';
import { messenger } from '../../lib/messenger.ts';
import { gspService } from '../report/gsp.ts';
import { reportMakers } from './makers.ts';
import { reportScheduler } from './runner.ts';

const URL = '/api/iot/v2/report-schedules';
const TZ = 'Asia/Shanghai';
const MIN = 60_000;
const DAY = 86_400_000;

interface Mail {
  to: string;
  subject: string;
  text: string;
  files: { filename: string; mimeType: string; content: Buffer }[];
}
const mails: Mail[] = [];
let smtp: SMTPServer;

let t: TestApp;
let operator: string;
let rival: string;
let bystander: string;
let demoOrg: string;
let room: string;
let gateway: string;
let rivalRoom: string;
let demoDevice: string;
let rivalDevice: string;

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token = operator, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<T>(t.app, { method, url, token, body, lang });
const mailsTo = (...to: string[]) => mails.filter((m) => to.includes(m.to));
const body = (over: Partial<ScheduleInput> = {}): ScheduleInput => ({
  name: 'Cold room daily',
  kind: 'temperature',
  frequency: 'daily',
  hour: 7,
  timezone: TZ,
  lang: 'en',
  format: 'pdf',
  subjectIds: [room],
  recipients: ['qa@example.com'],
  ...over,
});
async function create(over: Partial<ScheduleInput> = {}, token = operator): Promise<ScheduleRow> {
  const res = await api<ScheduleRow>('POST', URL, token, body(over));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function runsOf(id: string): Promise<ScheduleRun[]> {
  const res = await api<Page<ScheduleRun>>('GET', `${URL}/${id}/runs?size=50`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!.rows;
}
async function tickAt(ms: number) {
  await t.app.reportScheduler.tick(ms);
  await t.app.reportScheduler.settled();
}
const storedCount = async () => Number((await t.app.database.db.select({ n: count() }).from(reportSchedules))[0]!.n);

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // One mailbox that does not exist.
    onRcptTo(address, _session, cb) {
      if (address.address === 'bounce@example.com') return cb(Object.assign(new Error('No such user'), { responseCode: 550 }));
      cb();
    },
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        void PostalMime.parse(Buffer.concat(chunks)).then(
          (m) => {
            mails.push({
              to: m.to?.[0]?.address ?? '',
              subject: m.subject ?? '',
              text: m.text ?? '',
              files: m.attachments.map((a) => ({ filename: a.filename ?? '', mimeType: a.mimeType, content: Buffer.from(a.content as ArrayBuffer) })),
            });
            cb();
          },
          (err: Error) => cb(err),
        ),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  t = await testApp({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` });
  const db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  const theirs = await createTenantUser(db, { code: 'rival-sched', account: 'rival-sched', password: DEMO_PASSWORD, permissions: ['report:schedule', 'device:read'] });
  // Signs in, but may not manage scheduled reports.
  await createTenantUser(db, { code: 'bystander-sched', account: 'bystander-sched', password: DEMO_PASSWORD, permissions: ['device:read'] });
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  rival = await login(t.app, 'rival-sched', DEMO_PASSWORD);
  bystander = await login(t.app, 'bystander-sched', DEMO_PASSWORD);

  const mine = await db.insert(assets).values([
    { orgId: demoOrg, kind: 'cold_room', code: 'CR-SCHED', name: 'Schedule cold room', attrs: {}, tempMin: 2, tempMax: 8 },
    { orgId: demoOrg, kind: 'gateway', code: 'GW-SCHED', name: 'Schedule gateway', attrs: {} },
  ]).returning();
  room = mine[0]!.id;
  gateway = mine[1]!.id;
  const [theirRoom] = await db.insert(assets).values({ orgId: theirs.org.id, kind: 'cold_room', code: 'CR-RIVAL', name: 'Rival room', attrs: {} }).returning();
  rivalRoom = theirRoom!.id;
  const [mineDev, theirDev] = await db
    .insert(devices)
    .values([
      { orgId: demoOrg, deviceId: 'SCHED-DEV-1', name: 'Schedule logger', secretHash: 'x' },
      { orgId: theirs.org.id, deviceId: 'SCHED-RIVAL-1', name: 'Rival logger', secretHash: 'x' },
    ])
    .returning();
  demoDevice = mineDev!.id;
  rivalDevice = theirDev!.id;
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('the resource', () => {
  it('refuses bad schedules with a clear error and stores nothing', async () => {
    const cases: [Partial<ScheduleInput>, number, string][] = [
      [{ frequency: 'weekly' }, 400, 'VALIDATION'],
      [{ subjectIds: [room, gateway] }, 400, 'VALIDATION'],
      [{ subjectIds: [rivalRoom] }, 400, 'REPORT_SCHEDULE_ASSET_UNKNOWN'],
      [{ subjectIds: ['8f4c1d7e-0000-4000-8000-000000000000'] }, 400, 'REPORT_SCHEDULE_ASSET_UNKNOWN'],
      [{ subjectIds: [gateway] }, 400, 'GSP_ASSET_KIND'],
      [{ kind: 'alarm', subjectIds: [room, rivalRoom] }, 400, 'REPORT_SCHEDULE_ASSET_UNKNOWN'],
      [{ kind: 'online', subjectIds: [rivalDevice] }, 400, 'REPORT_SCHEDULE_DEVICE_UNKNOWN'],
      [{ kind: 'online', subjectIds: [room] }, 400, 'REPORT_SCHEDULE_DEVICE_UNKNOWN'],
      [{ recipients: ['not-an-address'] }, 400, 'VALIDATION'],
      [{ recipients: [] }, 400, 'VALIDATION'],
      [{ timezone: 'Mars/Olympus_Mons' }, 400, 'VALIDATION'],
      [{ hour: 24 }, 400, 'VALIDATION'],
      [{ name: '  ' }, 400, 'VALIDATION'],
    ];
    for (const [over, status, code] of cases) {
      const res = await api('POST', URL, operator, body(over));
      expect([res.status, res.body.errorcode], JSON.stringify(over)).toEqual([status, code]);
      expect(res.body.errormsg).toBeTruthy();
    }
    // In Chinese too.
    const zh = await api('POST', URL, operator, body({ subjectIds: [rivalRoom] }), 'zh-CN');
    expect(zh.body.errormsg).toBe('定时报表的资产在您的组织下不存在');
    expect(await storedCount()).toBe(0);
  });

  it('creates, lists with filters, reads, changes, disables, enables and deletes, with audit records', async () => {
    const before = Date.now();
    const daily = await create({ name: 'Room daily' });
    expect(daily).toMatchObject({ kind: 'temperature', frequency: 'daily', hour: 7, enabled: true, lastRunAt: null, lastStatus: null, subjectIds: [room] });
    const expected = nextRunAt('daily', 7, TZ, before);
    expect([expected, nextRunAt('daily', 7, TZ, Date.now())]).toContain(Date.parse(daily.nextRunAt!));
    const online = await create({ name: 'Online weekly', kind: 'online', frequency: 'weekly', subjectIds: [demoDevice, demoDevice], lang: 'zh', format: 'xlsx', enabled: false });
    expect(online.subjectIds).toEqual([demoDevice]);
    expect(online.nextRunAt).toBeNull();
    const all = await create({ name: 'Alarms monthly, all assets', kind: 'alarm', frequency: 'monthly', subjectIds: [] });
    expect([nextRunAt('monthly', 7, TZ, before), nextRunAt('monthly', 7, TZ, Date.now())]).toContain(Date.parse(all.nextRunAt!));

    const list = (q: string) => api<Page<ScheduleRow>>('GET', `${URL}?${q}`).then((r) => r.body.data!);
    expect((await list('size=10')).total).toBe(3);
    expect((await list('kind=online')).rows.map((r) => r.id)).toEqual([online.id]);
    expect((await list('enabled=false')).rows.map((r) => r.id)).toEqual([online.id]);
    expect((await list('enabled=true&sort=name,asc')).rows.map((r) => r.name)).toEqual(['Alarms monthly, all assets', 'Room daily']);
    expect((await list('keyword=weekly')).total).toBe(1);
    const page2 = await list('size=2&page=2&sort=name,asc');
    expect([page2.total, page2.rows.length, page2.rows[0]!.name]).toEqual([3, 1, 'Room daily']);
    expect((await api('GET', `${URL}?sort=secret,asc`)).status).toBe(400);
    expect((await api<ScheduleRow>('GET', `${URL}/${daily.id}`)).body.data).toEqual(daily);

    const changed = await api<ScheduleRow>('PUT', `${URL}/${daily.id}`, operator, body({ name: 'Room monthly', frequency: 'monthly', hour: 6 }));
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Room monthly', frequency: 'monthly', hour: 6 });
    expect(Date.parse(changed.body.data!.nextRunAt!)).toBe(nextRunAt('monthly', 6, TZ, Date.parse(changed.body.data!.updatedAt)));
    // A change that is refused changes nothing.
    expect((await api('PUT', `${URL}/${daily.id}`, operator, body({ frequency: 'weekly' }))).status).toBe(400);
    expect((await api('PUT', `${URL}/${daily.id}`, operator, body({ subjectIds: [rivalRoom] }))).body.errorcode).toBe('REPORT_SCHEDULE_ASSET_UNKNOWN');
    expect((await api<ScheduleRow>('GET', `${URL}/${daily.id}`)).body.data!.name).toBe('Room monthly');

    const off = await api<ScheduleRow>('POST', `${URL}/${daily.id}/disable`);
    expect([off.body.data!.enabled, off.body.data!.nextRunAt]).toEqual([false, null]);
    const on = await api<ScheduleRow>('POST', `${URL}/${daily.id}/enable`);
    expect(on.body.data!.enabled).toBe(true);
    expect(Date.parse(on.body.data!.nextRunAt!)).toBeGreaterThan(Date.now());

    for (const id of [daily.id, online.id, all.id]) expect((await api('DELETE', `${URL}/${id}`)).status).toBe(200);
    expect((await api('GET', `${URL}/${daily.id}`)).status).toBe(404);
    expect(await storedCount()).toBe(0);
    const actions = (await t.app.database.db.select({ action: auditLogs.action }).from(auditLogs).where(eq(auditLogs.orgId, demoOrg))).map((a) => a.action);
    for (const a of ['report_schedule_create', 'report_schedule_update', 'report_schedule_disable', 'report_schedule_enable', 'report_schedule_delete']) expect(actions).toContain(a);
  });

  it('keeps another organisation and users without the permission out', async () => {
    const mine = await create({ name: 'Private', recipients: ['private@example.com'] });
    expect((await api<Page<ScheduleRow>>('GET', URL, rival)).body.data!.total).toBe(0);
    for (const [method, path, payload] of [
      ['GET', `${URL}/${mine.id}`],
      ['PUT', `${URL}/${mine.id}`, body({ name: 'Taken over' })],
      ['POST', `${URL}/${mine.id}/disable`],
      ['POST', `${URL}/${mine.id}/enable`],
      ['POST', `${URL}/${mine.id}/run`],
      ['GET', `${URL}/${mine.id}/runs`],
      ['DELETE', `${URL}/${mine.id}`],
    ] as const) {
      expect((await api(method, path, rival, payload)).status, `${method} ${path}`).toBe(404);
    }
    for (const [method, path] of [['GET', URL], ['GET', `${URL}/${mine.id}`], ['POST', `${URL}/${mine.id}/run`], ['DELETE', `${URL}/${mine.id}`]] as const) {
      expect((await api(method, path, bystander)).status, `${method} ${path}`).toBe(403);
    }
    expect((await api(`GET`, URL, '')).status).toBe(401);
    // The rival's own schedule cannot name the demo organisation's asset either.
    expect((await api('POST', URL, rival, body({ subjectIds: [room] }))).body.errorcode).toBe('REPORT_SCHEDULE_ASSET_UNKNOWN');
    const kept = (await api<ScheduleRow>('GET', `${URL}/${mine.id}`)).body.data!;
    expect(kept).toMatchObject({ name: 'Private', enabled: true });
    expect(mailsTo('private@example.com')).toHaveLength(0);
    expect(await runsOf(mine.id)).toHaveLength(0);
    await api('DELETE', `${URL}/${mine.id}`);
  });
});

it('is described in the OpenAPI document', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
  for (const p of [URL, `${URL}/{id}`, `${URL}/{id}/enable`, `${URL}/{id}/disable`, `${URL}/{id}/run`, `${URL}/{id}/runs`]) expect(paths).toContain(p);
});

describe('the scheduler', () => {
  it('mails the previous day as a PDF to every recipient once, records the run and moves the next slot', async () => {
    const s = await create({ name: 'Room daily', recipients: ['ops1@example.com', 'ops2@example.com'] });
    const due = Date.parse(s.nextRunAt!);
    // Not due yet: nothing.
    await tickAt(due - MIN);
    expect(mailsTo('ops1@example.com', 'ops2@example.com')).toHaveLength(0);

    const at = due + MIN;
    await tickAt(at);
    const day = previousPeriod('day', at, TZ);
    const got = mailsTo('ops1@example.com', 'ops2@example.com');
    expect(got.map((m) => m.to).sort()).toEqual(['ops1@example.com', 'ops2@example.com']);
    for (const m of got) {
      expect(m.subject).toBe(`Daily temperature and humidity record ${day.start} – Demo Cold Chain Co.`);
      expect(m.text).toContain('Room daily');
      expect(m.files).toHaveLength(1);
      expect(m.files[0]!.mimeType).toBe('application/pdf');
      expect(m.files[0]!.filename).toMatch(/CR-SCHED.*\.pdf$/);
      expect(m.files[0]!.filename).toContain(day.start);
      expect(m.files[0]!.content.subarray(0, 4).toString()).toBe('%PDF');
    }
    const runs = await runsOf(s.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'sent', manual: false, start: day.start, end: day.start, error: null, recipients: ['ops1@example.com', 'ops2@example.com'], at: new Date(at).toISOString() });
    expect(runs[0]!.filename).toBe(got[0]!.files[0]!.filename);
    const after = (await api<ScheduleRow>('GET', `${URL}/${s.id}`)).body.data!;
    expect(after).toMatchObject({ lastStatus: 'sent', lastRunAt: new Date(at).toISOString() });
    expect(Date.parse(after.nextRunAt!)).toBe(due + DAY);

    // A second tick at the same time sends nothing more.
    await tickAt(at);
    expect(mailsTo('ops1@example.com', 'ops2@example.com')).toHaveLength(2);
    expect(await runsOf(s.id)).toHaveLength(1);

    // Down for five days: one run, for the last whole day, and the next slot after the tick.
    const late = due + 5 * DAY + 3 * 3_600_000;
    await tickAt(late);
    expect(mailsTo('ops1@example.com')).toHaveLength(2);
    const [last] = await runsOf(s.id);
    expect(last!.start).toBe(previousPeriod('day', late, TZ).start);
    expect(Date.parse((await api<ScheduleRow>('GET', `${URL}/${s.id}`)).body.data!.nextRunAt!)).toBe(due + 6 * DAY);
    await api('DELETE', `${URL}/${s.id}`);
  });

  it('sends once when several nodes tick at the same time, in the schedule language', async () => {
    const db = t.app.database.db;
    const node = () => reportScheduler(db, { log: t.app.log, messenger: t.app.messenger, makers: reportMakers({ gsp: gspService(db) }) });
    const nodes = [node(), node(), node(), t.app.reportScheduler];
    // Several schedules due at once, several rounds: a claim that two nodes could both win shows up.
    const others = Array.from({ length: 6 }, (_, i) => `twin-${i}@example.com`);
    const extra = await Promise.all(others.map((to) => create({ name: `Twin ${to}`, frequency: 'monthly', recipients: [to] })));
    const s = await create({ name: '冷库月报', frequency: 'monthly', lang: 'zh', recipients: ['twin@example.com'] });
    const at = Date.parse(s.nextRunAt!) + MIN;
    for (let round = 0; round < 3; round++) {
      await Promise.all(nodes.map((n) => n.tick(at + round)));
      await Promise.all(nodes.map((n) => n.settled()));
    }
    expect(mailsTo(...others).map((m) => m.to).sort()).toEqual(others);
    for (const e of extra) await api('DELETE', `${URL}/${e.id}`);
    const got = mailsTo('twin@example.com');
    expect(got).toHaveLength(1);
    const month = previousPeriod('month', at, TZ);
    expect(got[0]!.subject).toBe(`温湿度月报 ${month.start.slice(0, 7)} – Demo Cold Chain Co.`);
    expect(got[0]!.text).toContain('定时报表：冷库月报');
    expect(got[0]!.files[0]!.content.subarray(0, 4).toString()).toBe('%PDF');
    const runs = await runsOf(s.id);
    expect(runs.map((r) => [r.status, r.start, r.end])).toEqual([['sent', month.start, month.end]]);
    await api('DELETE', `${URL}/${s.id}`);
  });

  it('sends now: the last whole period, recorded as manual, the next slot unchanged', async () => {
    const s = await create({ name: 'Room now', recipients: ['now@example.com'], format: 'xlsx', enabled: false });
    const res = await api<ScheduleRun>('POST', `${URL}/${s.id}/run`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const yesterday = previousPeriod('day', Date.now(), TZ).start;
    expect(res.body.data).toMatchObject({ scheduleId: s.id, status: 'sent', manual: true, start: yesterday, end: yesterday, error: null });
    const [m] = mailsTo('now@example.com');
    expect(m!.files[0]!.filename).toMatch(/\.xlsx$/);
    expect(m!.files[0]!.content.subarray(0, 2).toString()).toBe('PK');
    expect(await runsOf(s.id)).toEqual([res.body.data]);
    const after = (await api<ScheduleRow>('GET', `${URL}/${s.id}`)).body.data!;
    expect(after).toMatchObject({ enabled: false, nextRunAt: null, lastStatus: 'sent' });
    await api('DELETE', `${URL}/${s.id}`);
  });

  it('sends the alarm, online rate and mileage reports of their periods', async () => {
    const cases = [
      { kind: 'alarm', frequency: 'weekly', subjectIds: [], format: 'pdf', to: 'alarm-week@example.com' },
      { kind: 'online', frequency: 'daily', subjectIds: [demoDevice], format: 'xlsx', to: 'online-day@example.com' },
      { kind: 'mileage', frequency: 'monthly', subjectIds: [], format: 'pdf', to: 'mileage-month@example.com' },
    ] as const;
    for (const c of cases) {
      const s = await create({ name: `${c.kind} ${c.frequency}`, kind: c.kind, frequency: c.frequency, subjectIds: [...c.subjectIds], format: c.format, recipients: [c.to] });
      const res = await api<ScheduleRun>('POST', `${URL}/${s.id}/run`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const period = previousPeriod(c.frequency === 'daily' ? 'day' : c.frequency === 'weekly' ? 'week' : 'month', Date.now(), TZ);
      expect(res.body.data, c.kind).toMatchObject({ status: 'sent', manual: true, start: period.start, end: period.end, error: null });
      const [m] = mailsTo(c.to);
      expect(m!.files[0]!.content.subarray(0, 2).toString(), c.kind).toBe(c.format === 'pdf' ? '%P' : 'PK');
      if (c.kind === 'alarm') expect(m!.subject).toBe(`Weekly alarm report ${period.start} – ${period.end} – Demo Cold Chain Co.`);
      await api('DELETE', `${URL}/${s.id}`);
    }
  });

  it('records a failed run naming the mailbox that refused, the others still served', async () => {
    const s = await create({ name: 'Room bounce', recipients: ['bounce@example.com', 'kept@example.com'] });
    await tickAt(Date.parse(s.nextRunAt!) + MIN);
    expect(mailsTo('kept@example.com')).toHaveLength(1);
    const [run] = await runsOf(s.id);
    expect(run!.status).toBe('failed');
    expect(run!.error).toMatch(/^bounce@example\.com: .*No such user/);
    expect(run!.filename).toMatch(/\.pdf$/);
    await api('DELETE', `${URL}/${s.id}`);
  });

  it('keeps the run in the outbox without SMTP, the attachment named in the outbox', async () => {
    const s = await create({ name: 'Room outbox', recipients: ['outbox-only@example.com'] });
    const db = t.app.database.db;
    const noSmtp = reportScheduler(db, { log: t.app.log, messenger: messenger({ db, log: t.app.log, mailFrom: 'iot@example.com' }), makers: reportMakers({ gsp: gspService(db) }) });
    const at = Date.parse(s.nextRunAt!) + MIN;
    await noSmtp.tick(at);
    await noSmtp.settled();
    expect(mailsTo('outbox-only@example.com')).toHaveLength(0);
    const [run] = await runsOf(s.id);
    expect(run).toMatchObject({ status: 'outbox', manual: false, error: null });
    const kept = await db.select().from(outbox).where(eq(outbox.recipient, 'outbox-only@example.com'));
    expect(kept).toHaveLength(1);
    expect(kept[0]!.status).toBe('outbox');
    expect(kept[0]!.subject).toContain('Daily temperature and humidity record');
    expect(kept[0]!.body).toContain(`[attachments: ${run!.filename}]`);
    expect((await api<ScheduleRow>('GET', `${URL}/${s.id}`)).body.data!.lastStatus).toBe('outbox');
    await api('DELETE', `${URL}/${s.id}`);
  });

  it('never runs a disabled schedule', async () => {
    const s = await create({ name: 'Room off', recipients: ['off@example.com'] });
    const due = Date.parse(s.nextRunAt!);
    await api('POST', `${URL}/${s.id}/disable`);
    await tickAt(due + MIN);
    await tickAt(due + 40 * DAY);
    expect(mailsTo('off@example.com')).toHaveLength(0);
    expect(await runsOf(s.id)).toHaveLength(0);
    await api('DELETE', `${URL}/${s.id}`);
  });

  it('records a failed run with the reason when the creator left, and moves on; a change takes the schedule over', async () => {
    const db = t.app.database.db;
    await addOrgUser(db, { orgId: demoOrg, account: 'sched-leaver', password: DEMO_PASSWORD, roleCodes: ['operator'] });
    const leaver = await login(t.app, 'sched-leaver', DEMO_PASSWORD);
    const s = await create({ name: 'Leaver daily', lang: 'zh', recipients: ['leaver@example.com'] }, leaver);
    await db.update(users).set({ status: 'disabled' }).where(eq(users.account, 'sched-leaver'));
    const due = Date.parse(s.nextRunAt!);
    await tickAt(due + MIN);
    expect(mailsTo('leaver@example.com')).toHaveLength(0);
    const [failed] = await runsOf(s.id);
    expect(failed).toMatchObject({ status: 'failed', manual: false, filename: null });
    expect(failed!.error).toBe('定时报表的创建人已不存在、已停用或已无定时报表权限，请重新保存该定时报表以接管');
    const after = (await api<ScheduleRow>('GET', `${URL}/${s.id}`)).body.data!;
    expect(after.lastStatus).toBe('failed');
    // No retry in a loop: the next slot is the next day.
    expect(Date.parse(after.nextRunAt!)).toBe(due + DAY);
    await tickAt(due + 2 * MIN);
    expect(await runsOf(s.id)).toHaveLength(1);

    // Saved again by the operator: the operator's view from now on.
    const saved = await api<ScheduleRow>('PUT', `${URL}/${s.id}`, operator, body({ name: 'Leaver daily', lang: 'zh', recipients: ['leaver@example.com'] }));
    expect(saved.body.data!.createdBy).not.toBe(s.createdBy);
    await tickAt(due + DAY + MIN);
    expect(mailsTo('leaver@example.com')).toHaveLength(1);
    expect((await runsOf(s.id))[0]!.status).toBe('sent');
    await api('DELETE', `${URL}/${s.id}`);
  });

  it('records a failed run when the asset is gone', async () => {
    const db = t.app.database.db;
    const [temp] = await db.insert(assets).values({ orgId: demoOrg, kind: 'refrigerator', code: 'RF-GONE', name: 'Gone fridge', attrs: {} }).returning();
    const s = await create({ name: 'Fridge daily', subjectIds: [temp!.id], recipients: ['gone@example.com'] });
    await db.delete(assets).where(eq(assets.id, temp!.id));
    await tickAt(Date.parse(s.nextRunAt!) + MIN);
    const [run] = await runsOf(s.id);
    expect(run).toMatchObject({ status: 'failed', error: 'The requested resource does not exist' });
    expect(mailsTo('gone@example.com')).toHaveLength(0);
    // Deleting the schedule deletes its history.
    await api('DELETE', `${URL}/${s.id}`);
    expect(Number((await db.select({ n: count() }).from(reportScheduleRuns).where(eq(reportScheduleRuns.scheduleId, s.id)))[0]!.n)).toBe(0);
  });
});

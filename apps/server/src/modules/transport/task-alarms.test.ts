// The alarms of transport tasks through the API: a task in transit with a temperature range and
// recipients raises an alarm that names the task (row, `inTask` filter, export in both languages);
// the task's own push rule follows its policy and recipients (e-mail and SMS at once, kept in the
// outbox without SMTP or SMS gateway), is hidden from the push rules API while its deliveries are
// in the log, is disabled on completion and removed without recipients; another organisation
// sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AlarmRow, LevelRow } from '@iotc/shared/alarm';
import type { DeliveryRow, PushRuleRow } from '@iotc/shared/alarm-push';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { TaskDetail, TaskStatus } from '@iotc/shared/transport';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmPolicies, orgs, outbox, pushRules } from '../../db/schema.ts';
import { smsNumber } from './task-policy.ts';

const TASKS = '/api/iot/v2/transport-tasks';
const RULES = '/api/iot/v2/push-rules';
type Lang = 'zh-CN' | 'en-US';

let t: TestApp;
let admin: string;
let rival: string;
let level: string;
let deviceNo = 0;

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown, lang: Lang = 'en-US') => call<T>(t.app, { method, url, token, body, lang });
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
const shanghai = { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 };
const hangzhou = { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 };
const recipients = [
  { name: 'Li', email: 'li@example.com', phone: '138 0000 0001' },
  { name: 'Wang', phone: '+86 13900000002' },
  // A landline takes no SMS; a name alone reaches nobody.
  { name: 'Desk', phone: '021-55550000' },
  { name: 'Zhao' },
];

async function device(): Promise<DeviceWithSecret> {
  const deviceId = `TA${String(++deviceNo).padStart(8, '0')}`;
  const res = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId, name: `Reefer ${deviceNo}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
/** A temperature report over the HTTP intake, then everything it sets off: evaluation, push, first deliveries. */
async function report(d: DeviceWithSecret, temp: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: d.deviceId, time: new Date(Date.now() - 30_000).toISOString(), lat: 31.2, lon: 121.5, speed: 0, extraData: JSON.stringify({ 3: { temp: Math.round(temp * 10) } }) }),
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
  await t.app.push.settled();
}
async function task(d: DeviceWithSecret, over: Record<string, unknown> = {}): Promise<TaskDetail> {
  const res = await api<TaskDetail>('POST', TASKS, admin, { goodsName: 'Vaccines', deviceIds: [d.id], origin: shanghai, destination: hangzhou, tempMax: 8, alarm: { levelId: level, durationS: 0 }, recipients, ...over });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function move(id: string, to: TaskStatus) {
  const res = await api<TaskDetail>('POST', `${TASKS}/${id}/transition`, admin, { to, note: '' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
async function update(before: TaskDetail, over: Record<string, unknown>) {
  const body = { ...before, assetId: before.asset?.id ?? null, deviceIds: before.devices.map((d) => d.id), ...over };
  const res = await api<TaskDetail>('PUT', `${TASKS}/${before.id}`, admin, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function ruleOf(taskId: string) {
  const [r] = await t.app.database.db.select().from(pushRules).where(eq(pushRules.taskId, taskId));
  return r;
}
async function policyOf(taskId: string) {
  const [p] = await t.app.database.db.select().from(alarmPolicies).where(eq(alarmPolicies.taskId, taskId));
  return p;
}
async function alarms(query: string, token = admin): Promise<AlarmRow[]> {
  const res = await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?size=100&${query}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!.rows;
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'ta-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await createTenantUser(db, { code: 'ta-rival', account: 'ta-rival', password: DEMO_PASSWORD, permissions: ['transport:read', 'alarm:read', 'alarm:write'] });
  admin = await login(t.app, 'ta-admin', DEMO_PASSWORD);
  rival = await login(t.app, 'ta-rival', DEMO_PASSWORD);
  level = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100', admin)).body.data!.rows.find((l) => l.orgId === demoOrg && l.code === 'urgent')!.id;
});

afterAll(async () => {
  await t?.close();
});

describe('the alarms of a transport task', () => {
  it('name the task, are pushed to its recipients by a rule of its own, and stop with the task', async () => {
    const d = await device();
    const plain = await device();
    const job = await task(d);
    // Pending: no policy yet, so no rule either.
    expect(await ruleOf(job.id)).toBeUndefined();
    await move(job.id, 'in_transit');
    const policy = (await policyOf(job.id))!;
    const rule = (await ruleOf(job.id))!;
    expect(rule).toMatchObject({
      orgId: job.orgId,
      name: job.code,
      enabled: true,
      match: { policyIds: [policy.id], levelIds: [], types: [] },
      events: ['opened', 'cleared'],
      language: 'zh',
      timezone: 'Asia/Shanghai',
    });
    expect(rule.steps).toEqual([{ afterMinutes: 0, channels: ['email', 'sms'], userIds: [], roleIds: [], emails: ['li@example.com'], phones: ['13800000001', '13900000002'], webhooks: [], repeatMinutes: null }]);

    // A device of no task alarms through an ordinary policy: no task on it, and not pushed to the recipients.
    const own = await api('POST', '/api/iot/v2/alarm-policies', admin, { name: 'plain too warm', scope: 'devices', targets: [plain.id], rules: [{ id: 'hot', type: 'temp_high', threshold: 8, levelId: level }] });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    await report(plain, 10);
    await report(d, 10);

    const [alarm] = await alarms(`deviceId=${d.id}`);
    expect(alarm).toMatchObject({ status: 'active', type: 'temp_high', taskId: job.id, task: { id: job.id, code: job.code }, policyId: policy.id });
    expect((await api<AlarmRow>('GET', `/api/iot/v2/alarms/${alarm!.id}`, admin)).body.data!.task).toEqual({ id: job.id, code: job.code });
    const [other] = await alarms(`deviceId=${plain.id}`);
    expect(other).toMatchObject({ taskId: null, task: null });

    const inTask = (await alarms('inTask=true')).map((a) => a.id);
    expect(inTask).toContain(alarm!.id);
    expect(inTask).not.toContain(other!.id);
    const noTask = (await alarms('inTask=false')).map((a) => a.id);
    expect(noTask).toContain(other!.id);
    expect(noTask).not.toContain(alarm!.id);
    expect((await alarms(`taskId=${job.id}`)).map((a) => a.id)).toEqual([alarm!.id]);

    // At once, by e-mail and SMS, kept in the outbox (no SMTP server, no SMS gateway here).
    const sent = await api<Page<DeliveryRow>>('GET', `/api/iot/v2/deliveries?alarmId=${alarm!.id}&size=100`, admin);
    expect(sent.status).toBe(200);
    expect(sent.body.data!.rows.map((r) => [r.ruleId, r.ruleName, r.event, r.step, r.channel, r.target, r.status]).sort()).toEqual(
      [
        [rule.id, job.code, 'opened', 1, 'email', 'li@example.com', 'outbox'],
        [rule.id, job.code, 'opened', 1, 'sms', '13800000001', 'outbox'],
        [rule.id, job.code, 'opened', 1, 'sms', '13900000002', 'outbox'],
      ].sort(),
    );
    const [mail] = await t.app.database.db.select().from(outbox).where(eq(outbox.recipient, 'li@example.com'));
    expect(mail).toMatchObject({ channel: 'email', status: 'outbox' });
    expect(mail!.subject).toContain(d.name);
    // The alarm of no task reached nobody.
    expect((await api<DeliveryRow[]>('GET', `/api/iot/v2/alarms/${other!.id}/deliveries`, admin)).body.data).toEqual([]);

    // The task's rule is none of the push rules.
    const listed = await api<Page<PushRuleRow>>('GET', `${RULES}?size=100`, admin);
    expect(listed.body.data!.rows.map((r) => r.id)).not.toContain(rule.id);
    expect((await api('GET', `${RULES}/${rule.id}`, admin)).status).toBe(404);
    expect((await api('PUT', `${RULES}/${rule.id}`, admin, { name: 'mine now', steps: [{ afterMinutes: 0, channels: ['email'], emails: ['x@example.com'] }] })).status).toBe(404);
    expect((await api('POST', `${RULES}/${rule.id}/disable`, admin)).status).toBe(404);
    expect((await api('DELETE', `${RULES}/${rule.id}`, admin)).status).toBe(404);
    expect((await ruleOf(job.id))!.enabled).toBe(true);

    // Another organisation sees none of it.
    expect(await alarms('inTask=true', rival)).toEqual([]);
    expect((await api('GET', `/api/iot/v2/alarms/${alarm!.id}`, rival)).status).toBe(404);
    expect((await api<Page<DeliveryRow>>('GET', '/api/iot/v2/deliveries?size=100', rival)).body.data!.rows).toEqual([]);
    expect((await api('GET', `${RULES}/${rule.id}`, rival)).status).toBe(404);

    // Completing the task ends its alarms and disables its rule.
    await move(job.id, 'completed');
    expect((await alarms(`deviceId=${d.id}`))[0]).toMatchObject({ status: 'cleared', task: { id: job.id, code: job.code } });
    expect(await ruleOf(job.id)).toMatchObject({ id: rule.id, enabled: false });
  });

  it('keeps the rule in step with the recipients while running, and has none without anyone to reach', async () => {
    const d = await device();
    let job = await task(d, { recipients: [{ name: 'Li', email: 'li@example.com' }] });
    await move(job.id, 'in_transit');
    job = (await api<TaskDetail>('GET', `${TASKS}/${job.id}`, admin)).body.data!;
    const first = (await ruleOf(job.id))!;
    expect(first.steps).toMatchObject([{ channels: ['email'], emails: ['li@example.com'], phones: [] }]);

    job = await update(job, { recipients: [{ name: 'Wang', phone: '13900000002' }] });
    expect(await ruleOf(job.id)).toMatchObject({ id: first.id, steps: [{ channels: ['sms'], emails: [], phones: ['13900000002'] }] });

    job = await update(job, { recipients: [{ name: 'Desk', phone: '021-55550000' }] });
    expect(await ruleOf(job.id)).toBeUndefined();
    await report(d, 10);
    const [alarm] = await alarms(`deviceId=${d.id}`);
    expect(alarm).toMatchObject({ task: { id: job.id, code: job.code } });
    expect((await api<DeliveryRow[]>('GET', `/api/iot/v2/alarms/${alarm!.id}/deliveries`, admin)).body.data).toEqual([]);

    // Without an alarm level the task has no policy: recipients alone make no rule.
    const quiet = await task(await device(), { tempMax: null, alarm: { levelId: null } });
    await move(quiet.id, 'in_transit');
    expect(await policyOf(quiet.id)).toBeUndefined();
    expect(await ruleOf(quiet.id)).toBeUndefined();
  });

  it('exports the task of each alarm in both languages', async () => {
    for (const [lang, header] of [
      ['zh-CN', '所属任务'],
      ['en-US', 'Task'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: '/api/iot/v2/alarms/export?format=csv&inTask=true', headers: { access_token: admin, language: lang, timezone: 'Asia/Shanghai' } });
      expect(res.statusCode).toBe(200);
      const [head, ...lines] = res.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
      const at = head!.split(',').indexOf(header);
      expect(at).toBeGreaterThan(-1);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line.split(',')[at]).toMatch(/^TT-\d{8}-\d{4}$/);
    }
  });

  it('reads SMS numbers from what people type', () => {
    expect(smsNumber('138 0000 0001')).toBe('13800000001');
    expect(smsNumber('+86 139-0000-0002')).toBe('13900000002');
    expect(smsNumber('008613900000002')).toBe('13900000002');
    expect(smsNumber('021-55550000')).toBeNull();
    expect(smsNumber('')).toBeNull();
  });
});

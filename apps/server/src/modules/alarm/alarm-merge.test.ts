// One alarm per problem through the API: two policies and a transport task's alarm settings that
// all see one door opening make one alarm that lists the three rules behind it, takes the highest
// level and reaches each recipient once per channel although two push rules name them; an
// alarm clears only when every rule behind it has; a push rule's quiet hours hold its e-mail
// until they end, and its digest sends one message listing the alarms; another organisation sees
// none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeliveryRow, PushRuleInput, PushRuleRow } from '@iotc/shared/alarm-push';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { TaskDetail } from '@iotc/shared/transport';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmPolicies, orgs, outbox } from '../../db/schema.ts';
import { digestEnd, quietEnd } from './push.ts';

const MIN = 60_000;
let t: TestApp;
let admin: string;
let rival: string;
let levels: LevelRow[];
let deviceNo = 0;

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown) => call<T>(t.app, { method, url, token, body, lang: 'en-US' });
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
const level = (code: string) => levels.find((l) => l.code === code)!.id;

async function device(): Promise<DeviceWithSecret> {
  const deviceId = `AM${String(++deviceNo).padStart(8, '0')}`;
  const res = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId, name: `Merge ${deviceNo}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
/** A report away from the task's origin and destination, then everything it sets off. */
async function report(d: DeviceWithSecret, blocks: Record<string, unknown>, agoS = 30) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: d.deviceId, time: new Date(Date.now() - agoS * 1000).toISOString(), lat: 30.8, lon: 120.9, speed: 0, extraData: JSON.stringify(blocks) }),
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
  await t.app.push.settled();
}
async function policy(name: string, d: DeviceWithSecret, rule: Record<string, unknown>): Promise<PolicyRow> {
  const res = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', admin, { name, scope: 'devices', targets: [d.id], rules: [{ id: 'r1', ...rule }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function addRule(rule: PushRuleInput): Promise<PushRuleRow> {
  const res = await api<PushRuleRow>('POST', '/api/iot/v2/push-rules', admin, rule);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function alarmsOf(d: DeviceWithSecret, token = admin): Promise<AlarmRow[]> {
  const res = await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?size=100&deviceId=${d.id}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!.rows;
}
async function deliveriesOf(alarm: AlarmRow): Promise<DeliveryRow[]> {
  const res = await api<DeliveryRow[]>('GET', `/api/iot/v2/alarms/${alarm.id}/deliveries`, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'am-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await createTenantUser(db, { code: 'am-rival', account: 'am-rival', password: DEMO_PASSWORD, permissions: ['alarm:read', 'alarm:write', 'transport:read'] });
  admin = await login(t.app, 'am-admin', DEMO_PASSWORD);
  rival = await login(t.app, 'am-rival', DEMO_PASSWORD);
  levels = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100', admin)).body.data!.rows.filter((l) => l.orgId === demoOrg);
});

afterAll(async () => {
  await t?.close();
});

describe('one alarm per problem', () => {
  it('two policies and a task on one door opening make one alarm with three sources, pushed once per recipient and channel', async () => {
    const d = await device();
    const demo = await policy('Demo door', d, { type: 'door_abnormal', threshold: 0, levelId: level('minor') });
    const own = await policy('Own door', d, { type: 'door_abnormal', threshold: 0, levelId: level('important') });
    const made = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', admin, {
      goodsName: 'Vaccines',
      deviceIds: [d.id],
      origin: { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 },
      destination: { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 },
      alarm: { levelId: level('urgent'), durationS: 0, door: true },
      recipients: [{ name: 'Li', email: 'li@example.com', phone: '13800000001' }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const task = made.body.data!;
    expect((await api('POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, admin, { to: 'in_transit', note: '' })).status).toBe(200);
    const [taskPolicy] = await t.app.database.db.select().from(alarmPolicies).where(eq(alarmPolicies.taskId, task.id));
    // The organisation's own rule names the consignee too: the task's rule and it reach them once.
    await addRule({ name: 'Doors to Li', language: 'en', match: { policyIds: [demo.id, own.id] }, events: ['opened', 'cleared'], steps: [{ afterMinutes: 0, channels: ['email', 'sms'], emails: ['LI@example.com'], phones: ['13800000001'] }] });

    await report(d, { 16: { gac: 1 } }, 60);
    await report(d, { 16: { gac: 1 } }, 30);
    const rows = await alarmsOf(d);
    expect(rows).toHaveLength(1);
    const alarm = rows[0]!;
    expect(alarm).toMatchObject({ type: 'door_abnormal', status: 'active', taskId: task.id, level: { id: level('urgent') } });
    expect(alarm.sources.map((s) => [s.policyId, s.policyName, s.ruleId, s.levelId, s.clearedAt])).toEqual(
      expect.arrayContaining([
        [demo.id, 'Demo door', 'r1', level('minor'), null],
        [own.id, 'Own door', 'r1', level('important'), null],
        [taskPolicy!.id, taskPolicy!.name, 'door_abnormal', level('urgent'), null],
      ]),
    );
    expect(alarm.sources).toHaveLength(3);
    const detail = (await api<AlarmRow>('GET', `/api/iot/v2/alarms/${alarm.id}`, admin)).body.data!;
    expect(detail.sources).toEqual(alarm.sources);

    const sent = (await deliveriesOf(alarm)).filter((x) => x.event === 'opened');
    const byRecipient = sent.map((x) => `${x.channel} ${x.target.toLowerCase()}`).sort();
    expect(byRecipient).toEqual([...new Set(byRecipient)]);
    expect(byRecipient).toEqual(expect.arrayContaining(['email li@example.com', 'sms 13800000001']));

    // The door closes: every rule clears, so the alarm does; one cleared notice per recipient and channel.
    await report(d, { 16: { gac: 0 } }, 10);
    const [done] = await alarmsOf(d);
    expect(done).toMatchObject({ id: alarm.id, status: 'cleared' });
    expect(done!.sources.every((s) => s.clearedAt !== null)).toBe(true);
    const cleared = (await deliveriesOf(alarm)).filter((x) => x.event === 'cleared').map((x) => `${x.channel} ${x.target.toLowerCase()}`).sort();
    expect(cleared).toEqual([...new Set(cleared)]);

    // Another organisation sees none of it.
    expect(await alarmsOf(d, rival)).toEqual([]);
    expect((await api('GET', `/api/iot/v2/alarms/${alarm.id}`, rival)).status).toBe(404);
    expect((await api('GET', `/api/iot/v2/alarms/${alarm.id}/deliveries`, rival)).status).toBe(404);
  });

  it('clears only when every rule behind the alarm has', async () => {
    const d = await device();
    await policy('Warm at 8', d, { type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: level('minor') });
    await policy('Warm at 5', d, { type: 'temp_high', threshold: 5, hysteresis: 0.5, levelId: level('important') });
    await report(d, { 3: { temp: 100 } }, 60);
    const [alarm] = await alarmsOf(d);
    expect(alarm).toMatchObject({ status: 'active', level: { id: level('important') } });
    expect(alarm!.sources).toHaveLength(2);
    // 6 °C: the 8 °C rule clears, the 5 °C one still sees it.
    await report(d, { 3: { temp: 60 } }, 40);
    const [half] = await alarmsOf(d);
    expect(half).toMatchObject({ id: alarm!.id, status: 'active' });
    expect(half!.sources.filter((s) => s.clearedAt === null).map((s) => s.policyName)).toEqual(['Warm at 5']);
    await report(d, { 3: { temp: 30 } }, 20);
    const all = await alarmsOf(d);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: alarm!.id, status: 'cleared' });
  });

  it('in one batch of readings, a rule that clears and sees the condition again opens a second alarm, and rules join in time order', async () => {
    const d = await device();
    const orgId = d.orgId;
    await policy('Batch warm', d, { type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: level('minor') });
    const base = Date.now() - 10 * MIN;
    const reading = (minute: number, temperature: number) => ({ orgId, deviceRef: d.id, time: new Date(base + minute * MIN), lat: 30.8, lon: 120.9, speed: 0, sensors: { temperature } });
    // Warm, cool, warm again: two excursions, the first cleared, the second open.
    t.app.alarmEngine.submit([reading(0, 10), reading(1, 5), reading(2, 11)]);
    await t.app.alarmEngine.settled();
    const rows = (await alarmsOf(d)).sort((x, y) => Date.parse(x.startedAt) - Date.parse(y.startedAt));
    expect(rows.map((r) => r.status)).toEqual(['cleared', 'active']);
    expect(Date.parse(rows[0]!.endedAt!)).toBe(base + MIN);
    expect(Date.parse(rows[1]!.startedAt)).toBe(base + 2 * MIN);

    // Two rules in one batch: the 5 °C rule opens at minute 3, the 8 °C rule at minute 4 joins it,
    // the 8 °C rule clears at minute 5 and the 5 °C one at minute 6, when the alarm clears.
    const e = await device();
    await policy('Batch warm 8', e, { type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: level('minor') });
    await policy('Batch warm 5', e, { type: 'temp_high', threshold: 5, hysteresis: 0.5, levelId: level('important') });
    const at = (minute: number, temperature: number) => ({ ...reading(minute, temperature), deviceRef: e.id });
    t.app.alarmEngine.submit([at(3, 6), at(4, 9), at(5, 6), at(6, 3)]);
    await t.app.alarmEngine.settled();
    const merged = await alarmsOf(e);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ status: 'cleared', level: { id: level('important') } });
    expect(Date.parse(merged[0]!.startedAt)).toBe(base + 3 * MIN);
    expect(Date.parse(merged[0]!.endedAt!)).toBe(base + 6 * MIN);
    expect(merged[0]!.sources.map((s) => s.policyName).sort()).toEqual(['Batch warm 5', 'Batch warm 8']);
  });

  it('holds e-mail in quiet hours until they end, and a digest sends one message listing the alarms', async () => {
    const now = Date.now();
    const quiet = await device();
    const quietPolicy = await policy('Quiet warm', quiet, { type: 'temp_high', threshold: 8, levelId: level('minor') });
    const rule = await addRule({
      name: 'Night shift',
      language: 'en',
      timezone: 'UTC',
      quietFrom: hhmm(now - 60 * MIN),
      quietTo: hhmm(now + 60 * MIN),
      match: { policyIds: [quietPolicy.id] },
      steps: [{ afterMinutes: 0, channels: ['email'], emails: ['night@example.com'] }],
    });
    expect(rule).toMatchObject({ quietFrom: hhmm(now - 60 * MIN), quietTo: hhmm(now + 60 * MIN), digestMinutes: null });
    await report(quiet, { 3: { temp: 100 } });
    const [held] = await deliveriesOf((await alarmsOf(quiet))[0]!);
    const end = quietEnd({ quietFrom: rule.quietFrom, quietTo: rule.quietTo, timezone: 'UTC' }, now)!;
    expect(held).toMatchObject({ status: 'pending', attempts: 0, target: 'night@example.com' });
    expect(Date.parse(held!.nextAttemptAt!)).toBe(end);
    await t.app.push.tick(end - MIN);
    await t.app.push.settled();
    expect((await deliveriesOf((await alarmsOf(quiet))[0]!))[0]).toMatchObject({ status: 'pending' });
    await t.app.push.tick(end + 1000);
    await t.app.push.settled();
    expect((await deliveriesOf((await alarmsOf(quiet))[0]!))[0]).toMatchObject({ status: 'outbox', attempts: 1 });

    // Digest: two alarms of two devices, one message.
    const a = await device();
    const b = await device();
    const pa = await policy('Digest warm A', a, { type: 'temp_high', threshold: 8, levelId: level('minor') });
    const pb = await policy('Digest warm B', b, { type: 'temp_high', threshold: 8, levelId: level('minor') });
    await addRule({ name: 'Digest', language: 'en', digestMinutes: 15, match: { policyIds: [pa.id, pb.id] }, steps: [{ afterMinutes: 0, channels: ['email'], emails: ['digest@example.com'] }] });
    await report(a, { 3: { temp: 100 } });
    await report(b, { 3: { temp: 100 } });
    const waiting = [...(await deliveriesOf((await alarmsOf(a))[0]!)), ...(await deliveriesOf((await alarmsOf(b))[0]!))];
    expect(waiting.map((x) => x.status)).toEqual(['pending', 'pending']);
    const due = Math.max(...waiting.map((x) => Date.parse(x.nextAttemptAt!)));
    expect(due).toBeLessThanOrEqual(digestEnd(15, Date.now()));
    await t.app.push.tick(due + 1000);
    await t.app.push.settled();
    const mails = await t.app.database.db.select().from(outbox).where(eq(outbox.recipient, 'digest@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Alarm digest: 2 alarms');
    expect(mails[0]!.body.split('\n')).toHaveLength(2);
    const after = [...(await deliveriesOf((await alarmsOf(a))[0]!)), ...(await deliveriesOf((await alarmsOf(b))[0]!))];
    expect(after.map((x) => x.status)).toEqual(['outbox', 'outbox']);

    // Quiet-hours and digest fields are checked.
    const bad = await api('POST', '/api/iot/v2/push-rules', admin, { name: 'Bad', quietFrom: '25:00', quietTo: '07:00', digestMinutes: 1, steps: [{ afterMinutes: 0, channels: ['email'], emails: ['x@example.com'] }] });
    expect(bad.status).toBe(400);
  });
});

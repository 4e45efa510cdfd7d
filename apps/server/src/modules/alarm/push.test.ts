// Message push for alarms end to end: a report over the HTTP intake opens an alarm and the
// matching rule's first step goes out at once (e-mail to a local SMTP server, in-app, SMS to the
// outbox, a webhook whose HMAC signature the receiver checks); unacknowledged, the next step
// reaches the role's users, the last step repeats, and acknowledging stops it; a cleared notice;
// a webhook answering 500 is retried on the back-off (time driven by the tick's clock) and ends
// failed with every attempt in the log; "send again"; rule validation in both languages; webhook
// secrets never read back; another organisation sees and touches none of it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { AlarmEventRow, AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import { MASKED_SECRET, type DeliveryDetail, type DeliveryRow, type PushRuleInput, type PushRuleRow, type WebhookPayload } from '@iotc/shared/alarm-push';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { outbox, pushRules, roleMenus, roles } from '../../db/schema.ts';

const SECRET = 'whsec-0123456789abcdef';
const PERMS = ['alarm:read', 'alarm:write', 'alarm:handle', 'device:read', 'device:write'];
const MIN = 60_000;

let t: TestApp;
let admin: string;
let rival: string;
/** duty-1 holds no permission at all: it reads only its own messages. */
let duty: string;
let ids: { duty: string; boss: string; supervisors: string; rivalUser: string; rivalRole: string };
let levels: LevelRow[];

// ---- a local SMTP server and a webhook receiver that verifies signatures as a customer would

interface Mail {
  to: string;
  subject: string;
  text: string;
}
const mails: Mail[] = [];
let smtp: SMTPServer;

interface HookCall {
  path: string;
  headers: IncomingHttpHeaders;
  payload: WebhookPayload;
  signatureValid: boolean;
}
const hookCalls: HookCall[] = [];
/** What `/down` answers. */
let downStatus = 500;
let hooks: Server;
let hookBase: string;

/** The receiver's check: HMAC-SHA256 of "<timestamp>.<raw body>" with the shared secret. */
function verify(headers: IncomingHttpHeaders, rawBody: string): boolean {
  const expected = `sha256=${createHmac('sha256', SECRET).update(`${String(headers['x-iotc-timestamp'])}.${rawBody}`).digest('hex')}`;
  const given = String(headers['x-iotc-signature'] ?? '');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

// ---- helpers

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<T>(t.app, { method, url, token, body, lang });
const level = (code: string) => levels.find((l) => l.code === code)!;
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
const T0 = Date.now() - 5 * MIN;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

const reading = (d: DeviceWithSecret, s: number, temp: number) => ({ deviceId: d.deviceId, time: at(s), lat: 31.2, lon: 121.5, speed: 0, extraData: JSON.stringify({ 3: { temp: Math.round(temp * 10) } }) });

/** Reports over the HTTP intake, then everything they set off: evaluation, push, first deliveries. */
async function report(d: DeviceWithSecret, s: number, temp: number, ...more: [number, number][]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify(more.length ? [reading(d, s, temp), ...more.map(([s2, t2]) => reading(d, s2, t2))] : reading(d, s, temp)),
  });
  expect(res.statusCode).toBe(200);
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
  await t.app.push.settled();
}
/** The scheduler's tick at a chosen time. */
async function tickAt(ms: number) {
  await t.app.push.tick(ms);
  await t.app.push.settled();
}
async function device(deviceId: string): Promise<DeviceWithSecret> {
  const res = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId, name: deviceId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
/** A policy for one device: too warm above 8 °C. */
async function tooWarm(d: DeviceWithSecret): Promise<PolicyRow> {
  const res = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', admin, {
    name: `${d.deviceId} too warm`,
    scope: 'devices',
    targets: [d.id],
    rules: [{ id: 'hot', type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: level('urgent').id }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function addRule(rule: PushRuleInput): Promise<PushRuleRow> {
  const res = await api<PushRuleRow>('POST', '/api/iot/v2/push-rules', admin, rule);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function openAlarm(d: DeviceWithSecret): Promise<AlarmRow> {
  const rows = (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${d.id}&status=active`, admin)).body.data!.rows;
  expect(rows).toHaveLength(1);
  return rows[0]!;
}
async function deliveriesOf(alarm: AlarmRow): Promise<DeliveryRow[]> {
  const res = await api<DeliveryRow[]>('GET', `/api/iot/v2/alarms/${alarm.id}/deliveries`, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
const brief = (rows: DeliveryRow[]) => rows.map((d) => [d.step, d.channel, d.target, d.status]).sort((a, b) => String(a).localeCompare(String(b)));

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        void PostalMime.parse(Buffer.concat(chunks)).then(
          (m) => {
            mails.push({ to: m.to?.[0]?.address ?? '', subject: m.subject ?? '', text: m.text ?? '' });
            cb();
          },
          (err: Error) => cb(err),
        ),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  hooks = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      hookCalls.push({ path: req.url ?? '', headers: req.headers, payload: JSON.parse(raw) as WebhookPayload, signatureValid: verify(req.headers, raw) });
      res.writeHead(req.url === '/down' ? downStatus : 200).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookBase = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;

  // No tick of its own while the tests drive the clock.
  t = await testApp({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, alarmTickMs: 3_600_000 });
  const db = t.app.database.db;
  const mine = await createTenantUser(db, { code: 'push-co', account: 'push-admin', password: DEMO_PASSWORD, permissions: PERMS, orgName: 'Push Cold Chain' });
  const [supervisors] = await db.insert(roles).values({ orgId: mine.org.id, code: 'supervisor', nameZh: '主管', nameEn: 'Supervisor' }).returning();
  // A screen to sign in to, and no action.
  const [watch] = await db.insert(roles).values({ orgId: mine.org.id, code: 'watch', nameZh: '值班', nameEn: 'Watch' }).returning();
  await db.insert(roleMenus).values({ roleId: watch!.id, menuId: '102-monitor-live-device' });
  const dutyUser = await addOrgUser(db, { orgId: mine.org.id, account: 'duty-1', password: DEMO_PASSWORD, roleCodes: ['watch'], email: 'duty1@example.com', phone: '13800000001' });
  const boss = await addOrgUser(db, { orgId: mine.org.id, account: 'boss-1', password: DEMO_PASSWORD, roleCodes: ['supervisor'], email: 'boss1@example.com' });
  const theirs = await createTenantUser(db, { code: 'push-rival', account: 'push-rival', password: DEMO_PASSWORD, permissions: PERMS });
  ids = { duty: dutyUser.id, boss: boss.id, supervisors: supervisors!.id, rivalUser: theirs.user.id, rivalRole: theirs.role.id };
  admin = await login(t.app, 'push-admin', DEMO_PASSWORD);
  duty = await login(t.app, 'duty-1', DEMO_PASSWORD);
  rival = await login(t.app, 'push-rival', DEMO_PASSWORD);
  levels = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', admin)).body.data!.rows;
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => hooks.close(() => resolve()));
});

describe('first step, escalation and the cleared notice', () => {
  let reefer: DeviceWithSecret;
  let rule: PushRuleRow;
  let alarm: AlarmRow;
  let start: number;

  beforeAll(async () => {
    reefer = await device('PUSH-REEFER');
    const policy = await tooWarm(reefer);
    rule = await addRule({
      name: '冷藏车超温通知',
      language: 'zh',
      events: ['opened', 'cleared'],
      match: { policyIds: [policy.id], types: ['temp_high'], levelIds: [level('urgent').id] },
      steps: [
        {
          afterMinutes: 0,
          channels: ['in_app', 'email', 'sms', 'webhook'],
          userIds: [ids.duty],
          emails: ['ops@example.com'],
          phones: ['13900000000'],
          webhooks: [{ url: `${hookBase}/ok`, secret: SECRET }],
        },
        { afterMinutes: 5, channels: ['email', 'in_app'], roleIds: [ids.supervisors] },
      ],
    });
  });

  it('a report past the limit opens an alarm and the first step goes out at once on every channel', async () => {
    await report(reefer, 0, 9.5);
    alarm = await openAlarm(reefer);
    const sent = await deliveriesOf(alarm);
    expect(brief(sent)).toEqual(
      brief([
        { step: 1, channel: 'in_app', target: 'duty-1', status: 'sent' },
        { step: 1, channel: 'email', target: 'duty1@example.com', status: 'sent' },
        { step: 1, channel: 'email', target: 'ops@example.com', status: 'sent' },
        // No SMS gateway configured: kept in the outbox.
        { step: 1, channel: 'sms', target: '13800000001', status: 'outbox' },
        { step: 1, channel: 'sms', target: '13900000000', status: 'outbox' },
        { step: 1, channel: 'webhook', target: `${hookBase}/ok`, status: 'sent' },
      ] as DeliveryRow[]),
    );
    start = Date.parse(sent[0]!.createdAt);
    expect(sent.every((d) => d.attempts === 1 && d.ruleName === '冷藏车超温通知' && d.alarm.device.deviceId === 'PUSH-REEFER')).toBe(true);
    expect(sent.find((d) => d.channel === 'in_app')!.user).toMatchObject({ id: ids.duty, account: 'duty-1' });
    expect(sent.find((d) => d.channel === 'webhook')!.responseCode).toBe(200);

    // The mail, rendered from the Chinese defaults, times in the rule's zone (Asia/Shanghai).
    const startedLocal = new Date(Date.parse(at(0)) + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    expect(mails.map((m) => m.to).sort()).toEqual(['duty1@example.com', 'ops@example.com']);
    expect(mails[0]!.subject).toBe('【紧急】温度过高：PUSH-REEFER');
    expect(mails[0]!.text).toContain(`于 ${startedLocal} 触发紧急告警「温度过高」，当前值 9.5°C，阈值 8°C`);
    const [text] = await t.app.database.db.select().from(outbox).where(eq(outbox.recipient, '13900000000'));
    expect(text).toMatchObject({ channel: 'sms', status: 'outbox' });

    // The webhook: signed, and the receiver's own check of the signature passes.
    expect(hookCalls).toHaveLength(1);
    const hook = hookCalls[0]!;
    expect(hook.signatureValid).toBe(true);
    expect(hook.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(hook.headers['x-iotc-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(hook.payload).toMatchObject({ event: 'opened', step: 1, rule: { id: rule.id, name: '冷藏车超温通知' }, alarm: { id: alarm.id, type: 'temp_high', value: 9.5 } });

    // Each delivery is in the alarm's timeline.
    const events = (await api<AlarmEventRow[]>('GET', `/api/iot/v2/alarms/${alarm.id}/events`, admin)).body.data!;
    const notified = events.filter((e) => e.kind === 'notified');
    expect(notified).toHaveLength(6);
    expect(notified.find((e) => e.detail.channel === 'webhook')!.detail).toMatchObject({ target: `${hookBase}/ok`, step: 1, status: 'sent' });
  });

  it('the recipient reads the in-app message as their own, without alarm:read; not the whole log', async () => {
    const own = await api<Page<DeliveryRow>>('GET', '/api/iot/v2/deliveries?channel=in_app&mine=true', duty);
    expect(own.status).toBe(200);
    expect(own.body.data!.rows).toHaveLength(1);
    expect(own.body.data!.rows[0]).toMatchObject({ subject: '【紧急】温度过高：PUSH-REEFER', alarmId: alarm.id, user: { account: 'duty-1' } });
    expect((await api<DeliveryDetail>('GET', `/api/iot/v2/deliveries/${own.body.data!.rows[0]!.id}`, duty)).status).toBe(200);
    expect((await api('GET', '/api/iot/v2/deliveries', duty)).status).toBe(403);
    const notMine = (await deliveriesOf(alarm)).find((d) => d.channel === 'webhook')!;
    expect((await api('GET', `/api/iot/v2/deliveries/${notMine.id}`, duty)).status).toBe(404);
  });

  it('not acknowledged after 5 minutes: step 2 reaches the supervisors; then nothing more', async () => {
    await tickAt(start + 4 * MIN);
    expect((await deliveriesOf(alarm)).filter((d) => d.step === 2)).toEqual([]);
    await tickAt(start + 5 * MIN);
    const second = (await deliveriesOf(alarm)).filter((d) => d.step === 2);
    expect(brief(second)).toEqual(
      brief([
        { step: 2, channel: 'email', target: 'boss1@example.com', status: 'sent' },
        { step: 2, channel: 'in_app', target: 'boss-1', status: 'sent' },
      ] as DeliveryRow[]),
    );
    expect(mails.at(-1)).toMatchObject({ to: 'boss1@example.com', subject: '【紧急】温度过高：PUSH-REEFER' });
    await tickAt(start + 60 * MIN);
    expect(await deliveriesOf(alarm)).toHaveLength(8);
  });

  it('clearing sends the cleared notice to everyone the alarm reached, once', async () => {
    const mailsBefore = mails.length;
    await report(reefer, 60, 7);
    await report(reefer, 70, 6.5);
    const notices = (await deliveriesOf(alarm)).filter((d) => d.event === 'cleared');
    expect(notices).toHaveLength(8);
    expect(notices.every((d) => d.status === 'sent' || d.status === 'outbox')).toBe(true);
    const newMails = mails.slice(mailsBefore);
    expect(newMails.map((m) => m.to).sort()).toEqual(['boss1@example.com', 'duty1@example.com', 'ops@example.com']);
    expect(newMails[0]!.subject).toBe('【已恢复】【紧急】温度过高：PUSH-REEFER');
    expect(newMails[0]!.text).toContain('状态：已恢复');
    expect(hookCalls.at(-1)!.payload).toMatchObject({ event: 'cleared', alarm: { id: alarm.id, status: 'cleared' } });
  });
});

describe('repeats until acknowledged', () => {
  it('the last step repeats every 2 minutes while unacknowledged; acknowledging stops it', async () => {
    const truck = await device('PUSH-TRUCK');
    const policy = await tooWarm(truck);
    await addRule({
      name: 'Truck on call',
      language: 'en',
      match: { policyIds: [policy.id] },
      steps: [
        { afterMinutes: 0, channels: ['in_app'], userIds: [ids.duty] },
        { afterMinutes: 3, channels: ['in_app'], roleIds: [ids.supervisors], repeatMinutes: 2 },
      ],
    });
    await report(truck, 100, 12);
    const alarm = await openAlarm(truck);
    const [first] = await deliveriesOf(alarm);
    expect(first).toMatchObject({ step: 1, round: 0, target: 'duty-1', subject: '[Urgent] Temperature high: PUSH-TRUCK' });
    expect(first!.body).toContain('value 12 °C, threshold 8 °C');
    const start = Date.parse(first!.createdAt);

    await tickAt(start + 3 * MIN);
    await tickAt(start + 5 * MIN);
    expect((await deliveriesOf(alarm)).map((d) => [d.step, d.round, d.target])).toEqual([
      [1, 0, 'duty-1'],
      [2, 0, 'boss-1'],
      [2, 1, 'boss-1'],
    ]);
    const acked = await api<AlarmRow>('POST', `/api/iot/v2/alarms/${alarm.id}/acknowledge`, admin);
    expect(acked.status).toBe(200);
    await t.app.push.settled();
    await tickAt(start + 7 * MIN);
    await tickAt(start + 30 * MIN);
    expect(await deliveriesOf(alarm)).toHaveLength(3);
  });
});

describe('newly opened', () => {
  it('an alarm opened and repeated by one request (published with count 2) is still pushed, once', async () => {
    const burst = await device('PUSH-BURST');
    const policy = await tooWarm(burst);
    await addRule({ name: 'Burst', language: 'en', match: { policyIds: [policy.id] }, steps: [{ afterMinutes: 0, channels: ['in_app'], userIds: [ids.duty] }] });
    await report(burst, 150, 11, [151, 12]);
    const alarm = await openAlarm(burst);
    expect(alarm.count).toBe(2);
    expect((await deliveriesOf(alarm)).map((d) => [d.step, d.target, d.status])).toEqual([[1, 'duty-1', 'sent']]);
    await report(burst, 152, 13);
    expect(await deliveriesOf(alarm)).toHaveLength(1);
  });
});

describe('webhook retries and sending again', () => {
  let delivery: DeliveryDetail;
  let alarm: AlarmRow;

  it('a webhook answering 500 is tried again after 30 s, 2, 10 and 30 minutes, then fails; every attempt is logged', async () => {
    const box = await device('PUSH-BOX');
    const policy = await tooWarm(box);
    const rule = await addRule({ name: 'Customer webhook', language: 'en', match: { policyIds: [policy.id] }, steps: [{ afterMinutes: 0, channels: ['webhook'], webhooks: [{ url: `${hookBase}/down`, secret: SECRET }] }] });
    const callsBefore = hookCalls.length;
    await report(box, 200, 15);
    alarm = await openAlarm(box);
    const [row] = await deliveriesOf(alarm);
    expect(row).toMatchObject({ channel: 'webhook', status: 'pending', attempts: 1, responseCode: 500, lastError: 'HTTP 500' });
    const get = async () => (await api<DeliveryDetail>('GET', `/api/iot/v2/deliveries/${row!.id}`, admin)).body.data!;

    // Just before it is due nothing happens; when due, the next attempt.
    let d = await get();
    await tickAt(Date.parse(d.nextAttemptAt!) - 1000);
    expect((await get()).attempts).toBe(1);
    while (d.status === 'pending') {
      await tickAt(Date.parse(d.nextAttemptAt!));
      d = await get();
    }
    delivery = d;
    expect(d).toMatchObject({ status: 'failed', attempts: 5, nextAttemptAt: null, lastError: 'HTTP 500' });
    const times = d.attemptLog.map((a) => Date.parse(a.at));
    expect(times.slice(1).map((x, i) => (x - times[i]!) / 1000)).toEqual([30, 120, 600, 1800]);
    expect(d.attemptLog.every((a) => a.status === 'failed' && a.responseCode === 500 && !a.resend)).toBe(true);

    // Five calls, each signed with its own timestamp, all naming the same delivery.
    const calls = hookCalls.slice(callsBefore);
    expect(calls).toHaveLength(5);
    expect(calls.every((c) => c.signatureValid && c.headers['x-iotc-delivery'] === d.id)).toBe(true);
    expect(new Set(calls.map((c) => c.headers['x-iotc-timestamp'])).size).toBe(5);

    // One timeline entry, when it failed for good; the rule counts the failure.
    const events = (await api<AlarmEventRow[]>('GET', `/api/iot/v2/alarms/${alarm.id}/events`, admin)).body.data!;
    expect(events.filter((e) => e.kind === 'notified').map((e) => e.detail.status)).toEqual(['failed']);
    expect((await api<PushRuleRow>('GET', `/api/iot/v2/push-rules/${rule.id}`, admin)).body.data).toMatchObject({ deliveries: 1, failed: 1 });
    const failed = await api<Page<DeliveryRow>>('GET', '/api/iot/v2/deliveries?status=failed&channel=webhook', admin);
    expect(failed.body.data!.rows.map((r) => r.id)).toEqual([d.id]);
  });

  it('"send again" makes one new attempt now, recorded in the log and the timeline', async () => {
    downStatus = 204;
    const again = await api<DeliveryDetail>('POST', `/api/iot/v2/deliveries/${delivery.id}/resend`, admin);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'sent', attempts: 6, responseCode: 204, lastError: null });
    expect(again.body.data!.attemptLog.at(-1)).toMatchObject({ status: 'sent', responseCode: 204, resend: true });
    expect(hookCalls.at(-1)!.signatureValid).toBe(true);
    const events = (await api<AlarmEventRow[]>('GET', `/api/iot/v2/alarms/${alarm.id}/events`, admin)).body.data!;
    expect(events.filter((e) => e.kind === 'notified').map((e) => e.detail.status)).toEqual(['failed', 'sent']);
    // Handling needs alarm:handle.
    expect((await api('POST', `/api/iot/v2/deliveries/${delivery.id}/resend`, duty)).status).toBe(403);
  });
});

describe('push rules', () => {
  const step = (over: Record<string, unknown> = {}) => ({ afterMinutes: 0, channels: ['email'], emails: ['ops@example.com'], ...over });
  const rule = (over: Record<string, unknown> = {}) => ({ name: 'Checked', steps: [step()], ...over });
  const refused = async (body: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') => {
    const res = await api('POST', '/api/iot/v2/push-rules', admin, body, lang);
    expect(res.status).toBe(400);
    return { errorcode: res.body.errorcode, errormsg: res.body.errormsg };
  };

  it('refuses bad steps, channels without recipients, bad addresses, secrets and templates, in the user language', async () => {
    expect(await refused(rule({ steps: [step({ afterMinutes: 5 })] }), 'zh-CN')).toEqual({ errorcode: 'PUSH_STEP_FIRST_DELAY', errormsg: '第一步立即发送，延迟须为 0 分钟' });
    expect(await refused(rule({ steps: [step(), step({ afterMinutes: 10 }), step({ afterMinutes: 10 })] }))).toEqual({
      errorcode: 'PUSH_STEP_ORDER',
      errormsg: 'Each escalation step must come later than the step before it',
    });
    expect(await refused(rule({ steps: [] }), 'zh-CN')).toEqual({ errorcode: 'PUSH_STEPS_REQUIRED', errormsg: '请至少添加一个通知步骤' });
    expect((await refused(rule({ steps: [0, 1, 2, 3, 4, 5].map((i) => step({ afterMinutes: i })) }))).errorcode).toBe('PUSH_STEPS_TOO_MANY');
    expect((await refused(rule({ steps: [step({ repeatMinutes: 5 }), step({ afterMinutes: 5 })] }))).errorcode).toBe('PUSH_REPEAT_LAST_ONLY');
    expect(await refused(rule({ steps: [step({ channels: ['sms'] })] }))).toMatchObject({ errorcode: 'PUSH_RECIPIENTS_REQUIRED' });
    expect((await refused(rule({ steps: [step({ channels: [] })] }))).errorcode).toBe('PUSH_CHANNELS_REQUIRED');
    expect(await refused(rule({ steps: [step({ channels: ['webhook'], webhooks: [{ url: 'ftp://example.com/x', secret: SECRET }] })] }), 'zh-CN')).toEqual({
      errorcode: 'WEBHOOK_URL_FORMAT',
      errormsg: 'Webhook 地址须为以 http:// 或 https:// 开头的网址',
    });
    expect(await refused(rule({ steps: [step({ channels: ['webhook'], webhooks: [{ url: `${hookBase}/ok`, secret: 'short' }] })] }))).toEqual({
      errorcode: 'WEBHOOK_SECRET_FORMAT',
      errormsg: 'The webhook secret must be 16-128 characters',
    });
    expect(await refused(rule({ steps: [step({ channels: ['sms'], phones: ['12345'] })] }), 'zh-CN')).toEqual({ errorcode: 'MOBILE_FORMAT', errormsg: '请输入正确的手机号码' });
    expect((await refused(rule({ steps: [step({ emails: ['not-an-address'] })] }))).errorcode).toBe('EMAIL_FORMAT');
    const placeholder = await refused(rule({ templates: { subject: '{level} on {truck}', body: '' } }), 'zh-CN');
    expect(placeholder.errorcode).toBe('PUSH_TEMPLATE_PLACEHOLDER');
    expect(placeholder.errormsg).toContain('模板中有未知的占位符');
    expect((await refused(rule({ timezone: 'Mars/Olympus' }))).errorcode).toBe('TIMEZONE_UNKNOWN');
  });

  it('refuses users, roles, policies and levels outside the rule’s organisation tree', async () => {
    const theirPolicy = (
      await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', rival, {
        name: 'rival policy',
        scope: 'all',
        rules: [{ id: 'hot', type: 'temp_high', threshold: 8, levelId: (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', rival)).body.data!.rows[0]!.id }],
      })
    ).body.data!;
    expect(await refused(rule({ steps: [step({ channels: ['in_app'], userIds: [ids.rivalUser] })] }), 'zh-CN')).toEqual({ errorcode: 'PUSH_USER_UNKNOWN', errormsg: '接收用户在该组织下不存在' });
    expect((await refused(rule({ steps: [step({ roleIds: [ids.rivalRole] })] }))).errorcode).toBe('PUSH_ROLE_UNKNOWN');
    expect((await refused(rule({ match: { policyIds: [theirPolicy.id] } }))).errorcode).toBe('PUSH_POLICY_UNKNOWN');
    expect((await refused(rule({ match: { levelIds: [theirPolicy.rules[0]!.levelId] } }))).errorcode).toBe('ALARM_LEVEL_UNKNOWN');
    expect((await api('POST', '/api/iot/v2/push-rules', duty, rule())).status).toBe(403);
  });

  it('never reads a webhook secret back; sending the mask back keeps it, a new one replaces it', async () => {
    const made = await addRule(rule({ name: 'Secrets', steps: [step({ channels: ['webhook'], webhooks: [{ url: `${hookBase}/ok`, secret: SECRET }] })] }) as PushRuleInput);
    expect(made.steps[0]!.webhooks).toEqual([{ url: `${hookBase}/ok`, secret: MASKED_SECRET }]);
    expect(made).toMatchObject({ language: 'zh', timezone: 'Asia/Shanghai', events: ['opened'], enabled: true, templates: { subject: '', body: '' } });
    const stored = async () => ((await t.app.database.db.select().from(pushRules).where(eq(pushRules.id, made.id)))[0]!.steps as { webhooks: { secret: string }[] }[])[0]!.webhooks[0]!.secret;

    const renamed = await api<PushRuleRow>('PUT', `/api/iot/v2/push-rules/${made.id}`, admin, { ...made, name: 'Secrets kept' });
    expect(renamed.body.data).toMatchObject({ name: 'Secrets kept' });
    expect(await stored()).toBe(SECRET);
    const rotated = await api<PushRuleRow>('PUT', `/api/iot/v2/push-rules/${made.id}`, admin, { ...made, steps: [step({ channels: ['webhook'], webhooks: [{ url: `${hookBase}/ok`, secret: 'a-brand-new-secret-value' }] })] });
    expect(rotated.status).toBe(200);
    expect(await stored()).toBe('a-brand-new-secret-value');
    // The mask for an address that has no stored secret is not a secret.
    const moved = await api('PUT', `/api/iot/v2/push-rules/${made.id}`, admin, { ...made, steps: [step({ channels: ['webhook'], webhooks: [{ url: `${hookBase}/elsewhere`, secret: MASKED_SECRET }] })] });
    expect(moved.body.errorcode).toBe('WEBHOOK_SECRET_FORMAT');

    expect((await api<PushRuleRow>('POST', `/api/iot/v2/push-rules/${made.id}/disable`, admin)).body.data!.enabled).toBe(false);
    expect((await api<Page<PushRuleRow>>('GET', '/api/iot/v2/push-rules?enabled=false', admin)).body.data!.rows.map((r) => r.id)).toEqual([made.id]);
    expect((await api<PushRuleRow>('POST', `/api/iot/v2/push-rules/${made.id}/enable`, admin)).body.data!.enabled).toBe(true);
    expect((await api('DELETE', `/api/iot/v2/push-rules/${made.id}`, admin)).status).toBe(200);
    expect((await api('GET', `/api/iot/v2/push-rules/${made.id}`, admin)).status).toBe(404);
  });
});

describe('isolation and description', () => {
  it('another organisation cannot list, read, change or resend any of it', async () => {
    const rules = (await api<Page<PushRuleRow>>('GET', '/api/iot/v2/push-rules?size=100', admin)).body.data!.rows;
    expect(rules.length).toBeGreaterThanOrEqual(3);
    const log = (await api<Page<DeliveryRow>>('GET', '/api/iot/v2/deliveries?size=100', admin)).body.data!;
    expect(log.total).toBeGreaterThan(10);
    const theirRules = (await api<Page<PushRuleRow>>('GET', '/api/iot/v2/push-rules', rival)).body.data!;
    expect(theirRules.total).toBe(0);
    expect((await api<Page<DeliveryRow>>('GET', '/api/iot/v2/deliveries', rival)).body.data!.total).toBe(0);
    expect((await api<Page<DeliveryRow>>('GET', '/api/iot/v2/deliveries?mine=true', rival)).body.data!.total).toBe(0);
    const r = rules[0]!;
    const d = log.rows[0]!;
    for (const [method, url] of [
      ['GET', `/api/iot/v2/push-rules/${r.id}`],
      ['DELETE', `/api/iot/v2/push-rules/${r.id}`],
      ['POST', `/api/iot/v2/push-rules/${r.id}/disable`],
      ['GET', `/api/iot/v2/deliveries/${d.id}`],
      ['POST', `/api/iot/v2/deliveries/${d.id}/resend`],
      ['GET', `/api/iot/v2/alarms/${d.alarmId}/deliveries`],
    ] as const) {
      expect((await api(method, url, rival)).status, `${method} ${url}`).toBe(404);
    }
    const put = await api('PUT', `/api/iot/v2/push-rules/${r.id}`, rival, { name: 'mine now', steps: [{ afterMinutes: 0, channels: ['email'], emails: ['x@example.com'] }] });
    expect(put.status).toBe(404);
    expect((await api<PushRuleRow>('GET', `/api/iot/v2/push-rules/${r.id}`, admin)).body.data!.name).toBe(r.name);
    // Filtering by another organisation's id answers 404 too.
    expect((await api('GET', `/api/iot/v2/deliveries?orgId=${r.orgId}`, rival)).status).toBe(404);
  });

  it('the calls are in the OpenAPI description', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    for (const p of ['/api/iot/v2/push-rules', '/api/iot/v2/push-rules/{id}', '/api/iot/v2/deliveries', '/api/iot/v2/deliveries/{id}/resend', '/api/iot/v2/alarms/{id}/deliveries']) {
      expect(paths).toContain(p);
    }
  });
});

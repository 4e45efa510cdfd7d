// Remote control through the API and the embedded MQTT broker, with real `mqtt` clients as the
// devices: request → review → the device receives the command on its own topic → it acknowledges
// → acknowledged; a device answering "not ok" fails it; rejections need a reason; nobody reviews
// their own request; the requester cancels while pending; the time-out fails a sent command and
// a late acknowledgement changes nothing; a device cannot acknowledge another device's command
// nor read its commands; malformed acknowledgements are dropped without harm; no link: the
// command fails at once; counts, filters, story, export; organisation isolation; zh and en errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import pino from 'pino';
import type { CommandEventRow, CommandPage, CommandRow } from '@iotc/shared/command';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { orgs } from '../../db/schema.ts';
import { startMqtt, type MqttLink } from '../../ingest/mqtt.ts';

const BASE = '/api/iot/v2/commands';
const log = pino({ level: 'silent' });

let t: TestApp;
let link: MqttLink;
let detach: () => void;
/** Organisation administrator of demo (every permission, command:review included). */
let admin: string;
/** A second reviewer of demo. */
let admin2: string;
/** The seeded demo operator: command:request only. */
let operator: string;
/** Another organisation with every command permission. */
let rival: string;
let devA: DeviceWithSecret;
let devB: DeviceWithSecret;
let devR: DeviceWithSecret;
const clients: MqttClient[] = [];

type Lang = 'zh-CN' | 'en-US';
const api = <T>(method: 'GET' | 'POST', url: string, token: string, body?: unknown, lang: Lang = 'en-US') => call<T>(t.app, { method, url, token, body, lang });

async function device(token: string, deviceId: string): Promise<DeviceWithSecret> {
  const res = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', token, { deviceId, name: `${deviceId} name` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function requested(body: Record<string, unknown>, token = operator): Promise<CommandRow> {
  const res = await api<CommandRow>('POST', BASE, token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
// Reviewing signs the command: the reviewer's password again (signatures.test.ts covers the signature).
const review = (id: string, token: string, body: object, lang: Lang = 'en-US') => api<CommandRow>('POST', `${BASE}/${id}/review`, token, { password: DEMO_PASSWORD, ...body }, lang);
async function get(id: string, token = admin): Promise<CommandRow> {
  const res = await api<CommandRow>('GET', `${BASE}/${id}`, token);
  expect(res.status).toBe(200);
  return res.body.data!;
}
async function story(id: string, token = admin): Promise<CommandEventRow[]> {
  const res = await api<CommandEventRow[]>('GET', `${BASE}/${id}/events`, token);
  expect(res.status).toBe(200);
  return res.body.data!;
}
async function connect(d: DeviceWithSecret): Promise<MqttClient> {
  const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { username: d.deviceId, password: d.secret, reconnectPeriod: 0 });
  clients.push(c);
  return c;
}
/** The device's client subscribed to its command topic; `next()` answers the next command it receives. */
async function listening(d: DeviceWithSecret) {
  const c = await connect(d);
  const got: { topic: string; body: Record<string, unknown> }[] = [];
  c.on('message', (topic, payload) => got.push({ topic, body: JSON.parse(payload.toString()) as Record<string, unknown> }));
  const granted = await c.subscribeAsync(`devices/${d.deviceId}/command`, { qos: 1 });
  expect(granted[0]!.qos).toBe(1);
  return {
    client: c,
    got,
    async next() {
      await until(() => got.length > 0);
      return got.shift()!;
    },
  };
}
async function until(check: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
const ack = (c: MqttClient, d: DeviceWithSecret, body: unknown) => c.publishAsync(`devices/${d.deviceId}/command/ack`, typeof body === 'string' ? body : JSON.stringify(body), { qos: 1 });

beforeAll(async () => {
  t = await testApp({ commandTimeoutMs: 60_000 });
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'cmd-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await addOrgUser(db, { orgId: demoOrg, account: 'cmd-admin2', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await createTenantUser(db, { code: 'rival-cmd', account: 'rival-cmd', password: DEMO_PASSWORD, permissions: ['device:read', 'device:write', 'command:request', 'command:review'] });
  [admin, admin2, operator, rival] = await Promise.all([
    login(t.app, 'cmd-admin', DEMO_PASSWORD),
    login(t.app, 'cmd-admin2', DEMO_PASSWORD),
    login(t.app, 'demo', DEMO_PASSWORD),
    login(t.app, 'rival-cmd', DEMO_PASSWORD),
  ]);
  const stamp = `${process.pid}${Date.now()}`;
  devA = await device(admin, `CMDA${stamp}`);
  devB = await device(admin, `CMDB${stamp}`);
  devR = await device(rival, `CMDR${stamp}`);
  link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake, commandAcks: t.app.commands.onAck });
  detach = t.app.commands.attach(link);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  detach();
  await link.close();
  await t.close();
});

describe('the remote-control flow', () => {
  it('request → approve → the device receives it on its topic → it acknowledges → acknowledged, with the full story', async () => {
    const dev = await listening(devA);
    const cmd = await requested({ deviceRef: devA.id, kind: 'set_point', params: { celsius: -18 }, remark: 'frozen load' });
    expect(cmd).toMatchObject({ status: 'pending_review', kind: 'set_point', params: { celsius: -18 }, deviceId: devA.deviceId, requester: { account: 'demo' }, reviewer: null, sentAt: null });

    const approved = await review(cmd.id, admin, { approve: true });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'sent', reviewer: { account: 'cmd-admin' } });
    expect(approved.body.data!.sentAt).not.toBeNull();

    const received = await dev.next();
    expect(received.topic).toBe(`devices/${devA.deviceId}/command`);
    expect(received.body).toMatchObject({ id: cmd.id, kind: 'set_point', params: { celsius: -18 } });
    expect(Date.parse(received.body.time as string)).not.toBeNaN();

    await ack(dev.client, devA, { id: cmd.id, ok: true, message: 'set to -18', time: new Date().toISOString() });
    const done = await get(cmd.id);
    expect(done).toMatchObject({ status: 'acknowledged', result: 'set to -18', failure: null });
    expect(done.ackAt).not.toBeNull();
    expect((await story(cmd.id)).map((e) => [e.kind, e.actor])).toEqual([
      ['requested', 'demo'],
      ['approved', 'cmd-admin'],
      ['sent', null],
      ['acknowledged', null],
    ]);
    // A repeated acknowledgement changes nothing.
    await ack(dev.client, devA, { id: cmd.id, ok: false });
    expect((await get(cmd.id)).status).toBe('acknowledged');
  });

  it('a device answering "not ok" fails the command with its message', async () => {
    const dev = await listening(devB);
    const cmd = await requested({ deviceRef: devB.id, kind: 'lock' });
    expect(cmd.params).toEqual({});
    await review(cmd.id, admin, { approve: true });
    expect((await dev.next()).body).toMatchObject({ id: cmd.id, kind: 'lock', params: {} });
    await ack(dev.client, devB, { id: cmd.id, ok: false, message: 'door open' });
    expect(await get(cmd.id)).toMatchObject({ status: 'failed', failure: 'device', result: 'door open' });
  });

  it('rejecting needs a reason (zh and en); with one the command is rejected and stays so', async () => {
    const cmd = await requested({ deviceRef: devA.id, kind: 'reboot' });
    for (const [lang, text] of [
      ['en-US', 'Please give the reason for the rejection'],
      ['zh-CN', '请填写驳回原因'],
    ] as const) {
      const res = await review(cmd.id, admin, { approve: false, reason: '  ' }, lang);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ isSuccess: 'N', errorcode: 'COMMAND_REASON_REQUIRED', errormsg: text });
    }
    const res = await review(cmd.id, admin, { approve: false, reason: 'not during the night shift' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', reviewReason: 'not during the night shift', sentAt: null });
    const again = await review(cmd.id, admin2, { approve: true }, 'zh-CN');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ errorcode: 'COMMAND_NOT_PENDING', errormsg: '该指令已不在待审核状态' });
    expect((await story(cmd.id)).map((e) => e.kind)).toEqual(['requested', 'rejected']);
  });

  it('nobody reviews their own request; reviewing needs command:review', async () => {
    const cmd = await requested({ deviceRef: devA.id, kind: 'unlock' }, admin);
    const own = await review(cmd.id, admin, { approve: true });
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({ errorcode: 'COMMAND_SELF_REVIEW', errormsg: 'You cannot review your own command request' });
    const ownZh = await review(cmd.id, admin, { approve: false, reason: 'x' }, 'zh-CN');
    expect(ownZh.body).toMatchObject({ errorcode: 'COMMAND_SELF_REVIEW', errormsg: '不能审核自己申请的指令' });
    const byOperator = await review(cmd.id, operator, { approve: true });
    expect(byOperator.status).toBe(403);
    expect(byOperator.body.errorcode).toBe('NO_PERMISSION');
    expect((await get(cmd.id)).status).toBe('pending_review');
  });

  it('the requester cancels a pending request; nobody else can, and a cancelled one cannot be reviewed', async () => {
    const cmd = await requested({ deviceRef: devA.id, kind: 'report_interval', params: { seconds: 30 } });
    const other = await api<CommandRow>('POST', `${BASE}/${cmd.id}/cancel`, admin);
    expect(other.status).toBe(403);
    expect(other.body.errorcode).toBe('COMMAND_NOT_OWN');
    const mine = await api<CommandRow>('POST', `${BASE}/${cmd.id}/cancel`, operator);
    expect(mine.status).toBe(200);
    expect(mine.body.data!.status).toBe('cancelled');
    expect((await api('POST', `${BASE}/${cmd.id}/cancel`, operator)).status).toBe(409);
    expect((await review(cmd.id, admin, { approve: true })).body.errorcode).toBe('COMMAND_NOT_PENDING');
  });

  it('a sent command without an acknowledgement in time fails with "timeout"; a late acknowledgement changes nothing', async () => {
    const cmd = await requested({ deviceRef: devB.id, kind: 'custom', params: { name: 'beep', payload: { times: 3 } } });
    await review(cmd.id, admin, { approve: true });
    expect(await t.app.commands.expire(new Date(Date.now() + 30_000))).toEqual([]);
    expect((await get(cmd.id)).status).toBe('sent');
    expect(await t.app.commands.expire(new Date(Date.now() + 61_000))).toContain(cmd.id);
    expect(await get(cmd.id)).toMatchObject({ status: 'failed', failure: 'timeout' });
    const c = await connect(devB);
    await ack(c, devB, { id: cmd.id, ok: true });
    expect((await get(cmd.id)).status).toBe('failed');
    expect((await story(cmd.id)).map((e) => e.kind)).toEqual(['requested', 'approved', 'sent', 'failed']);
  });

  it("a device cannot acknowledge another device's command, nor subscribe to its commands", async () => {
    const cmd = await requested({ deviceRef: devA.id, kind: 'lock' });
    await review(cmd.id, admin, { approve: true });
    // On the other device's ack topic: refused, and the connection is closed.
    const intruder = await connect(devB);
    const closed = new Promise<void>((resolve) => intruder.once('close', () => resolve()));
    intruder.publish(`devices/${devA.deviceId}/command/ack`, JSON.stringify({ id: cmd.id, ok: true }), { qos: 1 });
    await closed;
    expect((await get(cmd.id)).status).toBe('sent');
    // On its own ack topic, naming the other device's command: dropped.
    const sneaky = await connect(devB);
    await ack(sneaky, devB, { id: cmd.id, ok: true });
    expect((await get(cmd.id)).status).toBe('sent');
    // Subscribing to another device's commands is refused (the broker grants 128: failure).
    await expect(sneaky.subscribeAsync(`devices/${devA.deviceId}/command`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await expect(sneaky.subscribeAsync('devices/+/command', { qos: 1 })).rejects.toThrow(/Subscribe error/);
  });

  it('malformed acknowledgements are dropped; the connection and the next good one work', async () => {
    const dev = await listening(devA);
    const cmd = await requested({ deviceRef: devA.id, kind: 'reboot' });
    await review(cmd.id, admin, { approve: true });
    await dev.next();
    await ack(dev.client, devA, 'not json at all');
    await ack(dev.client, devA, { id: 'not-a-uuid', ok: true });
    await ack(dev.client, devA, { id: cmd.id, ok: 'yes' });
    await ack(dev.client, devA, { id: '00000000-0000-4000-8000-000000000000', ok: true });
    expect((await get(cmd.id)).status).toBe('sent');
    expect(dev.client.connected).toBe(true);
    await ack(dev.client, devA, { id: cmd.id, ok: true });
    expect((await get(cmd.id)).status).toBe('acknowledged');
  });

  it('without a device link an approved command fails at once ("send")', async () => {
    detach();
    try {
      const cmd = await requested({ deviceRef: devA.id, kind: 'unlock' });
      const res = await review(cmd.id, admin, { approve: true });
      expect(res.body.data).toMatchObject({ status: 'failed', failure: 'send' });
    } finally {
      detach = t.app.commands.attach(link);
    }
  });
});

describe('validation', () => {
  const big = { blob: 'a'.repeat(2100) };
  it.each([
    [{ kind: 'set_point', params: { celsius: 31 } }, 'COMMAND_SET_POINT_RANGE', '设定温度须在 -40 至 30 °C 之间'],
    [{ kind: 'set_point', params: {} }, 'COMMAND_SET_POINT_RANGE', '设定温度须在 -40 至 30 °C 之间'],
    [{ kind: 'report_interval', params: { seconds: 9 } }, 'COMMAND_INTERVAL_RANGE', '上报间隔须为 10 至 86400 之间的整数秒'],
    [{ kind: 'report_interval', params: { seconds: 86_401 } }, 'COMMAND_INTERVAL_RANGE', '上报间隔须为 10 至 86400 之间的整数秒'],
    [{ kind: 'custom', params: { name: ' ', payload: {} } }, 'COMMAND_NAME_REQUIRED', '请输入自定义指令名称'],
    [{ kind: 'custom', params: { name: 'x', payload: big } }, 'COMMAND_PAYLOAD_TOO_LARGE', '指令内容最多 2 KB'],
    [{ kind: 'custom', params: { name: 'x', payload: [1, 2] } }, 'COMMAND_PAYLOAD_OBJECT', '指令内容须为 JSON 对象'],
  ])('refuses invalid parameters, case %#', async (spec, code, zh) => {
    const res = await api('POST', BASE, operator, { deviceRef: devA.id, ...spec }, 'zh-CN');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorcode: code, errormsg: zh });
  });

  it('refuses an unknown kind and a missing device', async () => {
    expect((await api('POST', BASE, operator, { deviceRef: devA.id, kind: 'self_destruct', params: {} })).status).toBe(400);
    const res = await api('POST', BASE, operator, { kind: 'lock' });
    expect(res.status).toBe(400);
  });

  it('a custom payload up to 2 KB is accepted', async () => {
    const cmd = await requested({ deviceRef: devA.id, kind: 'custom', params: { name: 'config', payload: { blob: 'a'.repeat(1900) } } });
    expect(cmd.params).toMatchObject({ name: 'config' });
  });
});

describe('the query, the export and isolation', () => {
  it('lists with per-status counts and filters', async () => {
    const res = await api<CommandPage>('GET', `${BASE}?size=100`, admin);
    expect(res.status).toBe(200);
    const page = res.body.data!;
    expect(page.total).toBe(page.rows.length);
    const sum = Object.values(page.counts).reduce((a, b) => a + b, 0);
    expect(sum).toBe(page.total);
    expect(page.counts.acknowledged).toBeGreaterThanOrEqual(2);
    // The counts ignore the status filter; the rows do not.
    const sent = (await api<CommandPage>('GET', `${BASE}?status=acknowledged`, admin)).body.data!;
    expect(sent.rows.every((r) => r.status === 'acknowledged')).toBe(true);
    expect(sent.counts).toEqual(page.counts);
    const byDevice = (await api<CommandPage>('GET', `${BASE}?deviceRef=${devB.id}&size=100`, admin)).body.data!;
    expect(byDevice.rows.every((r) => r.deviceRef === devB.id)).toBe(true);
    expect(byDevice.total).toBeGreaterThan(0);
    const kinds = (await api<CommandPage>('GET', `${BASE}?kind=lock,unlock&size=100`, admin)).body.data!;
    expect(kinds.rows.every((r) => r.kind === 'lock' || r.kind === 'unlock')).toBe(true);
    const mine = (await api<CommandPage>('GET', `${BASE}?mine=true&size=100`, admin)).body.data!;
    expect(mine.rows.every((r) => r.requester.account === 'cmd-admin')).toBe(true);
    const keyword = (await api<CommandPage>('GET', `${BASE}?keyword=${devB.deviceId}&size=100`, admin)).body.data!;
    expect(keyword.total).toBe(byDevice.total);
    const future = (await api<CommandPage>('GET', `${BASE}?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, admin)).body.data!;
    expect(future.total).toBe(0);
  });

  it('exports the query as CSV in the request language', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/export?format=csv&status=acknowledged`, headers: { access_token: admin, language: 'zh-CN', timezone: 'Asia/Shanghai' } });
    expect(res.statusCode).toBe(200);
    const text = res.body;
    expect(text).toContain('设备号');
    expect(text).toContain('已确认');
    expect(text).toContain('设置温度设定值');
    expect(text).toContain('-18 °C');
  });

  it("needs command:request or command:review to read; another organisation sees, reviews and asks for nothing of demo's", async () => {
    const [demoCmd] = (await api<CommandPage>('GET', `${BASE}?size=1`, admin)).body.data!.rows;
    const theirs = (await api<CommandPage>('GET', `${BASE}?size=100`, rival)).body.data!;
    expect(theirs.total).toBe(0);
    expect((await api('GET', `${BASE}/${demoCmd!.id}`, rival)).status).toBe(404);
    expect((await api('GET', `${BASE}/${demoCmd!.id}/events`, rival)).status).toBe(404);
    expect((await review(demoCmd!.id, rival, { approve: true })).status).toBe(404);
    const foreign = await api('POST', BASE, rival, { deviceRef: devA.id, kind: 'lock' }, 'zh-CN');
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ errorcode: 'COMMAND_DEVICE_UNKNOWN', errormsg: '该设备在您的组织下不存在' });
    // And demo cannot command the rival's device.
    expect((await api('POST', BASE, operator, { deviceRef: devR.id, kind: 'lock' })).body.errorcode).toBe('COMMAND_DEVICE_UNKNOWN');
    const nobody = await createTenantUser(t.app.database.db, { code: 'no-cmd', account: 'no-cmd', password: DEMO_PASSWORD, permissions: ['device:read'] });
    expect(nobody.user.account).toBe('no-cmd');
    const token = await login(t.app, 'no-cmd', DEMO_PASSWORD);
    expect((await api('GET', BASE, token)).status).toBe(403);
    expect((await api('GET', BASE, '')).status).toBe(401);
  });
});

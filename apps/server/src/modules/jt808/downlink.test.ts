// Remote-control commands to JT/T 808 terminals over real TCP, through the API's review flow (on
// PGlite, or PostgreSQL with DATABASE_URL): a position query answered 0x0201 acknowledges the
// command and stores the fix; a parameter setting answered 0x0001 result 0 is acknowledged, result
// 1 fails with the reason; no answer times out; a terminal connected nowhere stays sent and times
// out as an MQTT device that is away does, unless it authenticates (on any node) before the time-out,
// which delivers it then; kinds a terminal does not take are refused; another
// organisation neither commands it nor closes its commands; and on two nodes (two apps on one
// database and one bus: in-process, or Redis when REDIS_URL is set) a command approved on the
// second reaches the terminal connected to the first, and its answer closes it on either node; a
// terminal that reconnected to the second while the first still holds its old connection open (no
// FIN reached it) gets its command from the second only.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import type { CommandEventRow, CommandRow } from '@iotc/shared/command';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { orgs, telemetry } from '../../db/schema.ts';
import { localBus, redisBus, type EventBus } from '../../realtime/bus.ts';
import { TestTerminal } from './test-helpers.ts';
import { decodeRegistrationAnswer, encodeAuthentication, encodeRegistration, MSG, type Registration } from './messages.ts';
import { encodePositionAnswer } from './location.ts';
import { decodeSetParameters, decodeTerminalControl, decodeTextMessage, CONTROL_COMMAND } from './commands.ts';
import { startJt808Gateway, type Jt808Gateway } from './gateway.ts';
import { jt808Repo } from './repo.ts';
import { jt808Service } from './service.ts';

const BASE = '/api/iot/v2/commands';
const log = pino({ level: 'silent' });
const TIMEOUT_MS = 60_000;
const PHONE = '013955500001';
const AWAY = '013955500002';
const RIVAL_PHONE = '013955500003';
/** A 2019-edition terminal: 20 digits, version byte in the header. */
const PHONE_2019 = '00000000013955500004';
/** A terminal away while its commands are approved. */
const LATER = '013955500005';
const REG: Registration = { edition: 2013, province: 31, city: 100, manufacturer: 'ACME', model: 'GT-808', terminalId: 'T000009', plateColour: 1, plate: '沪A55501' };

let bus: EventBus;
let a: TestApp;
let b: TestApp;
let gatewayA: Jt808Gateway;
let gatewayB: Jt808Gateway;
let admin: string;
let operator: string;
let rival: string;
let ref: string;
let awayRef: string;
let jsonRef: string;
let ref2019: string;
const terminals: Terminal[] = [];

/** A terminal on a real socket: frames out built by the codec's encoders, platform frames in. */
class Terminal extends TestTerminal {
  constructor(socket: Socket, phone: string, v2019 = false) {
    super(socket, phone, v2019);
    terminals.push(this);
  }

  /** Registers (once) and authenticates on this connection; answers the code. */
  async signIn(code?: string): Promise<string> {
    if (!code) {
      this.send(MSG.register, encodeRegistration({ ...REG, edition: this.v2019 ? 2019 : 2013 }));
      const reg = decodeRegistrationAnswer((await this.next(MSG.registerAnswer)).body);
      expect(reg.result).toBe(0);
      code = reg.authCode!;
    }
    const serial = this.send(MSG.authenticate, encodeAuthentication({ code, imei: '860000000000004', softwareVersion: '1.0' }, this.v2019));
    expect(await this.answer()).toEqual({ serial, messageId: MSG.authenticate, result: 0 });
    return code;
  }
}

const gatewayOf = (t: TestApp, nodeId: string) =>
  startJt808Gateway({ port: 0, host: '127.0.0.1', log, intake: t.app.intake, service: jt808Service(jt808Repo(t.app.database.db), { nodeId }), commands: t.app.jt808Commands });

async function until(check: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const api = <T>(t: TestApp, method: 'GET' | 'POST', url: string, token: string, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<T>(t.app, { method, url, token, body, lang });

/** Requested by the operator and approved by the administrator, on node `t` (node A unless given). */
async function approved(body: Record<string, unknown>, t: TestApp = a): Promise<CommandRow> {
  const req = await api<CommandRow>(t, 'POST', BASE, operator, body);
  expect(req.status, JSON.stringify(req.body)).toBe(200);
  const res = await api<CommandRow>(t, 'POST', `${BASE}/${req.body.data!.id}/review`, admin, { approve: true, password: DEMO_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
const get = async (id: string, t: TestApp = a) => (await api<CommandRow>(t, 'GET', `${BASE}/${id}`, admin)).body.data!;
const story = async (id: string) => (await api<CommandEventRow[]>(a, 'GET', `${BASE}/${id}/events`, admin)).body.data!;
/** Waits until the command has left `sent`, and answers it. */
async function settled(id: string, t: TestApp = a): Promise<CommandRow> {
  let row: CommandRow | undefined;
  await until(async () => (row = await get(id, t)).status !== 'sent');
  return row!;
}

beforeAll(async () => {
  // Two nodes on one database and one bus: in-process, or Redis (a channel of this run's own).
  const channel = `iotc:test:jt808-commands:${process.pid}:${Date.now()}`;
  const pair = () => (process.env.REDIS_URL ? redisBus(process.env.REDIS_URL, { channel }) : (bus ??= localBus()));
  const busA = pair();
  a = await testApp({ commandTimeoutMs: TIMEOUT_MS, nodeId: 'node-a' }, { bus: busA });
  const busB = pair();
  // Node B on node A's database (it leaves it open when it closes).
  b = await testApp({ commandTimeoutMs: TIMEOUT_MS, nodeId: 'node-b' }, { bus: busB, database: a.app.database });
  const owned = [busA, busB].filter((x, i, all) => all.indexOf(x) === i);
  const closeA = a.close;
  a.close = async () => {
    await closeA();
    await Promise.all(owned.map((x) => x.close()));
  };
  const db = a.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'jt-cmd-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await createTenantUser(db, { code: 'jt-cmd-rival', account: 'jt-cmd-rival', password: DEMO_PASSWORD, permissions: ['device:read', 'device:write', 'command:request', 'command:review'] });
  [admin, operator, rival] = await Promise.all([login(a.app, 'jt-cmd-admin', DEMO_PASSWORD), login(a.app, 'demo', DEMO_PASSWORD), login(a.app, 'jt-cmd-rival', DEMO_PASSWORD)]);
  const device = async (token: string, deviceId: string, protocol: 'jt808' | 'json') => {
    const res = await api<{ id: string }>(a, 'POST', '/api/iot/v2/devices', token, { deviceId, name: `${deviceId} name`, protocol });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data!.id;
  };
  ref = await device(admin, PHONE, 'jt808');
  awayRef = await device(admin, AWAY, 'jt808');
  jsonRef = await device(admin, `JTCMD${process.pid}`, 'json');
  await device(rival, RIVAL_PHONE, 'jt808');
  ref2019 = await device(admin, PHONE_2019, 'jt808');
  gatewayA = await gatewayOf(a, 'node-a');
  gatewayB = await gatewayOf(b, 'node-b');
});
afterAll(async () => {
  for (const term of terminals) term.end();
  await gatewayA?.close();
  await gatewayB?.close();
  await b?.close();
  await a?.close();
});

describe('JT/T 808 commands down', () => {
  let term: Terminal;
  let code: string;

  beforeAll(async () => {
    term = await Terminal.open(gatewayA.port, PHONE);
    code = await term.signIn();
  });

  it('position query: 0x8201 to the terminal, its 0x0201 answer acknowledges the command and the fix is stored', async () => {
    const cmd = await approved({ deviceRef: ref, kind: 'position_query' });
    expect(cmd.status).toBe('sent');
    const query = await term.next(MSG.positionQuery);
    expect(query.body.length).toBe(0);
    const time = new Date(Date.now() - 5000);
    time.setMilliseconds(0);
    term.send(MSG.positionAnswer, encodePositionAnswer({ serial: query.header.serial, location: { latitude: 31.240001, longitude: 121.490002, altitude: 5, speedKmh: 0, direction: 10, positioned: true, acc: false, time } }));
    const done = await settled(cmd.id);
    expect(done).toMatchObject({ status: 'acknowledged', result: '31.240001,121.490002', failure: null });
    const [fix] = await a.app.database.db.select().from(telemetry).where(and(eq(telemetry.deviceRef, ref), eq(telemetry.time, time)));
    expect(fix).toMatchObject({ lat: 31.240001, lon: 121.490002 });
    expect(fix!.raw).toMatchObject({ jt808: { msg: '0x0201' } });
    const events = await story(cmd.id);
    expect(events.map((e) => e.kind)).toEqual(['requested', 'approved', 'sent', 'delivered', 'acknowledged']);
    expect(events[2]!.detail).toEqual({ channel: 'jt808' });
    expect(events[3]!.detail).toEqual({ node: 'node-a', serial: query.header.serial, messageId: MSG.positionQuery });
    // The 0x0201 is an answer: the platform does not answer it.
    expect(term.has(MSG.platformAnswer)).toBe(false);
  });

  it('parameter setting (report interval, 0x8103) answered 0x0001 result 0: acknowledged', async () => {
    const cmd = await approved({ deviceRef: ref, kind: 'report_interval', params: { seconds: 30 } });
    const frame = await term.next(MSG.setParameters);
    expect(decodeSetParameters(frame.body)).toEqual({ reportIntervalSeconds: 30 });
    term.reply(frame, 0);
    expect(await settled(cmd.id)).toMatchObject({ status: 'acknowledged', failure: null });
  });

  it('text message (0x8300) answered result 1: failed with the reason', async () => {
    const cmd = await approved({ deviceRef: ref, kind: 'text_message', params: { text: '请在前方服务区停车', tts: true } });
    const frame = await term.next(MSG.textMessage);
    expect(decodeTextMessage(frame.body, false)).toEqual({ flags: 0x04 | 0x08, text: '请在前方服务区停车' });
    term.reply(frame, 1);
    expect(await settled(cmd.id)).toMatchObject({ status: 'failed', failure: 'device', result: 'JT/T 808 result 1 (failure)' });
    expect((await story(cmd.id)).at(-1)).toMatchObject({ kind: 'failed', detail: { failure: 'device', message: 'JT/T 808 result 1 (failure)' } });
  });

  it('terminal control (0x8105) nobody answers: timed out; a late answer changes nothing', async () => {
    const cmd = await approved({ deviceRef: ref, kind: 'terminal_control', params: { action: 'reset' } });
    const frame = await term.next(MSG.terminalControl);
    expect(decodeTerminalControl(frame.body)).toEqual({ command: CONTROL_COMMAND.reset, params: '' });
    expect(await a.app.commands.expire(new Date(Date.now() + TIMEOUT_MS + 1000))).toContain(cmd.id);
    expect(await get(cmd.id)).toMatchObject({ status: 'failed', failure: 'timeout' });
    term.reply(frame, 0);
    // The terminal's next message is handled after the late answer: by then it has been taken and ignored.
    term.send(MSG.heartbeat, Buffer.alloc(0));
    await term.next(MSG.platformAnswer);
    await a.app.commands.settled();
    expect(await get(cmd.id)).toMatchObject({ status: 'failed', failure: 'timeout' });
  });

  it('a 2019 terminal gets its frames in the 2019 header and body (text type byte) and is matched the same way', async () => {
    const t19 = await Terminal.open(gatewayA.port, PHONE_2019, true);
    await t19.signIn();
    const cmd = await approved({ deviceRef: ref2019, kind: 'text_message', params: { text: 'Slow down', emergency: true } });
    const frame = await t19.next(MSG.textMessage);
    expect(frame.header).toMatchObject({ phone: PHONE_2019, v2019: true, protocolVersion: 1 });
    expect(decodeTextMessage(frame.body, true)).toEqual({ flags: 0x01 | 0x04, textType: 1, text: 'Slow down' });
    t19.reply(frame, 3);
    expect(await settled(cmd.id)).toMatchObject({ status: 'failed', failure: 'device', result: 'JT/T 808 result 3 (not supported)' });
    t19.end();
  });

  it('a terminal connected to no node: the command stays sent, undelivered, and times out, as an MQTT device that is away', async () => {
    const cmd = await approved({ deviceRef: awayRef, kind: 'position_query' });
    await a.app.commands.settled();
    await b.app.commands.settled();
    expect(await get(cmd.id)).toMatchObject({ status: 'sent' });
    expect((await story(cmd.id)).map((e) => e.kind)).toEqual(['requested', 'approved', 'sent']);
    expect(await a.app.commands.expire(new Date(Date.now() + TIMEOUT_MS + 1000))).toContain(cmd.id);
    expect(await get(cmd.id)).toMatchObject({ status: 'failed', failure: 'timeout' });
  });

  it('a command approved while the terminal is connected nowhere reaches it when it authenticates, on any node; one that timed out meanwhile does not', async () => {
    const made = await api<{ id: string }>(a, 'POST', '/api/iot/v2/devices', admin, { deviceId: LATER, name: 'Back later', protocol: 'jt808' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const laterRef = made.body.data!.id;
    // Approved while away, then timed out: failed, never to be written.
    const stale = await approved({ deviceRef: laterRef, kind: 'position_query' });
    expect(await a.app.commands.expire(new Date(Date.now() + TIMEOUT_MS + 1000))).toContain(stale.id);
    // Approved while away (on node A), still within its time-out: waits, undelivered.
    const cmd = await approved({ deviceRef: laterRef, kind: 'text_message', params: { text: '回来后请联系调度' } });
    await a.app.commands.settled();
    await b.app.commands.settled();
    expect(await get(cmd.id)).toMatchObject({ status: 'sent' });
    expect((await story(cmd.id)).map((e) => e.kind)).toEqual(['requested', 'approved', 'sent']);

    // The terminal comes into coverage at node B and authenticates: node B writes the waiting command.
    const back = await Terminal.open(gatewayB.port, LATER);
    const laterCode = await back.signIn();
    const frame = await back.next(MSG.textMessage);
    expect(decodeTextMessage(frame.body, false)).toEqual({ flags: 0x04, text: '回来后请联系调度' });
    expect((await story(cmd.id)).find((e) => e.kind === 'delivered')?.detail).toEqual({ node: 'node-b', serial: frame.header.serial, messageId: MSG.textMessage });
    back.reply(frame, 0);
    expect(await settled(cmd.id)).toMatchObject({ status: 'acknowledged', failure: null });
    // The timed-out position query was not written (a heartbeat answered after shows nothing else came).
    back.send(MSG.heartbeat, Buffer.alloc(0));
    await back.next(MSG.platformAnswer);
    expect(back.has(MSG.positionQuery)).toBe(false);
    expect(await get(stale.id)).toMatchObject({ status: 'failed', failure: 'timeout' });

    // Authenticating again (a reconnect) does not send the answered command again.
    back.end();
    await until(() => gatewayB.connections() === 0);
    const again = await Terminal.open(gatewayA.port, LATER);
    await again.signIn(laterCode);
    again.send(MSG.heartbeat, Buffer.alloc(0));
    await again.next(MSG.platformAnswer);
    expect(again.has(MSG.textMessage)).toBe(false);
    again.end();
  });

  it('offers a terminal only the commands of its protocol, in both languages', async () => {
    const en = await api(a, 'POST', BASE, operator, { deviceRef: ref, kind: 'set_point', params: { celsius: -18 } });
    expect(en).toMatchObject({ status: 400, body: { errorcode: 'COMMAND_KIND_UNSUPPORTED' } });
    const zh = await api<unknown>(a, 'POST', BASE, operator, { deviceRef: jsonRef, kind: 'position_query' }, 'zh-CN');
    expect(zh).toMatchObject({ status: 400, body: { errorcode: 'COMMAND_KIND_UNSUPPORTED' } });
    expect((zh.body as { errormsg?: string }).errormsg).toMatch(/不支持/);
    const empty = await api(a, 'POST', BASE, operator, { deviceRef: ref, kind: 'text_message', params: { text: '  ' } });
    expect(empty).toMatchObject({ status: 400, body: { errorcode: 'COMMAND_TEXT_REQUIRED' } });
    const action = await api(a, 'POST', BASE, operator, { deviceRef: ref, kind: 'terminal_control', params: { action: 'explode' } });
    expect(action).toMatchObject({ status: 400, body: { errorcode: 'COMMAND_CONTROL_ACTION' } });
  });

  it('another organisation can neither command the terminal, see its commands, nor close them with its own terminal', async () => {
    const asRival = await api(a, 'POST', BASE, rival, { deviceRef: ref, kind: 'position_query' });
    expect(asRival).toMatchObject({ status: 400, body: { errorcode: 'COMMAND_DEVICE_UNKNOWN' } });
    const cmd = await approved({ deviceRef: ref, kind: 'report_interval', params: { seconds: 60 } });
    const frame = await term.next(MSG.setParameters);
    expect((await api(a, 'GET', `${BASE}/${cmd.id}`, rival)).status).toBe(404);
    expect((await api(a, 'GET', `${BASE}/${cmd.id}/events`, rival)).status).toBe(404);
    // The rival's terminal answers with the same serial and message id: not its command, nothing happens.
    const other = await Terminal.open(gatewayA.port, RIVAL_PHONE);
    await other.signIn();
    other.reply(frame, 0);
    other.send(MSG.heartbeat, Buffer.alloc(0));
    await other.next(MSG.platformAnswer);
    await a.app.commands.settled();
    expect(await get(cmd.id)).toMatchObject({ status: 'sent' });
    other.end();
    term.reply(frame, 0);
    expect(await settled(cmd.id)).toMatchObject({ status: 'acknowledged' });
  });

  it('two nodes: approved on node B, written by node A that holds the connection, answered on node B after a reconnect', async () => {
    const cmd = await approved({ deviceRef: ref, kind: 'report_interval', params: { seconds: 120 } }, b);
    const frame = await term.next(MSG.setParameters);
    expect(decodeSetParameters(frame.body)).toEqual({ reportIntervalSeconds: 120 });
    expect((await story(cmd.id)).find((e) => e.kind === 'delivered')?.detail).toMatchObject({ node: 'node-a', serial: frame.header.serial });
    // The terminal moves to node B (its saved code) and answers there: node B finds the command in the database.
    term.end();
    await until(() => gatewayA.connections() === 0);
    const moved = await Terminal.open(gatewayB.port, PHONE);
    await moved.signIn(code);
    moved.reply(frame, 0);
    expect(await settled(cmd.id, b)).toMatchObject({ status: 'acknowledged' });
    // And the other way round: approved on node A, delivered by node B, answered there.
    const back = await approved({ deviceRef: ref, kind: 'terminal_control', params: { action: 'close_wireless' } }, a);
    const control = await moved.next(MSG.terminalControl);
    expect(decodeTerminalControl(control.body).command).toBe(CONTROL_COMMAND.closeWireless);
    expect((await story(back.id)).find((e) => e.kind === 'delivered')?.detail).toMatchObject({ node: 'node-b' });
    moved.reply(control, 0);
    expect(await settled(back.id)).toMatchObject({ status: 'acknowledged' });
  });

  it('two nodes: a terminal that reconnected to node B while node A still holds its old connection open (no FIN reached node A) gets its command from node B, not on the old connection', async () => {
    const stale = await Terminal.open(gatewayA.port, PHONE);
    await stale.signIn(code);
    const current = await Terminal.open(gatewayB.port, PHONE);
    await current.signIn(code);
    await until(() => gatewayA.connections() > 0 && gatewayB.connections() > 0);
    // Approved on node A, which also has a session of the terminal: the older one.
    const cmd = await approved({ deviceRef: ref, kind: 'text_message', params: { text: '前方拥堵，请绕行' } }, a);
    const text = await current.next(MSG.textMessage);
    expect(decodeTextMessage(text.body, false).text).toBe('前方拥堵，请绕行');
    expect((await story(cmd.id)).find((e) => e.kind === 'delivered')?.detail).toMatchObject({ node: 'node-b', serial: text.header.serial });
    current.reply(text, 0);
    expect(await settled(cmd.id)).toMatchObject({ status: 'acknowledged' });
    // The old connection got nothing (a heartbeat's answer shows that its frames so far have been read).
    stale.send(MSG.heartbeat, Buffer.alloc(0));
    await stale.next(MSG.platformAnswer);
    expect(stale.has(MSG.textMessage)).toBe(false);
    stale.end();
    current.end();
  });
});

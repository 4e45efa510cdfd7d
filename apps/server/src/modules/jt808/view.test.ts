// The device registry's JT/T 808 view over real TCP (PGlite, or PostgreSQL with DATABASE_URL):
// nothing before registration; registration data, connection (address, node, since when), and
// the last frames decoded with their hex once a terminal registered, authenticated and reported;
// no frames of a connection that has not authenticated; the authentication code never kept;
// a flood kept bounded and old frames pruned; the disconnect recorded; a connection whose node
// died (no recent frame) not shown as connected; another organisation's device answers 404.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { count, eq } from 'drizzle-orm';
import pino from 'pino';
import type { DeviceRow } from '@iotc/shared/device';
import { JT808_API, JT808_FRAMES_KEPT, type Jt808Terminal } from '@iotc/shared/jt808';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';
import { jt808Frames, jt808Terminals } from '../../db/schema.ts';
import { TestTerminal } from './test-helpers.ts';
import { decodeRegistrationAnswer, encodeAuthentication, encodeRegistration, MSG, type Registration } from './messages.ts';
import { encodeLocation } from './location.ts';
import { startJt808Gateway, type Jt808Gateway } from './gateway.ts';
import type { Jt808Delivery } from './downlink.ts';
import { jt808FrameLog, type Jt808FrameLog } from './frame-log.ts';
import { jt808Repo } from './repo.ts';
import { jt808Service } from './service.ts';

const log = pino({ level: 'silent' });
const PHONE = '013912340001';
const UNAUTHENTICATED = '013912340002';
const REG: Registration = { edition: 2013, province: 31, city: 100, manufacturer: 'ACME', model: 'GT-808', terminalId: 'T000001', plateColour: 1, plate: '沪A12345' };

let t: TestApp;
let gateway: Jt808Gateway;
let frames: Jt808FrameLog;
let admin: string;
let other: string;
let deviceRef: string;
let unauthRef: string;
let orgId: string;
/** The gateway's listener for commands (a stand-in for the command flow). */
let deliver: (d: Jt808Delivery) => void = () => undefined;

const view = async (token: string, ref: string, query = '') => call<Jt808Terminal>(t.app, { method: 'GET', url: `${JT808_API.terminal(ref)}${query}`, token });
const kept = async (ref: string) => (await t.app.database.db.select({ n: count() }).from(jt808Frames).where(eq(jt808Frames.deviceRef, ref)))[0]!.n;
const location = (iso: string) =>
  encodeLocation({ latitude: 31.2304, longitude: 121.4737, altitude: 12, speedKmh: 42.5, direction: 90, positioned: true, acc: true, time: new Date(iso) });

beforeAll(async () => {
  t = await testApp();
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  const created = await call<DeviceRow>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: PHONE, name: 'Truck terminal', protocol: 'jt808' } });
  deviceRef = created.body.data!.id;
  orgId = created.body.data!.orgId;
  const second = await call<DeviceRow>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: UNAUTHENTICATED, name: 'Second terminal', protocol: 'jt808' } });
  unauthRef = second.body.data!.id;
  await createTenantUser(t.app.database.db, { code: 'jt808-view-other', account: 'jt808-view-other', password: ADMIN_PASSWORD, permissions: ['device:read'] });
  other = await login(t.app, 'jt808-view-other', ADMIN_PASSWORD);
  frames = jt808FrameLog({ db: t.app.database.db, log, flushMs: 20 });
  gateway = await startJt808Gateway({
    port: 0,
    host: '127.0.0.1',
    log,
    intake: t.app.intake,
    service: jt808Service(jt808Repo(t.app.database.db), { nodeId: 'test-node' }),
    frames,
    commands: {
      subscribe: (listener) => {
        deliver = listener;
        return () => undefined;
      },
      undelivered: async () => [],
      delivering: async () => true,
      answered: async () => undefined,
      unsendable: async () => undefined,
    },
  });
});
afterAll(async () => {
  await gateway?.close();
  await frames?.close();
  await t.close();
});

describe('GET /api/iot/v2/devices/:id/jt808', () => {
  it('shows nothing of a terminal that never registered', async () => {
    const res = await view(admin, deviceRef);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deviceId: PHONE, registration: null, connection: null, frames: { rows: [], total: 0, page: 1, size: 10 } });
  });

  it('lists devices by protocol', async () => {
    const res = await call<{ rows: DeviceRow[] }>(t.app, { method: 'GET', url: '/api/iot/v2/devices?protocol=jt808&size=100', token: admin });
    expect(res.body.data!.rows.map((r) => r.deviceId).sort()).toEqual([PHONE, UNAUTHENTICATED]);
    const json = await call<{ rows: DeviceRow[] }>(t.app, { method: 'GET', url: '/api/iot/v2/devices?protocol=json&size=100', token: admin });
    expect(json.body.data!.rows.every((r) => r.protocol === 'json')).toBe(true);
    expect((await call(t.app, { method: 'GET', url: '/api/iot/v2/devices?protocol=gt06', token: admin })).status).toBe(400);
  });

  let term: TestTerminal;
  it('shows the registration, the connection and the last frames of a terminal that reported over TCP', async () => {
    term = await TestTerminal.open(gateway.port, PHONE);
    const regSerial = term.send(MSG.register, encodeRegistration(REG));
    const reg = decodeRegistrationAnswer((await term.next(MSG.registerAnswer)).body);
    expect(reg).toMatchObject({ serial: regSerial, result: 0 });
    term.send(MSG.authenticate, encodeAuthentication({ code: reg.authCode! }, false));
    expect((await term.answer()).result).toBe(0);
    const serial = term.send(MSG.location, location('2026-11-21T08:00:00Z'));
    expect(await term.answer()).toMatchObject({ serial, result: 0 });

    // in: 0x0102, 0x0200; out: 0x8001 twice (the registration came before the authentication: not kept).
    await vi.waitFor(async () => expect((await view(admin, deviceRef)).body.data!.frames.total).toBe(4), { timeout: 5000, interval: 20 });
    const { data } = (await view(admin, deviceRef)).body;
    expect(data!.registration).toMatchObject({ manufacturer: 'ACME', model: 'GT-808', terminalId: 'T000001', plateColour: 1, plate: '沪A12345', edition: 2013, province: 31, city: 100, hasCode: true });
    expect(data!.registration!.registeredAt).toMatch(/Z$/);
    expect(data!.connection).toMatchObject({ connected: true, remoteAddress: '127.0.0.1', node: 'test-node', disconnectedAt: null });
    expect(data!.connection!.connectedAt).toMatch(/Z$/);
    // Newest first.
    expect(data!.frames.rows.map((f) => [f.direction, f.messageId])).toEqual([
      ['out', '0x8001'],
      ['in', '0x0200'],
      ['out', '0x8001'],
      ['in', '0x0102'],
    ]);
    const [answer, fix, , auth] = data!.frames.rows;
    expect(fix).toMatchObject({ serial, summary: { kind: 'location', location: { latitude: 31.2304, longitude: 121.4737, speedKmh: 42.5, time: '2026-11-21T08:00:00.000Z' } } });
    expect(fix!.hex).toMatch(/^7e0200/);
    expect(answer!.summary).toMatchObject({ kind: 'platform-answer', answer: { serial, messageId: '0x0200', result: 0 } });
    // The authentication code is kept nowhere in the frames.
    expect(auth).toMatchObject({ hex: '', summary: { kind: 'authenticate', auth: { code: '***' } } });
    expect(JSON.stringify(data)).not.toContain(reg.authCode!);
    expect(JSON.stringify(data)).not.toContain(Buffer.from(reg.authCode!).toString('hex'));
    // Pages.
    const page2 = (await view(admin, deviceRef, '?page=2&size=3')).body.data!.frames;
    expect(page2).toMatchObject({ total: 4, page: 2, size: 3 });
    expect(page2.rows.map((f) => f.messageId)).toEqual(['0x0102']);
  });

  it('keeps no frame of a connection that has not authenticated', async () => {
    const stranger = await TestTerminal.open(gateway.port, UNAUTHENTICATED);
    stranger.send(MSG.location, location('2026-11-21T08:01:00Z'));
    expect((await stranger.answer()).result).toBe(1);
    stranger.send(MSG.heartbeat, Buffer.alloc(0));
    await stranger.answer();
    await frames.flush();
    expect(await kept(unauthRef)).toBe(0);
    expect((await view(admin, unauthRef)).body.data).toMatchObject({ registration: null, connection: null, frames: { total: 0 } });
    stranger.end();
  });

  it('keeps a flood bounded, and only the newest frames of a terminal', async () => {
    for (let i = 0; i < 300; i++) term.send(MSG.heartbeat, Buffer.alloc(0));
    for (let i = 0; i < 300; i++) await term.answer();
    await frames.flush();
    const afterFlood = await kept(deviceRef);
    expect(afterFlood).toBeLessThanOrEqual(JT808_FRAMES_KEPT);
    // Old frames beyond the kept number are pruned at the next write.
    await t.app.database.db.insert(jt808Frames).values(
      Array.from({ length: 60 }, (_, i) => ({ deviceRef, orgId, at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)), direction: 'in' as const, messageId: 2, serial: i, summary: { kind: 'heartbeat' }, hex: '' })),
    );
    await vi.waitFor(
      async () => {
        term.send(MSG.heartbeat, Buffer.alloc(0));
        await term.answer();
        await frames.flush();
        expect(await kept(deviceRef)).toBe(JT808_FRAMES_KEPT);
      },
      { timeout: 5000, interval: 50 },
    );
  });

  it('keeps a frame whose decoded text the database cannot store, that text shown as U+FFFD', async () => {
    // A NUL or a lone surrogate in a summary would refuse the whole flush (jsonb takes neither).
    frames.record({ id: deviceRef, orgId, deviceId: PHONE }, 'in', { messageId: 0x0300, serial: 4242 }, () => ({ kind: 'text', text: 'a\u0000b\ud800c' }), null);
    frames.record({ id: deviceRef, orgId, deviceId: PHONE }, 'in', { messageId: MSG.heartbeat, serial: 4243 }, () => ({ kind: 'heartbeat' }), null);
    await frames.flush();
    const rows = await t.app.database.db.select().from(jt808Frames).where(eq(jt808Frames.deviceRef, deviceRef));
    expect(rows.find((r) => r.serial === 4242)?.summary).toEqual({ kind: 'text', text: 'a\ufffdb\ufffdc' });
    expect(rows.find((r) => r.serial === 4243)?.summary).toEqual({ kind: 'heartbeat' });
  });

  it('keeps a command sent down, decoded', async () => {
    deliver({ deviceId: PHONE, message: { id: 'c1', kind: 'text_message', params: { text: '请减速' }, time: new Date().toISOString() } });
    const sent = await term.next(MSG.textMessage);
    await vi.waitFor(
      async () => {
        await frames.flush();
        const [newest] = (await view(admin, deviceRef)).body.data!.frames.rows;
        expect(newest).toMatchObject({ direction: 'out', messageId: '0x8300', serial: sent.header.serial, summary: { kind: 'text-message', text: { text: '请减速' } } });
        expect(newest!.hex).toMatch(/^7e8300/);
      },
      { timeout: 5000, interval: 50 },
    );
  });

  it('records the disconnect, and does not trust a connection whose node stopped writing', async () => {
    term.end();
    await vi.waitFor(async () => expect((await view(admin, deviceRef)).body.data!.connection).toMatchObject({ connected: false, disconnectedAt: expect.stringMatching(/Z$/) }), {
      timeout: 5000,
      interval: 20,
    });
    // A node that died leaves connected true; with no frame for longer than the idle limit it is not shown connected.
    await t.app.database.db.update(jt808Terminals).set({ connected: true, lastFrameAt: new Date(Date.now() - 10 * 60_000) }).where(eq(jt808Terminals.deviceRef, deviceRef));
    expect((await view(admin, deviceRef)).body.data!.connection!.connected).toBe(false);
    await t.app.database.db.update(jt808Terminals).set({ lastFrameAt: new Date() }).where(eq(jt808Terminals.deviceRef, deviceRef));
    expect((await view(admin, deviceRef)).body.data!.connection!.connected).toBe(true);
  });

  it('shows a deregistered terminal as signed off, its code gone', async () => {
    const t2 = await TestTerminal.open(gateway.port, UNAUTHENTICATED);
    t2.send(MSG.register, encodeRegistration({ ...REG, terminalId: 'T000002' }));
    const { authCode } = decodeRegistrationAnswer((await t2.next(MSG.registerAnswer)).body);
    t2.send(MSG.authenticate, encodeAuthentication({ code: authCode! }, false));
    expect((await t2.answer()).result).toBe(0);
    expect((await view(admin, unauthRef)).body.data!.connection!.connected).toBe(true);
    const serial = t2.send(MSG.deregister, Buffer.alloc(0));
    expect(await t2.answer()).toMatchObject({ serial, result: 0 });
    const { data } = (await view(admin, unauthRef)).body;
    expect(data!.registration).toMatchObject({ terminalId: 'T000002', hasCode: false });
    expect(data!.connection).toMatchObject({ connected: false, disconnectedAt: expect.stringMatching(/Z$/) });
    await frames.flush();
    // Its answer is kept with the rest of the authenticated connection's frames.
    expect((await view(admin, unauthRef)).body.data!.frames.rows.map((f) => [f.direction, f.messageId])).toEqual([
      ['out', '0x8001'],
      ['in', '0x0003'],
      ['out', '0x8001'],
      ['in', '0x0102'],
    ]);
    t2.end();
  });

  it("answers 404 for another organisation's device and a missing one", async () => {
    expect((await view(other, deviceRef)).status).toBe(404);
    expect((await view(other, deviceRef)).body.errorcode).toBe('NOT_FOUND');
    expect((await view(admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

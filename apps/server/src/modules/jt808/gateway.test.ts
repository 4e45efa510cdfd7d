// The JT/T 808 gateway over real TCP against a test app (PGlite, or PostgreSQL with
// DATABASE_URL): registration, authentication with the saved code on a new connection and on a
// second gateway (another node), locations and batches stored through the intake pipeline and
// answered only once stored, unauthenticated reports stored never, re-sends stored once, bad
// frames answered and logged without disturbing other terminals, junk and split reads, another
// organisation's terminal, idle and oversized connections closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import type { DeviceRow } from '@iotc/shared/device';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';
import { devices, intakeLog, jt808Terminals, telemetry } from '../../db/schema.ts';
import { hashSecret, newSecret } from '../../ingest/pipeline.ts';
import { authFailureLimiter } from '../../ingest/auth-failures.ts';
import { UnavailableError } from '../../db/availability.ts';
import { encodePackages } from './codec.ts';
import { TestTerminal } from './test-helpers.ts';
import { decodeRegistrationAnswer, encodeAuthentication, encodeRegistration, MSG, type Registration } from './messages.ts';
import { encodeLocation, encodeLocationBatch, type LocationInit } from './location.ts';
import { startJt808Gateway, type Jt808Gateway, type Jt808Intake } from './gateway.ts';
import { jt808Repo } from './repo.ts';
import { jt808Service } from './service.ts';

const log = pino({ level: 'silent' });
let t: TestApp;
let gateway: Jt808Gateway;
let admin: string;
const PHONE = '013912345678';
const OTHER_ORG_PHONE = '013900000002';
const SECOND = '013900000003';
let deviceRef: string;
let otherOrgId: string;

const REG: Registration = { edition: 2013, province: 31, city: 100, manufacturer: 'ACME', model: 'GT-808', terminalId: 'T000001', plateColour: 1, plate: '沪A12345' };

const start = (idleMs?: number, intake: Jt808Intake = t.app.intake) =>
  startJt808Gateway({
    port: 0,
    host: '127.0.0.1',
    log,
    intake,
    service: jt808Service(jt808Repo(t.app.database.db), { nodeId: 'test-node' }),
    idleMs,
  });

/** A terminal on a real socket (test-helpers.ts) with this file's sign-in steps. */
class Terminal extends TestTerminal {
  async register(reg: Registration = REG) {
    const serial = this.send(MSG.register, encodeRegistration(reg));
    const answer = decodeRegistrationAnswer((await this.next(MSG.registerAnswer)).body);
    expect(answer.serial).toBe(serial);
    return answer;
  }

  async authenticate(code: string) {
    const serial = this.send(MSG.authenticate, encodeAuthentication({ code }, false));
    const a = await this.answer();
    expect(a).toMatchObject({ serial, messageId: MSG.authenticate });
    return a.result;
  }
}

const fix = (iso: string, more: Partial<LocationInit> = {}): LocationInit => ({
  latitude: 31.2304,
  longitude: 121.4737,
  altitude: 12,
  speedKmh: 42.5,
  direction: 90,
  positioned: true,
  acc: true,
  time: new Date(iso),
  ...more,
});

const rows = async (ref: string) =>
  (await t.app.database.db.select().from(telemetry).where(eq(telemetry.deviceRef, ref))).sort((a, b) => a.time.getTime() - b.time.getTime());
const logged = async () => (await t.app.database.db.select().from(intakeLog).where(eq(intakeLog.channel, 'jt808'))).map((l) => l.reason);

beforeAll(async () => {
  t = await testApp();
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  const created = await call<DeviceRow>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: PHONE, name: 'Truck terminal', protocol: 'jt808' } });
  expect(created.body.data).toMatchObject({ deviceId: PHONE, protocol: 'jt808' });
  deviceRef = created.body.data!.id;
  await call(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: SECOND, name: 'Second terminal', protocol: 'jt808' } });
  const other = await createTenantUser(t.app.database.db, { code: 'jt808-other', account: 'jt808-other', password: ADMIN_PASSWORD });
  otherOrgId = other.org.id;
  await t.app.database.db.insert(devices).values({ orgId: otherOrgId, deviceId: OTHER_ORG_PHONE, name: 'Other org terminal', protocol: 'jt808', secretHash: hashSecret(newSecret()) });
  gateway = await start();
});
afterAll(async () => {
  await gateway?.close();
  await t.close();
});

describe('device registry', () => {
  it('takes protocol json by default and jt808 only with a phone number as device id', async () => {
    const plain = await call<DeviceRow>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: 'JSON-0001', name: 'JSON tracker' } });
    expect(plain.body.data!.protocol).toBe('json');
    const bad = await call(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: 'ABC-0001', name: 'x', protocol: 'jt808' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorcode).toBe('JT808_DEVICE_ID_FORMAT');
    const unknown = await call(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: '013900000099', name: 'x', protocol: 'gt06' } });
    expect(unknown.status).toBe(400);
    const kept = await call<DeviceRow>(t.app, { method: 'PUT', url: `/api/iot/v2/devices/${deviceRef}`, token: admin, body: { name: 'Truck terminal' } });
    expect(kept.body.data!.protocol).toBe('jt808');
    const notPhone = await call(t.app, { method: 'PUT', url: `/api/iot/v2/devices/${plain.body.data!.id}`, token: admin, body: { name: 'JSON tracker', protocol: 'jt808' } });
    expect(notPhone).toMatchObject({ status: 400, body: { errorcode: 'JT808_DEVICE_ID_FORMAT' } });
  });
});

describe('JT/T 808 gateway over TCP', () => {
  let code = '';

  it('registers, authenticates, and answers a location only once it is stored, at its UTC time', async () => {
    const term = await Terminal.open(gateway.port, PHONE);
    const reg = await term.register();
    expect(reg.result).toBe(0);
    code = reg.authCode!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await term.authenticate(code)).toBe(0);
    // 2026-11-21 16:00:00 in GMT+8 on the wire.
    const serial = term.send(MSG.location, encodeLocation(fix('2026-11-21T08:00:00Z', { mileageKm: 1234.5, signal: 20, extras: { '0xe1': 'abcd' } })));
    expect(await term.answer()).toEqual({ serial, messageId: MSG.location, result: 0 });
    // Answered: the reading is there already.
    const [row] = await rows(deviceRef);
    expect(row).toMatchObject({ lat: 31.2304, lon: 121.4737, speed: 42.5, course: 90, positioning: 'GPS' });
    expect(row!.time.toISOString()).toBe('2026-11-21T08:00:00.000Z');
    expect(row!.sensors).toMatchObject({ mileage: 1234.5 });
    expect(row!.raw).toMatchObject({ '14': { mileage: 12345 }, jt808: { msg: '0x0200', signal: 20, items: { '0xe1': 'abcd' } } });
    const [terminal] = await t.app.database.db.select().from(jt808Terminals).where(eq(jt808Terminals.deviceRef, deviceRef));
    expect(terminal).toMatchObject({ manufacturer: 'ACME', model: 'GT-808', terminalId: 'T000001', plate: '沪A12345', edition: 2013, nodeId: 'test-node', lastAddress: '127.0.0.1' });
    expect(terminal!.authCodeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(terminal!.authCodeHash).not.toContain(code);
    // Heartbeat.
    const hb = term.send(MSG.heartbeat, Buffer.alloc(0));
    expect(await term.answer()).toEqual({ serial: hb, messageId: MSG.heartbeat, result: 0 });
    term.end();
  });

  it('takes the saved code on a new connection, and on another gateway on the same database (another node)', async () => {
    const again = await Terminal.open(gateway.port, PHONE);
    expect(await again.authenticate(code)).toBe(0);
    again.end();
    const node2 = await start();
    try {
      const term = await Terminal.open(node2.port, PHONE);
      expect(await term.authenticate(code)).toBe(0);
      const serial = term.send(MSG.location, encodeLocation(fix('2026-11-21T08:01:00Z')));
      expect(await term.answer()).toMatchObject({ serial, result: 0 });
      expect((await rows(deviceRef)).map((r) => r.time.toISOString())).toContain('2026-11-21T08:01:00.000Z');
      term.end();
    } finally {
      await node2.close();
    }
  });

  it('refuses a wrong code and stores nothing from a connection that has not authenticated', async () => {
    const term = await Terminal.open(gateway.port, PHONE);
    expect(await term.authenticate('not-the-code')).toBe(1);
    const before = (await rows(deviceRef)).length;
    for (const minute of ['02', '03', '04']) {
      const serial = term.send(MSG.location, encodeLocation(fix(`2026-11-21T08:${minute}:00Z`)));
      expect(await term.answer()).toEqual({ serial, messageId: MSG.location, result: 1 });
    }
    expect(await rows(deviceRef)).toHaveLength(before);
    const reasons = await logged();
    expect(reasons.filter((r) => r.includes('authentication of 013912345678 failed'))).toHaveLength(1);
    // Once per connection, not once per report.
    expect(reasons.filter((r) => r.includes('has not authenticated'))).toHaveLength(1);
    term.end();
  });

  it('stores each fix of a 0x0704 batch at its own time in one answer; an unpositioned fix keeps no position', async () => {
    const term = await Terminal.open(gateway.port, PHONE);
    expect(await term.authenticate(code)).toBe(0);
    const items = [fix('2026-11-21T07:00:00Z'), fix('2026-11-21T07:00:30Z', { positioned: false, latitude: 0, longitude: 0 }), fix('2026-11-21T07:01:00Z', { latitude: -33.8688, longitude: -70.6693 })];
    const serial = term.send(MSG.locationBatch, encodeLocationBatch({ type: 1, items }));
    expect(await term.answer()).toEqual({ serial, messageId: MSG.locationBatch, result: 0 });
    const stored = (await rows(deviceRef)).filter((r) => r.time.toISOString().startsWith('2026-11-21T07:'));
    expect(stored.map((r) => [r.time.toISOString(), r.lat, r.lon])).toEqual([
      ['2026-11-21T07:00:00.000Z', 31.2304, 121.4737],
      ['2026-11-21T07:00:30.000Z', null, null],
      ['2026-11-21T07:01:00.000Z', -33.8688, -70.6693],
    ]);
    term.end();
  });

  it('answers a fix without a valid time once its refusal is in the intake log', async () => {
    const term = await Terminal.open(gateway.port, PHONE);
    expect(await term.authenticate(code)).toBe(0);
    const serial = term.send(MSG.location, encodeLocation(fix('2026-11-21T09:30:00Z', { time: null })));
    expect(await term.answer()).toEqual({ serial, messageId: MSG.location, result: 0 });
    const refused = await t.app.database.db.select().from(intakeLog).where(and(eq(intakeLog.channel, 'jt808'), eq(intakeLog.deviceRef, deviceRef)));
    expect(refused.some((r) => r.reason.startsWith('time:'))).toBe(true);
    term.end();
  });

  it('answers a re-sent location again and stores it once', async () => {
    const term = await Terminal.open(gateway.port, PHONE);
    expect(await term.authenticate(code)).toBe(0);
    const f = term.frame(MSG.location, encodeLocation(fix('2026-11-21T09:00:00Z')));
    term.write(f.bytes);
    expect(await term.answer()).toMatchObject({ serial: f.serial, result: 0 });
    term.write(f.bytes);
    expect(await term.answer()).toMatchObject({ serial: f.serial, result: 0 });
    expect((await rows(deviceRef)).filter((r) => r.time.toISOString() === '2026-11-21T09:00:00.000Z')).toHaveLength(1);
    term.end();
  });

  it("answers a bad check code with result 2 and logs it, while another terminal's session carries on", async () => {
    const bad = await Terminal.open(gateway.port, SECOND);
    const good = await Terminal.open(gateway.port, PHONE);
    expect(await good.authenticate(code)).toBe(0);
    const f = bad.frame(MSG.heartbeat, Buffer.alloc(0));
    // Spoil the check code (the byte before the closing flag; 0x00 needs no escaping).
    const spoiled = Buffer.from(f.bytes);
    spoiled[spoiled.length - 2] = spoiled[spoiled.length - 2] === 0 ? 1 : 0;
    bad.write(spoiled);
    expect(await bad.answer()).toEqual({ serial: f.serial, messageId: MSG.heartbeat, result: 2 });
    const serial = good.send(MSG.location, encodeLocation(fix('2026-11-21T09:10:00Z')));
    expect(await good.answer()).toMatchObject({ serial, result: 0 });
    expect((await logged()).some((r) => r.startsWith('JT/T 808 bad-check-code (message 0x0002'))).toBe(true);
    // The bad terminal's connection is still open: its next frame is answered.
    const hb = bad.send(MSG.heartbeat, Buffer.alloc(0));
    expect(await bad.answer()).toMatchObject({ serial: hb, result: 0 });
    // An unknown message: "not supported".
    const unknown = bad.send(0x0f0f, Buffer.from([1, 2, 3]));
    expect(await bad.answer()).toEqual({ serial: unknown, messageId: 0x0f0f, result: 3 });
    bad.end();
    good.end();
  });

  it('reads junk before the first 0x7e, two frames in one write and one frame split over several writes', async () => {
    const term = await Terminal.open(gateway.port, PHONE);
    const auth = term.frame(MSG.authenticate, encodeAuthentication({ code }, false));
    const hb = term.frame(MSG.heartbeat, Buffer.alloc(0));
    term.write(Buffer.concat([Buffer.from('GET / HTTP/1.1\r\n\r\n'), auth.bytes, hb.bytes]));
    expect(await term.answer()).toMatchObject({ serial: auth.serial, messageId: MSG.authenticate, result: 0 });
    expect(await term.answer()).toMatchObject({ serial: hb.serial, messageId: MSG.heartbeat, result: 0 });
    const loc = term.frame(MSG.location, encodeLocation(fix('2026-11-21T09:20:00Z')));
    for (let i = 0; i < loc.bytes.length; i += 7) term.write(loc.bytes.subarray(i, i + 7));
    expect(await term.answer()).toMatchObject({ serial: loc.serial, messageId: MSG.location, result: 0 });
    expect((await rows(deviceRef)).map((r) => r.time.toISOString())).toContain('2026-11-21T09:20:00.000Z');
    term.end();
  });

  it('answers an unknown phone number\'s registration with "terminal not in database" and logs it', async () => {
    const term = await Terminal.open(gateway.port, '013999999999');
    expect((await term.register()).result).toBe(4);
    expect((await logged()).some((r) => r.includes('registration of 013999999999: no such device'))).toBe(true);
    term.end();
  });

  it("stores another organisation's terminal's readings under its own organisation", async () => {
    const term = await Terminal.open(gateway.port, OTHER_ORG_PHONE);
    const reg = await term.register();
    expect(reg.result).toBe(0);
    expect(await term.authenticate(reg.authCode!)).toBe(0);
    const serial = term.send(MSG.location, encodeLocation(fix('2026-11-21T10:00:00Z')));
    expect(await term.answer()).toMatchObject({ serial, result: 0 });
    const [device] = await t.app.database.db.select().from(devices).where(eq(devices.deviceId, OTHER_ORG_PHONE));
    const stored = await t.app.database.db.select().from(telemetry).where(and(eq(telemetry.deviceRef, device!.id)));
    expect(stored.map((r) => r.orgId)).toEqual([otherOrgId]);
    term.end();
  });

  it('forgets the code at deregistration', async () => {
    const term = await Terminal.open(gateway.port, SECOND);
    const reg = await term.register();
    expect(await term.authenticate(reg.authCode!)).toBe(0);
    const serial = term.send(MSG.deregister, Buffer.alloc(0));
    expect(await term.answer()).toEqual({ serial, messageId: MSG.deregister, result: 0 });
    expect(await term.authenticate(reg.authCode!)).toBe(1);
    term.end();
  });

  it('sends nothing while the database is unavailable, so the terminal sends again and it is stored once', async () => {
    let down = true;
    const flaky = await start(undefined, {
      ...t.app.intake,
      ingest: (device, reports, channel) => (down ? Promise.reject(new UnavailableError('database')) : t.app.intake.ingest(device, reports, channel)),
    });
    try {
      const term = await Terminal.open(flaky.port, PHONE);
      expect(await term.authenticate(code)).toBe(0);
      const f = term.frame(MSG.location, encodeLocation(fix('2026-11-21T11:00:00Z')));
      term.write(f.bytes);
      // Frames of a connection are handled in order: the heartbeat's answer comes after the location was handled.
      const hb = term.send(MSG.heartbeat, Buffer.alloc(0));
      expect(await term.answer()).toMatchObject({ serial: hb, messageId: MSG.heartbeat });
      expect(term.waiting).toBe(0);
      expect((await rows(deviceRef)).map((r) => r.time.toISOString())).not.toContain('2026-11-21T11:00:00.000Z');
      down = false;
      term.write(f.bytes);
      expect(await term.answer()).toMatchObject({ serial: f.serial, messageId: MSG.location, result: 0 });
      expect((await rows(deviceRef)).filter((r) => r.time.toISOString() === '2026-11-21T11:00:00.000Z')).toHaveLength(1);
      term.end();
    } finally {
      await flaky.close();
    }
  });

  it('reassembles a subpackaged batch and answers each package once it is stored', async () => {
    const term = await Terminal.open(gateway.port, PHONE);
    expect(await term.authenticate(code)).toBe(0);
    const items = Array.from({ length: 12 }, (_, i) => fix(`2026-11-21T12:${String(i).padStart(2, '0')}:00Z`));
    const frames = encodePackages({ messageId: MSG.locationBatch, phone: PHONE, serial: 500 }, encodeLocationBatch({ type: 1, items }), 100);
    expect(frames.length).toBeGreaterThan(2);
    for (const f of frames) term.write(f);
    const answers = [];
    for (let i = 0; i < frames.length; i++) answers.push(await term.answer());
    expect(answers).toEqual(frames.map((_, i) => ({ serial: 500 + i, messageId: MSG.locationBatch, result: 0 })));
    expect((await rows(deviceRef)).filter((r) => r.time.toISOString().startsWith('2026-11-21T12:'))).toHaveLength(12);
    term.end();
  });

  it('logs a flood of bad frames in a few rows, and refuses an address past its failed sign-ins without a lookup', async () => {
    const term = await Terminal.open(gateway.port, SECOND);
    const spoiled = Array.from({ length: 50 }, () => {
      const b = Buffer.from(term.frame(MSG.heartbeat, Buffer.alloc(0)).bytes);
      b[b.length - 2] = b[b.length - 2] === 0 ? 1 : 0;
      return b;
    });
    term.write(Buffer.concat(spoiled));
    for (let i = 0; i < 50; i++) expect((await term.answer()).result).toBe(2);
    const rowsOfSecond = await t.app.database.db.select().from(intakeLog).where(and(eq(intakeLog.channel, 'jt808'), eq(intakeLog.deviceId, SECOND)));
    expect(rowsOfSecond.filter((r) => r.reason.includes('bad-check-code')).length).toBeLessThanOrEqual(3);
    term.end();

    const limited = await start(undefined, { ...t.app.intake, authFailures: authFailureLimiter(2) });
    try {
      const c = await Terminal.open(limited.port, PHONE);
      expect(await c.authenticate('wrong-1')).toBe(1);
      expect(await c.authenticate('wrong-2')).toBe(1);
      // Blocked for the rest of the minute: even the right code.
      expect(await c.authenticate(code)).toBe(1);
      c.end();
    } finally {
      await limited.close();
    }
  });

  it('closes a silent connection and one sending an endless frame', async () => {
    const quick = await start(200);
    try {
      const idle = await Terminal.open(quick.port, PHONE);
      await idle.closed;
      const endless = await Terminal.open(gateway.port, PHONE);
      endless.write(Buffer.concat([Buffer.from([0x7e]), Buffer.alloc(5000, 0x31)]));
      await endless.closed;
      await expect.poll(async () => (await logged()).some((r) => r.startsWith('JT/T 808 frame-too-long'))).toBe(true);
    } finally {
      await quick.close();
    }
  });
});

// The JT/T 808 simulator over real TCP against a test app (PGlite, or PostgreSQL with
// DATABASE_URL) and its gateway on a free port: its devices are provisioned through the HTTP API
// with protocol jt808 (another organisation sees none of them), its terminals register,
// authenticate and get their fixes stored, one whose phone number is not a device is refused
// without stopping the others, and a coverage gap ends in 0x0704 blind-area batches whose fixes
// are stored at their own times, after an authentication with the saved code (no new registration).
// Against a scripted gateway: a location left unanswered is sent again (same serial) until
// answered, and commands are answered.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { call, testApp, type TestApp } from '../test/harness.ts';
import { createTenantUser } from '../test/fixtures.ts';
import { devices, jt808Terminals, telemetry } from '../db/schema.ts';
import { startJt808Gateway, type Jt808Gateway } from '../modules/jt808/gateway.ts';
import { decodeFrame, Deframer, encodeFrame, type Jt808Frame } from '../modules/jt808/codec.ts';
import { decodeGeneralAnswer, encodeGeneralAnswer, encodeRegistrationAnswer, MSG } from '../modules/jt808/messages.ts';
import { decodePositionAnswer } from '../modules/jt808/location.ts';
import { encodeSetParameters } from '../modules/jt808/commands.ts';
import { jt808Repo } from '../modules/jt808/repo.ts';
import { jt808Service } from '../modules/jt808/service.ts';
import { startJt808Simulator, type Jt808Simulator } from './jt808-terminal.ts';
import { listDevices, provisionTerminals, signIn } from './provision.ts';

const log = pino({ level: 'silent' });
const PHONES = ['013700000001', '013700000002', '013700000003'];
const STRANGER = '013799999999';
/** The fixes' clock runs ten times faster than the real one, so fixes 200 ms apart are 2 s apart. */
const SPEED = 10;

let t: TestApp;
let base: string;
let token: string;
let gateway: Jt808Gateway;
let sim: Jt808Simulator | undefined;
const started = Date.now();
const clock = () => started + (Date.now() - started) * SPEED;

const db = () => t.app.database.db;
const refs = async () => new Map((await db().select({ id: devices.id, deviceId: devices.deviceId }).from(devices).where(inArray(devices.deviceId, PHONES))).map((d) => [d.deviceId, d.id]));
/** A device's readings, oldest first, with the message that brought each. */
const readings = async (ref: string) =>
  (await db().select().from(telemetry).where(eq(telemetry.deviceRef, ref)))
    .map((r) => {
      const kept = (r.raw as { jt808?: { msg?: string; status?: number } }).jt808;
      // Status bit 1: the terminal had a fix (the simulator sends its occasional cell-tower fixes as unpositioned).
      return { time: r.time.getTime(), msg: kept?.msg, lat: r.lat, positioned: ((kept?.status ?? 0) & 2) !== 0 };
    })
    .sort((a, b) => a.time - b.time);

beforeAll(async () => {
  t = await testApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  await createTenantUser(db(), { code: 'jt808sim', account: 'jt808sim', password: 'Sim#2026', permissions: ['device:read', 'device:write'] });
  await createTenantUser(db(), { code: 'jt808peer', account: 'jt808peer', password: 'Sim#2026', permissions: ['device:read', 'device:write'] });
  token = await signIn(base, 'jt808sim', 'Sim#2026');
  gateway = await startJt808Gateway({
    port: 0,
    host: '127.0.0.1',
    log,
    intake: t.app.intake,
    service: jt808Service(jt808Repo(db()), { nodeId: 'sim-test' }),
  });
});
afterAll(async () => {
  await sim?.stop();
  await gateway?.close();
  await t.close();
});

describe('provisionTerminals', () => {
  it('registers the phone numbers as jt808 devices once, in the caller organisation only', async () => {
    const wanted = PHONES.map((deviceId) => ({ deviceId, name: `Terminal ${deviceId}` }));
    expect(await provisionTerminals({ baseUrl: base, token, devices: wanted, keyword: '0137' })).toEqual({ created: 3, existing: 0, notJt808: [] });
    expect(await provisionTerminals({ baseUrl: base, token, devices: wanted, keyword: '0137' })).toEqual({ created: 0, existing: 3, notJt808: [] });
    const rows = await listDevices(base, token, '0137');
    expect(rows.map((r) => [r.deviceId, r.protocol]).sort()).toEqual(PHONES.map((p) => [p, 'jt808']));
    // Another organisation neither lists nor reads them.
    const peer = await signIn(base, 'jt808peer', 'Sim#2026');
    expect(await listDevices(base, peer, '0137')).toEqual([]);
    const one = await call(t.app, { method: 'GET', url: `/api/iot/v2/devices/${rows[0]!.id}`, token: peer });
    expect(one.status).toBe(404);
  });
});

describe('startJt808Simulator', () => {
  it('registers, authenticates and gets fixes stored; a stranger is refused; a coverage gap ends in blind-area batches at their own times', async () => {
    sim = startJt808Simulator({
      host: '127.0.0.1',
      port: gateway.port,
      devices: [...PHONES.map((deviceId) => ({ deviceId, kind: 'vehicle' as const, plate: '沪A·S0001' })), { deviceId: STRANGER, kind: 'vehicle' }],
      intervalMs: 200,
      clock,
      ackTimeoutMs: 3000,
      seed: 5,
    });
    const ids = await refs();
    // Registered and authenticated: each terminal's registration data is kept, and live fixes come in.
    await expect.poll(() => sim!.stats(), { timeout: 15_000 }).toMatchObject({ connected: 3, refused: 1 });
    for (const ref of ids.values()) {
      await expect.poll(async () => (await readings(ref)).filter((r) => r.msg === '0x0200').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    }
    const terminals = await db().select().from(jt808Terminals).where(inArray(jt808Terminals.deviceRef, [...ids.values()]));
    expect(terminals).toHaveLength(3);
    for (const term of terminals) expect(term).toMatchObject({ manufacturer: 'IOTC', model: 'SIM-808', plate: '沪A·S0001', plateColour: 1, edition: 2013, nodeId: 'sim-test' });
    const codes = new Map(terminals.map((term) => [term.deviceRef, term.authCodeHash]));
    const [stranger] = await db().select().from(devices).where(eq(devices.deviceId, STRANGER));
    expect(stranger).toBeUndefined();

    // Out of coverage for 1.5 s (15 s of the fixes' clock): the fixes are buffered, then re-sent as 0x0704.
    const gapFrom = clock();
    sim.coverageGap(1500);
    await expect.poll(() => sim!.stats().connected, { timeout: 5000 }).toBe(0);
    const gapTo = gapFrom + 1500 * SPEED;
    await expect.poll(() => sim!.stats().batches, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    for (const ref of ids.values()) {
      await expect.poll(async () => (await readings(ref)).some((r) => r.msg === '0x0200' && r.time > gapTo), { timeout: 10_000 }).toBe(true);
      const all = await readings(ref);
      const batched = all.filter((r) => r.msg === '0x0704');
      // About seven fixes each, every one at its own time inside the gap, none stored twice.
      expect(batched.length).toBeGreaterThanOrEqual(4);
      expect(new Set(all.map((r) => r.time)).size).toBe(all.length);
      for (const r of batched) {
        // Stamped to the second on the wire.
        expect(r.time).toBeGreaterThanOrEqual(gapFrom - 1000);
        expect(r.time).toBeLessThanOrEqual(gapTo + 1000 * SPEED);
        // A positioned fix keeps its position; an unpositioned one keeps none.
        expect(r.lat === null).toBe(!r.positioned);
      }
    }
    // Back in coverage the terminals authenticated with their saved codes: no new registration.
    const after = await db().select().from(jt808Terminals).where(inArray(jt808Terminals.deviceRef, [...ids.values()]));
    for (const term of after) expect(term.authCodeHash).toBe(codes.get(term.deviceRef));
    const stats = sim.stats();
    expect(stats.batchedFixes).toBeGreaterThanOrEqual(12);
    expect(stats.failed).toBe(0);
    await sim.stop();
    expect(sim.stats().acked).toBe(sim.stats().sent);
  }, 60_000);
});

describe('startJt808Simulator against a scripted gateway', () => {
  it('sends a location again, with its serial, until it is answered, and answers commands', async () => {
    const frames: Jt808Frame[] = [];
    let socket: Socket | undefined;
    let platformSerial = 0;
    const reply = (messageId: number, phone: string, body: Buffer) => socket!.write(encodeFrame({ messageId, phone, serial: platformSerial++ }, body));
    const server = createServer((s) => {
      socket = s;
      const deframer = new Deframer();
      s.on('data', (chunk) => {
        for (const f of deframer.push(chunk)) {
          if (!Buffer.isBuffer(f)) continue;
          const frame = decodeFrame(f);
          frames.push(frame);
          const { messageId, phone, serial } = frame.header;
          if (messageId === MSG.register) reply(MSG.registerAnswer, phone, encodeRegistrationAnswer({ serial, result: 0, authCode: 'code-1' }));
          if (messageId === MSG.authenticate) reply(MSG.platformAnswer, phone, encodeGeneralAnswer({ serial, messageId, result: 0 }));
          // The first location goes unanswered twice; its third send is answered.
          const sends = frames.filter((x) => x.header.messageId === MSG.location && x.header.serial === serial).length;
          if (messageId === MSG.location && (serial !== 2 || sends === 3)) reply(MSG.platformAnswer, phone, encodeGeneralAnswer({ serial, messageId, result: 0 }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const scripted = startJt808Simulator({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      devices: [{ deviceId: '013700000009', kind: 'container' }],
      intervalMs: 300,
      ackTimeoutMs: 100,
    });
    try {
      // Serial 0 registers, 1 authenticates, 2 is the first location: sent three times, the same frame.
      const firsts = () => frames.filter((f) => f.header.messageId === MSG.location && f.header.serial === 2);
      await expect.poll(() => firsts().length, { timeout: 10_000 }).toBe(3);
      expect(new Set(firsts().map((f) => f.body.toString('hex'))).size).toBe(1);
      await expect.poll(() => scripted.stats(), { timeout: 5000 }).toMatchObject({ resent: 2, failed: 0 });
      expect(scripted.stats().acked).toBeGreaterThanOrEqual(1);

      // A position query is answered with 0x0201 echoing its serial; a new report interval with 0x0001.
      reply(MSG.positionQuery, '013700000009', Buffer.alloc(0));
      const query = platformSerial - 1;
      const positions = () => frames.filter((f) => f.header.messageId === MSG.positionAnswer).map((f) => decodePositionAnswer(f.body));
      await expect.poll(() => positions().map((p) => p.serial), { timeout: 5000 }).toEqual([query]);
      expect(positions()[0]!.location.time).toBeInstanceOf(Date);
      reply(MSG.setParameters, '013700000009', encodeSetParameters({ reportIntervalSeconds: 30 }));
      const setting = platformSerial - 1;
      const answers = () => frames.filter((f) => f.header.messageId === MSG.terminalAnswer).map((f) => decodeGeneralAnswer(f.body));
      await expect.poll(answers, { timeout: 5000 }).toContainEqual({ serial: setting, messageId: MSG.setParameters, result: 0 });
    } finally {
      await scripted.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 90_000);
});

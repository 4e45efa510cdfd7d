// The embedded broker under attack: a client id belongs to its device (one device cannot knock
// another off by connecting with its id), a user name the database could not take (NUL, huge) is
// a plain refusal rather than "server unavailable" forever, a message over the size limit closes
// the connection before its body is read, a payload that is not UTF-8 is refused into the intake
// log, and an address with too many failed sign-ins is refused unread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import pino from 'pino';
import { devices, intakeLog, orgs, telemetry } from '../db/schema.ts';
import { testApp, type TestApp } from '../test/harness.ts';
import { createTenantUser } from '../test/fixtures.ts';
import { authFailureLimiter } from './auth-failures.ts';
import { hashSecret } from './pipeline.ts';
import { MAX_MESSAGE_BYTES, startMqtt, type MqttLink } from './mqtt.ts';

const log = pino({ level: 'silent' });
const SECRET = 'mqtt-hardening-secret-0123456789';
let t: TestApp;
let link: MqttLink;
let url: string;
/** A device of the demo organisation and one of another organisation. */
let ours: { id: string; deviceId: string };
let theirs: { id: string; deviceId: string };

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  const otherOrg = (await createTenantUser(db, { code: 'mqtt-other', account: 'mqtt-other-admin', password: 'Other#2026' })).org.id;
  const made = await db
    .insert(devices)
    .values([
      { orgId: demoOrg, deviceId: 'MQTTHARD-OURS', name: 'ours', secretHash: hashSecret(SECRET) },
      { orgId: otherOrg, deviceId: 'MQTTHARD-THEIRS', name: 'theirs', secretHash: hashSecret(SECRET) },
    ])
    .returning({ id: devices.id, deviceId: devices.deviceId });
  ours = made[0]!;
  theirs = made[1]!;
  link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake, authFailures: authFailureLimiter(5) });
  url = `mqtt://127.0.0.1:${link.port}`;
});
afterAll(async () => {
  await link.close();
  await t.close();
});

/** The CONNACK return code of a sign-in (0: accepted). */
function connectCode(opts: mqtt.IClientOptions): Promise<number> {
  return new Promise((resolve) => {
    const c = mqtt.connect(url, { reconnectPeriod: 0, ...opts });
    c.on('error', (err) => {
      c.end(true);
      resolve((err as Error & { code?: number }).code ?? -1);
    });
    c.on('connect', () => {
      c.end(true);
      resolve(0);
    });
  });
}

const report = (deviceId: string, time: string) => JSON.stringify({ deviceId, time, lat: 31.2, lon: 121.4 });
const logOf = async (deviceRef: string) => t.app.database.db.select().from(intakeLog).where(eq(intakeLog.deviceRef, deviceRef));

describe('client ids', () => {
  it("a device connecting with another organisation's device id as its client id does not knock that device off", async () => {
    const victim = await mqtt.connectAsync(url, { clientId: theirs.deviceId, username: theirs.deviceId, password: SECRET, reconnectPeriod: 0 });
    let victimClosed = 0;
    victim.on('close', () => victimClosed++);
    const attacker = await mqtt.connectAsync(url, { clientId: theirs.deviceId, username: ours.deviceId, password: SECRET, reconnectPeriod: 0 });
    // Both are connected, and the victim still reports over its connection.
    const time = new Date(Date.now() - 5_000).toISOString();
    await victim.publishAsync(`devices/${theirs.deviceId}/report`, report(theirs.deviceId, time), { qos: 1 });
    await attacker.publishAsync(`devices/${ours.deviceId}/report`, report(ours.deviceId, time), { qos: 1 });
    expect(victimClosed).toBe(0);
    expect(victim.connected).toBe(true);
    const stored = await t.app.database.db.select({ ref: telemetry.deviceRef }).from(telemetry).where(eq(telemetry.time, new Date(time)));
    expect(stored.map((r) => r.ref).sort()).toEqual([ours.id, theirs.id].sort());
    await attacker.endAsync();
    await victim.endAsync();
  });

  it("a device's own second connection replaces its first, whatever client ids they sent", async () => {
    const first = await mqtt.connectAsync(url, { clientId: 'random-one', username: ours.deviceId, password: SECRET, reconnectPeriod: 0 });
    const closed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    const second = await mqtt.connectAsync(url, { clientId: 'random-two', username: ours.deviceId, password: SECRET, reconnectPeriod: 0 });
    await closed;
    expect(second.connected).toBe(true);
    await second.endAsync();
  });
});

describe('sign-in edges', () => {
  it('refuses a user name with a NUL or of 10,000 characters as a bad user name (4), not "server unavailable" (3)', async () => {
    expect(await connectCode({ username: `${ours.deviceId}\u0000x`, password: SECRET })).toBe(4);
    expect(await connectCode({ username: 'D'.repeat(10_000), password: SECRET })).toBe(4);
  });

  it('refuses an address with too many failed sign-ins at once, right secret or not, until its minute is over', async () => {
    // The limiter of this link allows 5 failures a minute; the test above used 2.
    for (let i = 0; i < 3; i++) expect(await connectCode({ username: ours.deviceId, password: 'wrong' })).toBe(4);
    expect(await connectCode({ username: ours.deviceId, password: SECRET })).toBe(3);
  });
});

describe('messages', () => {
  let limited: MqttLink;
  let limitedUrl: string;
  beforeAll(async () => {
    // A fresh link: the address above is blocked for a minute.
    limited = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, sink: t.app.intake, authFailures: authFailureLimiter(5) });
    limitedUrl = `mqtt://127.0.0.1:${limited.port}`;
  });
  afterAll(async () => limited.close());

  it('closes the connection of a message over the size limit without storing it, and takes one of a full batch', async () => {
    const c = await mqtt.connectAsync(limitedUrl, { username: theirs.deviceId, password: SECRET, reconnectPeriod: 0 });
    // 1,000 reports of about 1.5 KB each: a large legitimate batch.
    const base = Date.now() - 3 * 3_600_000;
    const pad = 'x'.repeat(1_400);
    const batch = Array.from({ length: 1000 }, (_, i) => ({ deviceId: theirs.deviceId, time: new Date(base + i * 1000).toISOString(), lat: 31.2, lon: 121.4, extraData: JSON.stringify({ 3: { temp: 45 }, 99: { vendor: pad } }) }));
    const text = JSON.stringify(batch);
    expect(text.length).toBeGreaterThan(1_400_000);
    expect(text.length).toBeLessThan(MAX_MESSAGE_BYTES);
    await c.publishAsync(`devices/${theirs.deviceId}/report`, text, { qos: 1 });
    const kept = await t.app.database.db.select({ time: telemetry.time }).from(telemetry).where(eq(telemetry.deviceRef, theirs.id));
    expect(kept.filter((r) => r.time.getTime() >= base && r.time.getTime() < base + 1_000_000).length).toBe(1000);

    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    let acked = false;
    c.publish(`devices/${theirs.deviceId}/report`, Buffer.alloc(MAX_MESSAGE_BYTES + 10_000, 0x20), { qos: 1 }, (err) => (acked = !err));
    await closed;
    expect(acked).toBe(false);
    c.end(true);
  });

  it('refuses a payload that is not UTF-8 into the intake log and acknowledges it', async () => {
    const c = await mqtt.connectAsync(limitedUrl, { username: ours.deviceId, password: SECRET, reconnectPeriod: 0 });
    const time = new Date(Date.now() - 60_000).toISOString();
    const bytes = Buffer.concat([Buffer.from(`{"deviceId":"${ours.deviceId}","time":"${time}","lat":31.2,"lon":121.4,"extraData":"{\\"3\\":{\\"temp\\":45}}","note":"`), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    await c.publishAsync(`devices/${ours.deviceId}/report`, bytes, { qos: 1 });
    expect((await logOf(ours.id)).map((l) => l.reason)).toContain('payload is not UTF-8 text');
    const stored = await t.app.database.db.select().from(telemetry).where(eq(telemetry.time, new Date(time)));
    expect(stored).toEqual([]);
    await c.endAsync();
  });
});

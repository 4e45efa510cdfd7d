// A change of a terminal model's item mapping applies to the very next report, on the node where
// it was made and on the others (two apps on one database and one bus: in-process, or Redis when
// REDIS_URL is set), although each node keeps the mappings it read for a few seconds: over real
// TCP, a terminal reports item 0x51 read as the temperature; the mapping is changed to read it as
// the humidity on one node, and the next report, to either node, is a humidity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { JT808_MODEL_API, type ModelRow } from '@iotc/shared/jt808-models';
import type { DeviceRow } from '@iotc/shared/device';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../../test/harness.ts';
import { telemetry } from '../../db/schema.ts';
import { localBus, redisBus, type EventBus } from '../../realtime/bus.ts';
import { TestTerminal } from './test-helpers.ts';
import { encodeLocation } from './location.ts';
import { decodeGeneralAnswer, decodeRegistrationAnswer, encodeAuthentication, encodeRegistration, MSG } from './messages.ts';
import { startJt808Gateway, type Jt808Gateway } from './gateway.ts';
import { jt808Repo } from './repo.ts';
import { jt808Service } from './service.ts';

const log = pino({ level: 'silent' });
const PHONE = '013966600001';
const MODEL = 'MAP-CHG-1';

let bus: EventBus | undefined;
let a: TestApp;
let b: TestApp;
let gatewayA: Jt808Gateway;
let gatewayB: Jt808Gateway;
let admin: string;
let ref: string;
let mapping: ModelRow;

const gatewayOf = (t: TestApp, nodeId: string) =>
  startJt808Gateway({ port: 0, host: '127.0.0.1', log, intake: t.app.intake, service: jt808Service(jt808Repo(t.app.database.db), { nodeId }), items: t.app.jt808Models });

const items = (channel: 'temperature' | 'humidity') => [{ id: '0x51', layout: 'sm16/10', channel }];

/** Signs a terminal in on `port` with `code` (registers first when none). */
async function signedIn(port: number, code?: string): Promise<{ term: TestTerminal; code: string }> {
  const term = await TestTerminal.open(port, PHONE);
  if (!code) {
    term.send(MSG.register, encodeRegistration({ edition: 2013, province: 31, city: 100, manufacturer: 'ACME', model: MODEL, terminalId: 'T1', plateColour: 1, plate: '沪A66601' }));
    code = decodeRegistrationAnswer((await term.next(MSG.registerAnswer)).body).authCode!;
  }
  term.send(MSG.authenticate, encodeAuthentication({ code }, false));
  expect(decodeGeneralAnswer((await term.next(MSG.platformAnswer)).body).result).toBe(0);
  return { term, code };
}

/** Reports item 0x51 = 0x00fa (25.0) at `iso`, waits for its 0x8001, and answers what the reading holds. */
async function report(term: TestTerminal, iso: string) {
  const time = new Date(iso);
  const serial = term.send(MSG.location, encodeLocation({ latitude: 31.2, longitude: 121.4, positioned: true, speedKmh: 0, time, extras: { '0x51': '00fa' } }));
  expect(decodeGeneralAnswer((await term.next(MSG.platformAnswer)).body)).toMatchObject({ serial, result: 0 });
  await a.app.readings.flushed();
  await b.app.readings.flushed();
  const [row] = await a.app.database.db.select().from(telemetry).where(and(eq(telemetry.deviceRef, ref), eq(telemetry.time, time)));
  return row!.sensors as { temperature?: number; humidity?: number };
}

beforeAll(async () => {
  const channel = `iotc:test:jt808-models:${process.pid}:${Date.now()}`;
  const pair = () => (process.env.REDIS_URL ? redisBus(process.env.REDIS_URL, { channel }) : (bus ??= localBus()));
  const busA = pair();
  a = await testApp({ nodeId: 'node-a' }, { bus: busA });
  const busB = pair();
  b = await testApp({ nodeId: 'node-b' }, { bus: busB, database: a.app.database });
  const owned = [busA, busB].filter((x, i, all) => all.indexOf(x) === i);
  const closeA = a.close;
  a.close = async () => {
    await closeA();
    await Promise.all(owned.map((x) => x.close()));
  };
  admin = await login(a.app, 'admin', ADMIN_PASSWORD);
  ref = (await call<DeviceRow>(a.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: PHONE, name: 'Mapping change', protocol: 'jt808' } })).body.data!.id;
  const made = await call<ModelRow>(a.app, { method: 'POST', url: JT808_MODEL_API, token: admin, body: { model: MODEL, items: items('temperature') } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  mapping = made.body.data!;
  gatewayA = await gatewayOf(a, 'node-a');
  gatewayB = await gatewayOf(b, 'node-b');
});
afterAll(async () => {
  await gatewayA?.close();
  await gatewayB?.close();
  await b?.close();
  await a?.close();
});

describe('a changed item mapping', () => {
  it('applies to the next report on the node where it was changed and on the other node', async () => {
    const first = await signedIn(gatewayA.port);
    // Read (and kept) by node A: the temperature.
    expect(await report(first.term, '2026-11-21T08:00:00Z')).toMatchObject({ temperature: 25 });
    first.term.end();
    await new Promise<void>((resolve) => {
      const check = () => (gatewayA.connections() === 0 ? resolve() : setImmediate(check));
      check();
    });
    // Node B reads (and keeps) it too.
    const onB = await signedIn(gatewayB.port, first.code);
    const before = await report(onB.term, '2026-11-21T08:00:10Z');
    expect(before).toMatchObject({ temperature: 25 });
    expect(before.humidity).toBeUndefined();

    // Changed on node A: node B's next report reads the item as the humidity.
    const changed = await call<ModelRow>(a.app, { method: 'PUT', url: `${JT808_MODEL_API}/${mapping.id}`, token: admin, body: { model: MODEL, items: items('humidity') } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // With Redis between the nodes the invalidation travels: a report waits for nothing else than the next frame.
    const onOther = async (iso: string) => report(onB.term, iso);
    let after = await onOther('2026-11-21T08:00:20Z');
    if (process.env.REDIS_URL && after.humidity === undefined) {
      // Redis pub/sub delivers in a few milliseconds; the in-process bus at once.
      for (let i = 1; after.humidity === undefined && i < 50; i++) after = await onOther(`2026-11-21T08:00:${String(20 + i).padStart(2, '0')}Z`);
    }
    expect(after).toMatchObject({ humidity: 25 });
    expect(after.temperature).toBeUndefined();
    onB.term.end();

    // And on node A itself, where it was changed back.
    expect((await call(b.app, { method: 'PUT', url: `${JT808_MODEL_API}/${mapping.id}`, token: admin, body: { model: MODEL, items: items('temperature') } })).status).toBe(200);
    const back = await signedIn(gatewayA.port, first.code);
    let again = await report(back.term, '2026-11-21T08:02:00Z');
    if (process.env.REDIS_URL && again.temperature === undefined) {
      for (let i = 1; again.temperature === undefined && i < 50; i++) again = await report(back.term, `2026-11-21T08:02:${String(i).padStart(2, '0')}Z`);
    }
    expect(again).toMatchObject({ temperature: 25 });
    back.term.end();
  });
});

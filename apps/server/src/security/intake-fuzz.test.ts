// The device intake, fuzzed over both paths: HTTP (POST /api/iot/v2/device/report) and MQTT
// through the embedded broker. Malformed reports (wrong types, garbage extraData, NUL, lone
// surrogates, broken UTF-8, deep nesting, bytes that are not JSON) are refused with a reason in
// the device's intake log, never a 5xx, and the very next good report is still stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, eq, gt } from 'drizzle-orm';
import mqtt from 'mqtt';
import pino from 'pino';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../test/harness.ts';
import { intakeLog, telemetry } from '../db/schema.ts';
import { startMqtt } from '../ingest/mqtt.ts';

let t: TestApp;
let device: DeviceWithSecret;
let clock = Date.parse('2026-11-20T00:00:00Z');

beforeAll(async () => {
  t = await testApp();
  const admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  const made = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: `FUZZ-${process.pid}`, name: 'Fuzzed tracker' } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  device = made.body.data!;
}, 120_000);
afterAll(async () => t?.close());

/** A good report at a new time each call. */
function good(): { deviceId: string; time: string; lat: number; lon: number; extraData: string } {
  clock += 10_000;
  return { deviceId: device.deviceId, time: new Date(clock).toISOString(), lat: 31.2, lon: 121.4, extraData: JSON.stringify({ 3: { temp: 45, humidity: 500 } }) };
}

/** Reports a device might send by mistake (or malice), each refused for a reason. */
const badReport: fc.Arbitrary<unknown> = fc.oneof(
  // Not a report (an empty list is no report at all, so nothing to refuse).
  fc.jsonValue({ maxDepth: 3 }).filter((v) => typeof v !== 'object' || v === null || (Array.isArray(v) && v.length > 0)),
  fc.record({ deviceId: fc.oneof(fc.integer(), fc.constant(null), fc.constant('')), time: fc.constant('2026-11-20T00:00:00Z') }),
  fc.record({ time: fc.oneof(fc.string(), fc.integer(), fc.constant('2026-13-45T99:00:00Z')) }).map((r) => ({ ...r, deviceId: 'X' })),
  fc.record({ lat: fc.oneof(fc.double({ min: 90.000_001, noNaN: true }), fc.double({ max: -90.000_001, noNaN: true }), fc.string(), fc.constant(null)) }),
  fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v)), fc.constant('{"3":{"temp":"hot"}}'), fc.constant('{"16":{"gac":7}}'), fc.constant('[{"noid":1}]')).map((extraData) => ({ extraData })),
  fc.constantFrom('a\u0000b', 'x\uD800', '\uDC00y').map((text) => ({ extraData: JSON.stringify({ 99: { note: text } }) })),
  fc.constantFrom('a\u0000b', 'x\uD800').map((text) => ({ network: text })),
  fc.constantFrom('a\u0000b', 'x\uDC00').map((text) => ({ deviceId: text })),
);

/** Merges a bad part into a good report at a fresh time (so only the bad part is wrong). */
function corrupt(part: unknown): unknown {
  if (part && typeof part === 'object' && !Array.isArray(part)) return { ...good(), ...(part as object) };
  return part;
}

const logCount = async (since: number) =>
  (await t.app.database.db.select({ id: intakeLog.id, reason: intakeLog.reason }).from(intakeLog).where(and(eq(intakeLog.deviceRef, device.id), gt(intakeLog.id, since))));
const lastLogId = async () => {
  const rows = await t.app.database.db.select({ id: intakeLog.id }).from(intakeLog);
  return rows.reduce((m, r) => Math.max(m, r.id), 0);
};
const stored = async (time: string) =>
  (await t.app.database.db.select({ time: telemetry.time }).from(telemetry).where(and(eq(telemetry.deviceRef, device.id), eq(telemetry.time, new Date(time))))).length;

describe('HTTP intake', () => {
  const post = (payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json', language: 'en-US' },
      payload,
    });

  it('refuses malformed reports with a reason in the intake log and stores the next good one', async () => {
    const bad = fc.sample(badReport, { numRuns: 60, seed: 42 }).map(corrupt);
    for (const report of bad) {
      const since = await lastLogId();
      const res = await post(JSON.stringify(report));
      expect(res.statusCode, `${JSON.stringify(report).slice(0, 300)} -> ${res.payload}`).toBeLessThan(500);
      if (res.statusCode === 200) {
        const result = (res.json() as { data: { accepted: number; rejected: { reason: string }[] } }).data;
        expect(result.accepted, JSON.stringify(report).slice(0, 200)).toBe(0);
        expect(result.rejected.length).toBeGreaterThan(0);
        expect(result.rejected.every((r) => r.reason.length > 0)).toBe(true);
        // Each refused report is in the intake log with the reason the device was told.
        const logged = await logCount(since);
        expect(logged.map((l) => l.reason).sort(), JSON.stringify(report).slice(0, 200)).toEqual(result.rejected.map((r) => r.reason).sort());
      }
      const next = good();
      const ok = await post(JSON.stringify(next));
      expect(ok.statusCode, ok.payload).toBe(200);
      await t.app.readings.flushed();
      expect(await stored(next.time)).toBe(1);
    }
  });

  it('keeps the good reports of a batch that also holds bad ones, NUL and lone surrogates included', async () => {
    const a = good();
    const b = good();
    const since = await lastLogId();
    const res = await post(JSON.stringify([a, { ...good(), extraData: JSON.stringify({ 99: { note: 'a\u0000b' } }) }, { ...good(), network: 'x\uD800' }, b]));
    expect(res.statusCode, res.payload).toBe(200);
    const result = (res.json() as { data: { accepted: number; rejected: { index: number; reason: string }[] } }).data;
    expect(result.accepted).toBe(2);
    expect(result.rejected.map((r) => r.index)).toEqual([1, 2]);
    expect((await logCount(since)).length).toBe(2);
    await t.app.readings.flushed();
    expect((await stored(a.time)) + (await stored(b.time))).toBe(2);
  });

  it('answers malformed JSON and broken UTF-8 with a 400 envelope, and refuses JSON nested 10,000 deep into the log', async () => {
    for (const payload of ['{"deviceId":', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('latin1')]) {
      const res = await post(payload);
      expect(res.statusCode, `${payload.slice(0, 40)} -> ${res.payload}`).toBe(400);
      expect(res.json()).toMatchObject({ isSuccess: 'N', errorcode: 'VALIDATION' });
    }
    const since = await lastLogId();
    const deep = await post('['.repeat(10_000) + ']'.repeat(10_000));
    expect(deep.statusCode, deep.payload).toBe(200);
    expect((deep.json() as { data: { rejected: unknown[] } }).data.rejected).toHaveLength(1);
    expect(await logCount(since)).toHaveLength(1);
  });
});

describe('MQTT intake', () => {
  it('refuses malformed payloads with a reason in the intake log and stores the next good report', async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log: pino({ level: 'silent' }), authenticate: t.app.intake.authenticate, sink: t.app.intake });
    try {
      const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { username: device.deviceId, password: device.secret, reconnectPeriod: 0 });
      const topic = `devices/${device.deviceId}/report`;
      const payloads: (string | Buffer)[] = [
        ...fc.sample(badReport, { numRuns: 40, seed: 7 }).map((r) => JSON.stringify(corrupt(r)) ?? 'undefined'),
        'garbage',
        Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
        '{"deviceId":',
        '['.repeat(10_000) + ']'.repeat(10_000),
        '',
      ];
      for (const payload of payloads) {
        const since = await lastLogId();
        if (process.env.FUZZ_VERBOSE) console.log('publish', JSON.stringify(String(payload).slice(0, 200)));
        await c.publishAsync(topic, payload, { qos: 1 });
        const logged = await logCount(since);
        expect(logged.length, JSON.stringify(String(payload).slice(0, 200))).toBeGreaterThanOrEqual(1);
        expect(logged.every((l) => l.reason.length > 0)).toBe(true);
        const next = good();
        await c.publishAsync(topic, JSON.stringify(next), { qos: 1 });
        expect(await stored(next.time), String(payload).slice(0, 200)).toBe(1);
      }
      await c.endAsync();
    } finally {
      await link.close();
    }
  }, 120_000);
});

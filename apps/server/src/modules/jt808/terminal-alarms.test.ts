// A JT/T 808 terminal's alarm bits as platform alarms, and its vendor items through its model's
// mapping, over real TCP against a test app (PGlite, or PostgreSQL with DATABASE_URL): a policy
// of the organisation raises an SOS alarm while the terminal's bit 0 is set and clears it when a
// report has it clear; the mapped temperature item is the device's latest temperature; another
// organisation sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { eq } from 'drizzle-orm';
import type { AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceRow } from '@iotc/shared/device';
import { JT808_MODEL_API } from '@iotc/shared/jt808-models';
import type { Page } from '@iotc/shared/envelope';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';
import { deviceStates, telemetry } from '../../db/schema.ts';
import { TestTerminal } from './test-helpers.ts';
import { alarmFlags, encodeLocation } from './location.ts';
import { ALARM_CONFIRM_ID, decodeAlarmConfirmation } from './alarm-confirm.ts';
import { decodeGeneralAnswer, decodeRegistrationAnswer, encodeAuthentication, encodeRegistration, MSG } from './messages.ts';
import { startJt808Gateway, type Jt808Gateway } from './gateway.ts';
import { jt808Repo } from './repo.ts';
import { jt808Service } from './service.ts';

const PHONE = '013912340808';
let t: TestApp;
let gateway: Jt808Gateway;
let admin: string;
let rival: string;
let deviceRef: string;

async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const alarmsOf = async (token: string) => (await call<Page<AlarmRow>>(t.app, { method: 'GET', url: `/api/iot/v2/alarms?size=100&deviceId=${deviceRef}`, token })).body;

beforeAll(async () => {
  t = await testApp();
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  const device = (await call<DeviceRow>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: PHONE, name: 'SOS terminal', protocol: 'jt808' } })).body.data!;
  deviceRef = device.id;
  await createTenantUser(t.app.database.db, { code: 'talarm-rival', account: 'talarm-rival', password: ADMIN_PASSWORD, permissions: ['alarm:read', 'device:read'] });
  rival = await login(t.app, 'talarm-rival', ADMIN_PASSWORD);
  const levels = (await call<Page<LevelRow>>(t.app, { method: 'GET', url: '/api/iot/v2/alarm-levels', token: admin })).body.data!.rows;
  const urgent = levels.find((l) => l.code === 'urgent' && l.orgId === device.orgId)!;
  const policy = await call<PolicyRow>(t.app, {
    method: 'POST',
    url: '/api/iot/v2/alarm-policies',
    token: admin,
    body: {
      name: 'Terminal alarms',
      scope: 'devices',
      targets: [deviceRef],
      rules: [
        { id: 'sos', type: 'jt808_sos', threshold: 0, levelId: urgent.id },
        { id: 'cut', type: 'jt808_power_cut', threshold: 0, levelId: urgent.id },
      ],
    },
  });
  expect(policy.status, JSON.stringify(policy.body)).toBe(200);
  // The platform's mapping of the model: probe 1 and 2 of item 0x51 (traccar's Huabao layout), humidity in 0x66.
  const mapping = await call(t.app, {
    method: 'POST',
    url: JT808_MODEL_API,
    token: admin,
    body: {
      model: 'XYZ-T4',
      items: [
        { id: '0x51', layout: 'sm16/10', channel: 'temperature' },
        { id: '0x51', layout: 'sm16/10', offset: 2, channel: 'temperature', probe: 2 },
        { id: '0x66', layout: 'uint16/10', channel: 'humidity' },
      ],
    },
  });
  expect(mapping.status, JSON.stringify(mapping.body)).toBe(200);
  gateway = await startJt808Gateway({
    port: 0,
    host: '127.0.0.1',
    log: pino({ level: 'silent' }),
    intake: t.app.intake,
    service: jt808Service(jt808Repo(t.app.database.db), { nodeId: 'test-node' }),
    items: t.app.jt808Models,
    confirmations: t.app.jt808Confirmations,
  });
});
afterAll(async () => {
  await gateway?.close();
  await t.close();
});

describe('terminal alarm bits over TCP', () => {
  it('opens an SOS alarm while bit 0 is set and clears it when the bit clears; another organisation sees none', async () => {
    const term = await TestTerminal.open(gateway.port, PHONE);
    term.send(MSG.register, encodeRegistration({ edition: 2013, province: 31, city: 100, manufacturer: 'ACME', model: 'XYZ-T4', terminalId: 'T1', plateColour: 1, plate: '沪A00001' }));
    const { authCode } = decodeRegistrationAnswer((await term.next(MSG.registerAnswer)).body);
    term.send(MSG.authenticate, encodeAuthentication({ code: authCode! }, false));
    expect(decodeGeneralAnswer((await term.next(MSG.platformAnswer)).body).result).toBe(0);

    const report = async (iso: string, alarm: number) => {
      const extras = { '0x51': '80b900fa', '0x66': '0271' };
      const serial = term.send(MSG.location, encodeLocation({ latitude: 31.23, longitude: 121.47, positioned: true, speedKmh: 30, time: new Date(iso), alarm, extras, fuelLitres: 52.3, signal: 20, satellites: 11 }));
      expect(decodeGeneralAnswer((await term.next(MSG.platformAnswer)).body)).toMatchObject({ serial, result: 0 });
    };
    await report('2026-11-21T08:00:00Z', alarmFlags(['sos']));
    const open = await waitFor(
      () => alarmsOf(admin),
      (b) => b.data!.rows.some((a) => a.type === 'jt808_sos'),
    );
    const sos = open.data!.rows.find((a) => a.type === 'jt808_sos')!;
    expect(sos).toMatchObject({ status: 'active', level: { code: 'urgent' }, startedAt: '2026-11-21T08:00:00.000Z', lat: 31.23, lon: 121.47 });
    expect(open.data!.rows.filter((a) => a.type === 'jt808_power_cut')).toHaveLength(0);
    // The mapped items: the latest state's temperature and humidity, the second probe beside them.
    const [state] = await t.app.database.db.select().from(deviceStates).where(eq(deviceStates.deviceRef, deviceRef));
    expect(state!.sensors).toMatchObject({ temperature: -18.5, humidity: 62.5, fuel: 52.3, signal: 20, satellites: 11 });
    const [reading] = await t.app.database.db.select().from(telemetry).where(eq(telemetry.deviceRef, deviceRef));
    expect(reading!.raw).toMatchObject({ '3': { temp: 32768 + 185, humidity: 625 }, jt808: { probes: { 'temperature.2': 25 }, items: { '0x51': '80b900fa' } } });

    // Another organisation: not in its list, and the alarm itself is not found.
    expect((await alarmsOf(rival)).data!.rows).toHaveLength(0);
    expect((await call(t.app, { method: 'GET', url: `/api/iot/v2/alarms/${sos.id}`, token: rival })).status).toBe(404);

    // The operator acknowledges it: the terminal is told to clear its SOS bit (0x8203, serial 0 = every SOS).
    const ack = await call(t.app, { method: 'POST', url: `/api/iot/v2/alarms/${sos.id}/acknowledge`, token: admin });
    expect(ack.status).toBe(200);
    expect(decodeAlarmConfirmation((await term.next(ALARM_CONFIRM_ID)).body)).toEqual({ serial: 0, alarms: alarmFlags(['sos']) });

    // Still set (and main power cut with it): the same alarm repeats; then cleared.
    await report('2026-11-21T08:00:30Z', alarmFlags(['sos', 'power-cut']));
    await report('2026-11-21T08:01:00Z', 0);
    const cleared = await waitFor(
      () => alarmsOf(admin),
      (b) => b.data!.rows.filter((a) => a.status === 'cleared').length === 2,
    );
    const again = cleared.data!.rows.find((a) => a.id === sos.id)!;
    expect(again).toMatchObject({ status: 'cleared', endedAt: '2026-11-21T08:01:00.000Z', count: 2 });
    const cut = cleared.data!.rows.find((a) => a.type === 'jt808_power_cut')!;
    expect(cut).toMatchObject({ status: 'cleared', startedAt: '2026-11-21T08:00:30.000Z' });
    // A power cut clears itself on the terminal: acknowledging it sends nothing (a heartbeat answered after it shows none came).
    expect((await call(t.app, { method: 'POST', url: `/api/iot/v2/alarms/${cut.id}/acknowledge`, token: admin })).status).toBe(200);
    term.send(MSG.heartbeat, Buffer.alloc(0));
    await term.next(MSG.platformAnswer);
    expect(term.has(ALARM_CONFIRM_ID)).toBe(false);
    term.end();
  });

  it('sends a confirmation the terminal missed while offline when it authenticates again', async () => {
    const term = await TestTerminal.open(gateway.port, PHONE);
    term.send(MSG.register, encodeRegistration({ edition: 2013, province: 31, city: 100, manufacturer: 'ACME', model: 'XYZ-T4', terminalId: 'T1', plateColour: 1, plate: '沪A00001' }));
    const { authCode } = decodeRegistrationAnswer((await term.next(MSG.registerAnswer)).body);
    term.send(MSG.authenticate, encodeAuthentication({ code: authCode! }, false));
    expect(decodeGeneralAnswer((await term.next(MSG.platformAnswer)).body).result).toBe(0);
    const serial = term.send(MSG.location, encodeLocation({ latitude: 31.23, longitude: 121.47, positioned: true, speedKmh: 0, time: new Date('2026-11-21T09:00:00Z'), alarm: alarmFlags(['sos']) }));
    expect(decodeGeneralAnswer((await term.next(MSG.platformAnswer)).body)).toMatchObject({ serial, result: 0 });
    const open = await waitFor(
      () => alarmsOf(admin),
      (b) => b.data!.rows.some((a) => a.type === 'jt808_sos' && a.status === 'active'),
    );
    const sos = open.data!.rows.find((a) => a.type === 'jt808_sos' && a.status === 'active')!;
    // Gone before the operator acknowledges: the confirmation finds no connection.
    term.end();
    await waitFor(async () => gateway.connections(), (n) => n === 0);
    expect((await call(t.app, { method: 'POST', url: `/api/iot/v2/alarms/${sos.id}/acknowledge`, token: admin })).status).toBe(200);

    // Back with its saved code: the answer, then the 0x8203 it missed.
    const back = await TestTerminal.open(gateway.port, PHONE);
    back.send(MSG.authenticate, encodeAuthentication({ code: authCode! }, false));
    expect(decodeGeneralAnswer((await back.next(MSG.platformAnswer)).body).result).toBe(0);
    expect(decodeAlarmConfirmation((await back.next(ALARM_CONFIRM_ID)).body)).toEqual({ serial: 0, alarms: alarmFlags(['sos']) });
    // Cleared by the terminal: a later reconnection gets none.
    const cleared = back.send(MSG.location, encodeLocation({ latitude: 31.23, longitude: 121.47, positioned: true, speedKmh: 0, time: new Date('2026-11-21T09:01:00Z'), alarm: 0 }));
    expect(decodeGeneralAnswer((await back.next(MSG.platformAnswer)).body)).toMatchObject({ serial: cleared, result: 0 });
    await waitFor(
      () => alarmsOf(admin),
      (b) => b.data!.rows.find((a) => a.id === sos.id)?.status === 'cleared',
    );
    back.end();
    await waitFor(async () => gateway.connections(), (n) => n === 0);
    const third = await TestTerminal.open(gateway.port, PHONE);
    third.send(MSG.authenticate, encodeAuthentication({ code: authCode! }, false));
    expect(decodeGeneralAnswer((await third.next(MSG.platformAnswer)).body).result).toBe(0);
    third.send(MSG.heartbeat, Buffer.alloc(0));
    await third.next(MSG.platformAnswer);
    expect(third.has(ALARM_CONFIRM_ID)).toBe(false);
    third.end();
  });
});

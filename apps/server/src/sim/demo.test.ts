// The demo's backfill covers the past hours on whole steps and joins the live reports without a
// jump; a JT/T 808 truck's backfill is what its gateway stores of the same fixes; the demo
// simulation publishes the given kinds over MQTT; and the demo fleet on a test app reports both
// ways: its JT/T 808 trucks over TCP to the gateway, the rest over the embedded broker. A fresh
// demo's past day of the JT/T 808 trucks carries their reefer temperature (item 0x51 through the
// organisation's mapping of model JT808-4G), and the demo organisation's policy of terminal alarms
// turns a simulated terminal's overspeed bit into an alarm with its level.
import { describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import type { DeviceReport } from '@iotc/shared/device';
import type { AlarmRow, PolicyRow } from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import type { TelemetryRow } from '@iotc/shared/live';
import { terminalAlarmWord } from '@iotc/shared/terminal-alarms';
import { decodeTemperature } from '@iotc/shared/sensors';
import { startMqtt } from '../ingest/mqtt.ts';
import { call, DEMO_PASSWORD, login, testApp } from '../test/harness.ts';
import { createTenantUser } from '../test/fixtures.ts';
import { demoDevices, rekey, seedDemoFleet } from '../demo/seed-demo.ts';
import { deviceBindings, devices as deviceTable, jt808Models, jt808Terminals, telemetry } from '../db/schema.ts';
import { OPS_REPORT_API, type MileageReport } from '@iotc/shared/ops-report';
import { startJt808Gateway } from '../modules/jt808/gateway.ts';
import { jt808Repo } from '../modules/jt808/repo.ts';
import { jt808Service } from '../modules/jt808/service.ts';
import { asReceived, backfill, startDemoSimulation, storeBackfill, type DemoDevice } from './demo.ts';
import { gatewayReportOf, OVERSPEED_LIMIT_KMH } from './jt808-terminal.ts';
import { distanceKm } from './routes.ts';

const log = pino({ level: 'silent' });
const devices: DemoDevice[] = [
  { deviceId: 'DEMO-TRUCK-01', secret: 's1', kind: 'vehicle' },
  { deviceId: 'DEMO-REEFER-01', secret: 's2', kind: 'container' },
  { deviceId: 'DEMO-ROOM-01', secret: 's3', kind: 'coldroom' },
];

describe('backfill', () => {
  const now = Date.UTC(2026, 10, 21, 8, 0, 30);
  const [truck, reefer, room] = backfill(devices, { hours: 24, stepMs: 60_000, now: new Date(now) });

  it('gives each device one report a minute over the past 24 h, on whole minutes, oldest first', () => {
    for (const b of [truck!, reefer!, room!]) {
      expect(b.reports).toHaveLength(24 * 60);
      const times = b.reports.map((r) => Date.parse(r.time));
      expect(times[0]).toBe(Date.UTC(2026, 10, 20, 8, 1, 0));
      expect(times.at(-1)).toBe(Date.UTC(2026, 10, 21, 8, 0, 0));
      expect(times.every((t, i) => t % 60_000 === 0 && (i === 0 || t - times[i - 1]! === 60_000))).toBe(true);
      expect(b.reports.every((r) => r.deviceId === b.deviceId)).toBe(true);
    }
  });

  it('follows the given kinds: the cold room has no speed, the truck has ignition', () => {
    expect(room!.reports.every((r) => r.speed === undefined)).toBe(true);
    expect(truck!.reports.every((r) => typeof r.acc === 'boolean')).toBe(true);
    expect(reefer!.reports.every((r) => r.acc === undefined && r.speed !== undefined)).toBe(true);
  });

  it('ends where the live simulation goes on: the truck moves on at most its speed', () => {
    const gps = (r: DeviceReport) => r.positioning === 'GPS';
    const last = truck!.reports.filter(gps).at(-1)!;
    const [live] = backfill([devices[0]!], { hours: 0.05, stepMs: 1000, now: now + 10_000 });
    const next = live!.reports.filter(gps).at(-1)!;
    const hours = (Date.parse(next.time) - Date.parse(last.time)) / 3_600_000;
    expect(distanceKm([last.lat!, last.lon!], [next.lat!, next.lon!])).toBeLessThanOrEqual(100 * hours + 0.01);
  });
});

describe('asReceived', () => {
  const now = Date.UTC(2026, 10, 21, 8, 0, 30);
  const [truck] = backfill([devices[0]!], { hours: 1, stepMs: 60_000, now });

  it('leaves JSON reports as they are, for MQTT', () => {
    expect(asReceived(devices[0]!, truck!.reports)).toEqual({ channel: 'mqtt', reports: truck!.reports });
  });

  it("gives a JT/T 808 truck's fixes as the gateway stores them: same time, place and speed, no sensor blocks", () => {
    const got = asReceived({ deviceId: '014480000005', protocol: 'jt808' }, truck!.reports);
    expect(got.channel).toBe('jt808');
    expect(got.reports).toHaveLength(truck!.reports.length);
    got.reports.forEach((r, i) => {
      const json = truck!.reports[i]!;
      const fix = r as { deviceId: string; time: string; lat?: number; lon?: number; speed: number; extraData: Record<string, unknown> };
      expect(fix).toMatchObject({ deviceId: '014480000005', time: json.time, speed: json.speed });
      if (json.positioning === 'GPS') {
        expect(fix.lat).toBeCloseTo(json.lat!, 6);
        expect(fix.lon).toBeCloseTo(json.lon!, 6);
      } else expect(fix.lat).toBeUndefined();
      expect(Object.keys(fix.extraData).sort()).toEqual(['14', 'jt808']);
      // The reefer's temperature as vendor item 0x51, sign and magnitude in 0.1 C, like block 3.
      const block3 = (JSON.parse(json.extraData as string) as { '3': { temp: number } })['3'];
      const probe = decodeTemperature(block3.temp) === null ? 'ffff' : block3.temp.toString(16).padStart(4, '0');
      expect((fix.extraData.jt808 as { items: Record<string, string> }).items['0x51']).toBe(probe);
    });
  });
});

describe('startDemoSimulation', () => {
  it('publishes the demo devices over MQTT', async () => {
    const arrived = new Set<string>();
    const link = await startMqtt({
      port: 0,
      host: '127.0.0.1',
      log,
      authenticate: async (username, password) =>
        devices.some((d) => d.deviceId === username && d.secret === password) ? { id: username, orgId: 'demo', deviceId: username } : null,
      sink: {
        deviceOf: async () => null,
        ingest: async (device) => arrived.add(device.deviceId),
        refuse: async () => {},
      },
    });
    const sim = await startDemoSimulation({ mqttUrl: `mqtt://127.0.0.1:${link.port}`, devices, intervalMs: 100, log });
    try {
      await expect.poll(() => arrived.size, { timeout: 5000 }).toBe(3);
    } finally {
      await sim.stop();
      await link.close();
    }
  });
});

describe('the demo fleet', () => {
  it('reports both ways: its two JT/T 808 trucks over TCP to the gateway, the other devices over MQTT', async () => {
    const t = await testApp();
    const db = t.app.database.db;
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: t.app.intake.authenticate, authFailures: t.app.intake.authFailures, sink: t.app.intake });
    const gateway = await startJt808Gateway({ port: 0, host: '127.0.0.1', log, intake: t.app.intake, service: jt808Service(jt808Repo(db), { nodeId: 'demo-test' }) });
    let sim: Awaited<ReturnType<typeof startDemoSimulation>> | undefined;
    try {
      expect(await seedDemoFleet(db)).toBe(true);
      const fleet = await demoDevices(db);
      const trucks = fleet.filter((d) => d.protocol === 'jt808');
      expect(trucks.map((d) => d.plate).sort()).toEqual(['粤A·M4005', '粤B·N5006']);
      expect(trucks.every((d) => d.kind === 'vehicle')).toBe(true);
      for (const d of trucks) expect(d.deviceId).toMatch(/^0144\d{8}$/);
      expect(fleet.filter((d) => d.protocol === 'json')).toHaveLength(19);
      // The demo organisation maps its terminals' reefer probe (item 0x51) to the temperature.
      const mappings = await db.select().from(jt808Models).where(eq(jt808Models.model, 'JT808-4G'));
      expect(mappings.map((m) => [m.orgId, m.items])).toEqual([[fleet[0]!.orgId, [{ id: '0x51', layout: 'sm16/10', offset: 0, channel: 'temperature', probe: 1 }]]]);

      const secrets = await rekey(db, fleet.map((d) => d.id));
      sim = await startDemoSimulation({
        mqttUrl: `mqtt://127.0.0.1:${link.port}`,
        jt808: { host: '127.0.0.1', port: gateway.port },
        devices: fleet.map((d) => ({ deviceId: d.deviceId, secret: secrets.get(d.id)!, kind: d.kind, profile: d.profile, protocol: d.protocol, plate: d.plate, model: d.model })),
        intervalMs: 300,
        log,
      });
      // Every device of the fleet has readings; the trucks' came as 0x0200 locations.
      const reporting = async () => new Set((await db.selectDistinct({ ref: telemetry.deviceRef }).from(telemetry).where(inArray(telemetry.deviceRef, fleet.map((d) => d.id)))).map((r) => r.ref)).size;
      await expect.poll(reporting, { timeout: 20_000 }).toBe(21);
      for (const d of trucks) {
        const rows = await db.select().from(telemetry).where(eq(telemetry.deviceRef, d.id));
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((r) => (r.raw as { jt808?: { msg?: string } }).jt808?.msg === '0x0200')).toBe(true);
        // The reefer probe rides in vendor item 0x51: kept raw, or read as the temperature by the model's mapping.
        expect(rows.every((r) => (r.raw as { jt808?: { items?: Record<string, string> } }).jt808?.items?.['0x51'] !== undefined || typeof (r.sensors as { temperature?: unknown }).temperature === 'number')).toBe(true);
        const [terminal] = await db.select().from(jt808Terminals).where(eq(jt808Terminals.deviceRef, d.id));
        expect(terminal).toMatchObject({ plate: d.plate, model: 'JT808-4G', nodeId: 'demo-test' });
      }
      // The demo operator sees them as JT/T 808 devices; another organisation sees none of the fleet.
      const demo = await login(t.app, 'demo', DEMO_PASSWORD);
      const [row] = await db.select({ id: deviceTable.id }).from(deviceTable).where(eq(deviceTable.deviceId, trucks[0]!.deviceId));
      expect((await call<{ protocol: string }>(t.app, { method: 'GET', url: `/api/iot/v2/devices/${row!.id}`, token: demo })).body.data).toMatchObject({ protocol: 'jt808' });
      await createTenantUser(db, { code: 'demo-outsider', account: 'demo-outsider', password: DEMO_PASSWORD, permissions: ['device:read'] });
      const outsider = await login(t.app, 'demo-outsider', DEMO_PASSWORD);
      expect((await call(t.app, { method: 'GET', url: `/api/iot/v2/devices/${row!.id}`, token: outsider })).status).toBe(404);
    } finally {
      await sim?.stop();
      await gateway.close();
      await link.close();
      await t.close();
    }
  }, 90_000);
});

describe("a fresh demo's JT/T 808 trucks", () => {
  it('have a past day with the reefer temperature, and a policy that raises their terminal alarms with levels', async () => {
    const t = await testApp();
    const db = t.app.database.db;
    try {
      expect(await seedDemoFleet(db)).toBe(true);
      const trucks = (await demoDevices(db)).filter((d) => d.protocol === 'jt808');
      const truck = trucks.find((d) => d.deviceId === '014480000005')!;
      const now = Date.now();
      await storeBackfill(trucks, { intake: t.app.intake, items: t.app.jt808Models }, { hours: 2, stepMs: 120_000, now });
      await t.app.readings.flushed();
      const demo = await login(t.app, 'demo', DEMO_PASSWORD);

      // The history the console shows: every fix of the past hours has the reefer's temperature, in its chilled range.
      const from = new Date(now - 2 * 3_600_000).toISOString();
      const history = await call<Page<TelemetryRow>>(t.app, { method: 'GET', url: `/api/iot/v2/telemetry?device=${truck.id}&from=${from}&to=${new Date(now).toISOString()}&size=100`, token: demo });
      expect(history.status, JSON.stringify(history.body)).toBe(200);
      const rows = history.body.data!.rows;
      expect(rows.length).toBeGreaterThan(50);
      expect(rows.every((r) => (r.raw.jt808 as { msg?: string }).msg === '0x0200')).toBe(true);
      const temps = rows.map((r) => r.sensors.temperature);
      expect(temps.every((v) => typeof v === 'number' && v > -5 && v < 15)).toBe(true);

      // The policy of terminal alarms: on both trucks, a level for each alarm bit it watches.
      const policies = (await call<Page<PolicyRow>>(t.app, { method: 'GET', url: '/api/iot/v2/alarm-policies?size=100', token: demo })).body.data!.rows;
      const terminal = policies.find((p) => p.rules.some((r) => r.type.startsWith('jt808_')))!;
      expect(terminal).toMatchObject({ name: '部标终端报警', scope: 'devices', enabled: true });
      expect([...terminal.targets].sort()).toEqual(trucks.map((d) => d.id).sort());
      expect(terminal.rules.map((r) => r.type).sort()).toEqual(['jt808_collision', 'jt808_overspeed', 'jt808_power_cut', 'jt808_power_under_voltage', 'jt808_rollover', 'jt808_sos']);
      expect(terminal.rules.every((r) => r.levelId && r.enabled)).toBe(true);

      // The simulated terminal over its overspeed limit sets bit 1; the policy opens an overspeed alarm at its level.
      const fast = backfill([truck], { hours: 0.1, stepMs: 60_000, now: now + 600_000 })[0]!.reports.at(-1)!;
      const report = gatewayReportOf(truck.deviceId, { ...fast, speed: OVERSPEED_LIMIT_KMH + 7 });
      expect(terminalAlarmWord(report.extraData)).toBe(1 << 1);
      expect(terminalAlarmWord(gatewayReportOf(truck.deviceId, { ...fast, speed: OVERSPEED_LIMIT_KMH - 8 }).extraData)).toBe(0);
      // A fix under the limit first: the backfill may have driven over it at some times of day,
      // and the alarm that opens now is the one of this fix.
      const slow = gatewayReportOf(truck.deviceId, { ...fast, time: new Date(Date.parse(fast.time) - 60_000).toISOString(), speed: OVERSPEED_LIMIT_KMH - 8 });
      await t.app.intake.ingest(truck, [slow], 'jt808');
      await t.app.intake.ingest(truck, [report], 'jt808');
      const alarms = async () => (await call<Page<AlarmRow>>(t.app, { method: 'GET', url: `/api/iot/v2/alarms?size=100&deviceId=${truck.id}`, token: demo })).body.data!.rows;
      const ofFix = (a: AlarmRow) => a.type === 'jt808_overspeed' && a.startedAt === fast.time;
      await expect.poll(async () => (await alarms()).find(ofFix)?.status, { timeout: 10_000 }).toBe('active');
      const overspeed = (await alarms()).find(ofFix)!;
      expect(overspeed).toMatchObject({ level: { code: 'important', nameZh: expect.any(String), nameEn: expect.any(String) }, device: { deviceId: '014480000005' }, startedAt: fast.time });
    } finally {
      await t.close();
    }
  }, 180_000);
});

describe("a fresh demo's reports", () => {
  it('count the whole past the demo stored: its devices are bound from the start of their history', async () => {
    const t = await testApp();
    const db = t.app.database.db;
    try {
      expect(await seedDemoFleet(db)).toBe(true);
      const trucks = (await demoDevices(db)).filter((d) => d.kind === 'vehicle' && d.protocol === 'json');
      expect(trucks.length).toBeGreaterThan(0);
      const now = Date.now();
      await storeBackfill(trucks, { intake: t.app.intake }, { hours: 6, stepMs: 120_000, now });
      await t.app.readings.flushed();
      const demo = await login(t.app, 'demo', DEMO_PASSWORD);

      // Each truck's odometer over the stored hours, from its readings.
      const odometer = new Map<string, number>();
      let first = Infinity;
      for (const d of trucks) {
        const rows = await db.select({ time: telemetry.time, sensors: telemetry.sensors }).from(telemetry).where(eq(telemetry.deviceRef, d.id)).orderBy(telemetry.time);
        const km = rows.map((r) => (r.sensors as { mileage?: number }).mileage).filter((v): v is number => typeof v === 'number');
        expect(km.length).toBeGreaterThan(100);
        odometer.set(d.id, km.at(-1)! - km[0]!);
        first = Math.min(first, rows[0]!.time.getTime());
      }
      // The mileage report of the local days the readings fall on (Asia/Shanghai, as the harness asks), per truck.
      const day = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
      const reported = new Map<string, number>();
      for (const date of new Set([day(first), day(now)])) {
        const res = await call<MileageReport>(t.app, { method: 'GET', url: `${OPS_REPORT_API.mileage}?period=day&date=${date}`, token: demo });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        for (const r of res.body.data!.rows) reported.set(r.assetId, (reported.get(r.assetId) ?? 0) + r.totalKm);
      }
      const assetOf = new Map((await db.select({ deviceRef: deviceBindings.deviceRef, assetRef: deviceBindings.assetRef }).from(deviceBindings)).map((b) => [b.deviceRef, b.assetRef]));
      for (const d of trucks) {
        const want = odometer.get(d.id)!;
        expect(want).toBeGreaterThan(10);
        // The report rounds to 0.1 km a day.
        expect(Math.abs((reported.get(assetOf.get(d.id)!) ?? 0) - want), d.deviceId).toBeLessThanOrEqual(0.2);
      }
    } finally {
      await t.close();
    }
  }, 180_000);
});

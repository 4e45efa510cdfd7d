// A full disk loses nothing (issue 24, item 4), for real: the database's files on a small tmpfs
// that a ballast file fills to the brim while devices report over MQTT (the embedded broker),
// HTTP and JT/T 808. PGlite: its data directory on the tmpfs. PostgreSQL (DATABASE_URL): the
// throw-away database created in a tablespace on the tmpfs. While the database cannot write,
// nothing is acknowledged that is not stored (MQTT not acknowledged, HTTP 503 with Retry-After
// in the caller's language, JT/T 808 not answered), the log says so once, /metrics, readiness
// and the platform alarm say so; once the ballast is removed the intake resumes by itself, every
// acknowledged report is there and the refused ones are stored once the devices resend them.
// Mounting needs root (CAP_SYS_ADMIN): where it is not permitted the tests skip and say why.
import { execFileSync } from 'node:child_process';
import { chownSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { rowsOf } from '../db/client.ts';
import { notWritableCause } from '../db/availability.ts';
import { PGlite } from '@electric-sql/pglite';
import { ADMIN_PASSWORD, DEMO_PASSWORD, call, login } from '../test/harness.ts';
import { startMqtt, type MqttLink } from './mqtt.ts';
import { startJt808Gateway, type Jt808Gateway } from '../modules/jt808/gateway.ts';
import { jt808Repo } from '../modules/jt808/repo.ts';
import { jt808Service } from '../modules/jt808/service.ts';
import { TestTerminal } from '../modules/jt808/test-helpers.ts';
import { encodeAuthentication, encodeRegistration, decodeRegistrationAnswer, MSG } from '../modules/jt808/messages.ts';
import { encodeLocation } from '../modules/jt808/location.ts';
import { PLATFORM_ALARMS_API, type PlatformAlarm } from '@iotc/shared/platform-alarms';

/** Mounts a tmpfs of `size` at a new directory; null (with the reason) where mounting is not permitted. */
function mountTmpfs(size: string): { dir: string; unmount: () => void } | { error: string } {
  const dir = mkdtempSync(join(tmpdir(), 'iotc-diskfull-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { error: `mount -t tmpfs is not permitted here (${(err as Error).message.split('\n')[0]})` };
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the file system of `dir` to the brim (1 MB writes, then 4 KB ones); the file to remove. */
function fillWithBallast(dir: string): string {
  const file = join(dir, 'ballast');
  const fd = openSync(file, 'w');
  try {
    for (const size of [1 << 20, 4096, 512]) {
      const buf = Buffer.alloc(size, 0xa5);
      try {
        for (;;) writeSync(fd, buf);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

// Probed once: whether this process may mount (root in a container that allows it).
const probe = mountTmpfs('1m');
const mountError = 'error' in probe ? probe.error : null;
if ('unmount' in probe) probe.unmount();
if (mountError) console.warn(`disk-full tests skipped: ${mountError}`);

const DEVICES = 3;
const EVERY_MS = 100;
const PHONE = `0139${String(process.pid % 100_000_000).padStart(8, '0')}`;

interface Line {
  level: number;
  msg: string;
  [k: string]: unknown;
}

interface Setup {
  app: FastifyInstance;
  /** The directory on the tmpfs to fill. */
  fillDir: string;
  /** The stored reading keys (device id | ISO time) of this test's devices. */
  stored(): Promise<string[]>;
  cleanup(): Promise<void>;
}

const report = (deviceId: string, time: Date, temp = 4.5): string =>
  JSON.stringify({ deviceId, time: time.toISOString(), lat: 30.5, lon: 114.3, extraData: JSON.stringify({ 3: { temp, humidity: 500 } }) });

class Terminal extends TestTerminal {}

/**
 * A device's QoS 1 publish, sent again until the server acknowledges it: mqtt.js resends what it
 * holds after a reconnect, but gives up on messages it was flushing when the connection closed
 * again, which a device keeping its reports does not.
 */
async function publishUntilAcked(c: mqtt.MqttClient, topic: string, payload: string): Promise<void> {
  for (;;) {
    try {
      await c.publishAsync(topic, payload, { qos: 1 });
      return;
    } catch (err) {
      if (c.disconnecting) throw err;
    }
  }
}

function scenario(name: string, setUp: (lines: Line[]) => Promise<Setup>) {
  describe.skipIf(mountError !== null)(name, () => {
    let s: Setup;
    let link: MqttLink;
    let gateway: Jt808Gateway;
    let devices: DeviceWithSecret[];
    let httpDevice: DeviceWithSecret;
    let admin: string;
    let ballast: string | undefined;
    const lines: Line[] = [];
    const logged = (re: RegExp) => lines.filter((l) => re.test(l.msg));

    beforeAll(async () => {
      s = await setUp(lines);
      const app = s.app;
      admin = await login(app, 'admin', ADMIN_PASSWORD);
      devices = [];
      for (let i = 0; i <= DEVICES; i++) {
        const body = { deviceId: `DISKFULL-${process.pid}-${i}`, name: `disk full ${i}` };
        devices.push((await call<DeviceWithSecret>(app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body })).body.data!);
      }
      httpDevice = devices.pop()!;
      await call(app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: PHONE, name: 'disk full terminal', protocol: 'jt808' } });
      link = await startMqtt({ port: 0, host: '127.0.0.1', log: app.log, authenticate: app.intake.authenticate, sink: app.intake });
      gateway = await startJt808Gateway({
        port: 0,
        host: '127.0.0.1',
        log: app.log,
        intake: app.intake,
        service: jt808Service(jt808Repo(app.database.db), { nodeId: 'disk-full' }),
      });
    }, 60_000);

    afterAll(async () => {
      // The ballast goes first: a database closing on a full disk cannot write its last checkpoint.
      if (ballast) rmSync(ballast, { force: true });
      await link?.close();
      await gateway?.close();
      await s?.cleanup();
    }, 60_000);

    const httpReport = (time: Date, lang: string, payload = report(httpDevice.deviceId, time)) =>
      s.app.inject({
        method: 'POST',
        url: '/api/iot/v2/device/report',
        headers: {
          authorization: `Basic ${Buffer.from(`${httpDevice.deviceId}:${httpDevice.secret}`).toString('base64')}`,
          'content-type': 'application/json',
          language: lang,
        },
        payload,
      });
    const metric = async (name: string) => {
      const text = (await s.app.inject({ method: 'GET', url: '/metrics' })).body;
      return text.split('\n').filter((l) => l.startsWith(name));
    };

    it('refuses what it cannot store while the disk is full, says so, resumes by itself, and loses nothing acknowledged', async () => {
      const app = s.app;
      const start = Date.now() - 3_600_000;
      // A malformed report is rejected with its reason, as always.
      const bad = await httpReport(new Date(), 'en-US', JSON.stringify({ deviceId: httpDevice.deviceId, time: 'yesterday' }));
      expect(bad.statusCode).toBe(200);
      expect(bad.json().data).toMatchObject({ accepted: 0, rejected: [{ index: 0, reason: expect.stringContaining('time') }] });

      // The JT/T 808 terminal signs in while the disk has room (its registration is stored).
      const term = await Terminal.open(gateway.port, PHONE);
      term.send(MSG.register, encodeRegistration({ edition: 2013, province: 31, city: 100, manufacturer: 'ACME', model: 'GT-808', terminalId: 'T000001', plateColour: 1, plate: '沪A12345' }));
      const reg = decodeRegistrationAnswer((await term.next(MSG.registerAnswer)).body);
      expect(reg.result).toBe(0);
      term.send(MSG.authenticate, encodeAuthentication({ code: reg.authCode! }, false));
      expect((await term.answer()).result).toBe(0);
      const fix = (time: Date) =>
        encodeLocation({ latitude: 31.2304, longitude: 121.4737, altitude: 12, speedKmh: 42.5, direction: 90, positioned: true, acc: true, time });
      const before = new Date(Math.floor(start / 1000) * 1000 - 60_000);
      const okSerial = term.send(MSG.location, fix(before));
      expect(await term.answer()).toMatchObject({ serial: okSerial, result: 0 });

      // MQTT devices publishing QoS 1 all along, each report at its own device time.
      const published = new Set<string>();
      const acked = new Set<string>();
      /** Each published report's tick. */
      const seqOf = new Map<string, number>();
      const pending: Promise<unknown>[] = [];
      const clients = await Promise.all(
        devices.map((d) =>
          mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { username: d.deviceId, password: d.secret, reconnectPeriod: 200, connectTimeout: 5000, reconnectOnConnackError: true }),
        ),
      );
      for (const c of clients) c.on('error', () => undefined);
      let seq = 0;
      let publishing = true;
      const tick = () => {
        const time = new Date(start + seq++ * 1000);
        clients.forEach((c, i) => {
          const d = devices[i]!;
          const key = `${d.deviceId}|${time.toISOString()}`;
          published.add(key);
          seqOf.set(key, seq); // the tick count after this one: above seqAtFull means published after the failure was noticed
          pending.push(publishUntilAcked(c, `devices/${d.deviceId}/report`, report(d.deviceId, time)).then(() => acked.add(key)));
        });
      };
      const timer = setInterval(() => publishing && tick(), EVERY_MS);
      try {
        await expect.poll(() => acked.size, { timeout: 10_000 }).toBeGreaterThan(DEVICES * 5);
        expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
        expect(await metric('iotc_database_writable ')).toEqual(['iotc_database_writable 1']);
        // PGlite's free space is exported (PostgreSQL's disk is the database server's to watch).
        expect(await metric('iotc_database_disk_free_bytes ')).toHaveLength(s.app.database.kind === 'pglite' ? 1 : 0);

        // The disk fills to the brim; the devices keep reporting until writes fail.
        const filledAt = Date.now();
        ballast = fillWithBallast(s.fillDir);
        await expect.poll(() => app.availability.unwritable, { timeout: 30_000, interval: 50 }).toBe(true);
        const noticedMs = Date.now() - filledAt;
        // Whatever was already committing when it was noticed is acknowledged; nothing published after.
        const seqAtFull = seq;
        const refusedAtFull = app.availability.stats().refusedWhileUnwritable;

        // HTTP: 503 with Retry-After, in the caller's language; nothing stored.
        const refusedTime = new Date(start - 60_000);
        const en = await httpReport(refusedTime, 'en-US');
        expect(en.statusCode).toBe(503);
        expect(en.headers['retry-after']).toBe('10');
        expect(en.json()).toMatchObject({ isSuccess: 'N', data: null, errorcode: 'INTAKE_UNAVAILABLE' });
        expect(en.json().errormsg).toContain('cannot be stored right now');
        const zh = await httpReport(refusedTime, 'zh-CN');
        expect(zh.statusCode).toBe(503);
        expect(zh.json().errormsg).toContain('暂时无法保存上报数据');

        // JT/T 808: a location while the disk is full is not answered (the terminal sends it again).
        const fullTime = new Date(before.getTime() + 1000);
        term.send(MSG.location, fix(fullTime));

        // The devices' reports go on being refused (not acknowledged).
        await expect.poll(() => app.availability.stats().refusedWhileUnwritable, { timeout: 10_000 }).toBeGreaterThan(refusedAtFull + DEVICES * 5);
        expect([...acked].filter((k) => seqOf.get(k)! > seqAtFull)).toEqual([]);
        expect(published.size).toBeGreaterThan(acked.size);
        const ackedAtFull = acked.size;
        expect(term.has(MSG.platformAnswer)).toBe(false);

        // It says so: readiness, metrics, the platform alarm (the platform administrator's).
        const ready = await app.inject({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(503);
        expect(ready.json().checks['database-writes']).toMatchObject({ ok: false });
        expect(await metric('iotc_database_writable ')).toEqual(['iotc_database_writable 0']);
        if (s.app.database.kind === 'pglite') expect(await metric('iotc_database_disk_free_bytes ')).toEqual(['iotc_database_disk_free_bytes 0']);
        const refusedMetric = (await metric('iotc_intake_refused_unavailable_total{reason="storage"}'))[0];
        expect(Number(refusedMetric?.split(' ')[1])).toBeGreaterThan(0);
        const alarms = await call<PlatformAlarm[]>(app, { method: 'GET', url: PLATFORM_ALARMS_API.list, token: admin });
        expect(alarms.status).toBe(200);
        expect(alarms.body.data).toEqual([expect.objectContaining({ code: 'DATABASE_NOT_WRITABLE', status: 'active', titleZh: expect.stringContaining('数据库无法写入') })]);
        expect(logged(/^database cannot write/)).toHaveLength(1);

        // Space is back: the intake resumes by itself.
        rmSync(ballast);
        ballast = undefined;
        const freedAt = Date.now();
        await expect.poll(() => logged(/^database writes again after/).length, { timeout: 20_000, interval: 50 }).toBe(1);
        const resumedMs = Date.now() - freedAt;
        await expect.poll(() => acked.size, { timeout: 10_000 }).toBeGreaterThan(ackedAtFull + DEVICES * 3);
        publishing = false;
        clearInterval(timer);
        // Every published report is acknowledged in the end (the devices resend what was refused).
        await Promise.race([
          Promise.all(pending),
          new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${acked.size} of ${published.size} reports acknowledged`)), 30_000).unref()),
        ]);
        await Promise.all(clients.map((c) => c.endAsync()));
        // The refused HTTP report and JT/T 808 location, sent again, are taken and answered.
        const again = await httpReport(refusedTime, 'en-US');
        expect(again.statusCode).toBe(200);
        expect(again.json().data).toMatchObject({ accepted: 1 });
        expect(term.has(MSG.platformAnswer)).toBe(false); // the location of the full disk was never answered
        const resent = term.send(MSG.location, fix(fullTime));
        expect(await term.answer()).toMatchObject({ serial: resent, result: 0 });
        const fresh = await httpReport(new Date(start - 30_000), 'en-US');
        expect(fresh.json().data).toMatchObject({ accepted: 1 });
        term.end();

        // Nothing acknowledged is missing; everything published is there once.
        const stored = await s.stored();
        expect(new Set(stored).size).toBe(stored.length);
        const mqttStored = stored.filter((k) => k.startsWith(`DISKFULL-${process.pid}-`) && !k.startsWith(`${httpDevice.deviceId}|`));
        expect(new Set(mqttStored)).toEqual(published);
        expect(stored).toContain(`${httpDevice.deviceId}|${refusedTime.toISOString()}`);
        expect(stored).toContain(`${PHONE}|${before.toISOString()}`);
        expect(stored).toContain(`${PHONE}|${fullTime.toISOString()}`);

        // Back to normal: one line when it began and one when it ended, with what was refused.
        const back = logged(/^database writes again after/)[0]!;
        const stats = app.availability.stats();
        expect(stats).toMatchObject({ unwritable: false, writeFailures: 1 });
        expect(back.refused).toBe(stats.refusedWhileUnwritable);
        expect(logged(/^database cannot write/)).toHaveLength(1);
        expect(logged(/MQTT report failed|reports could not be stored|a reading the database refused/)).toEqual([]);
        // Nothing failed loudly meanwhile: no error lines (the one warning said it all).
        expect(lines.filter((l) => l.level >= 50)).toEqual([]);
        expect(lines.filter((l) => l.level === 40 && !/^database cannot write|readiness check failed/.test(l.msg))).toEqual([]);
        expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
        expect(await metric('iotc_database_writable ')).toEqual(['iotc_database_writable 1']);
        const after = await call<PlatformAlarm[]>(app, { method: 'GET', url: PLATFORM_ALARMS_API.list, token: admin });
        expect(after.body.data).toEqual([expect.objectContaining({ code: 'DATABASE_NOT_WRITABLE', status: 'cleared' })]);
        console.log(
          `${name}: writes failing noticed ${noticedMs} ms after the disk filled, resumed ${resumedMs} ms after space was back; ` +
            `${published.size} MQTT reports published, ${stats.refusedWhileUnwritable} reports refused meanwhile (then resent), all stored once; cause: ${JSON.stringify(logged(/^database cannot write/)[0]?.err)}`,
        );
      } finally {
        publishing = false;
        clearInterval(timer);
        for (const c of clients) c.end(true);
      }
    }, 90_000);
  });
}

describe.skipIf(mountError !== null)("PGlite's own errors on a full disk", () => {
  it('an insert needing a new page fails with 53100, told apart from a bad value, and works again once space is back', async () => {
    const mount = mountTmpfs('64m') as { dir: string; unmount: () => void };
    let ballast: string | undefined;
    const db = await PGlite.create(join(mount.dir, 'pg'));
    try {
      await db.exec('create table t (id serial primary key, v text, n smallint)');
      ballast = fillWithBallast(mount.dir);
      const failure = async (text: string) => {
        try {
          // Enough rows to need pages the table does not have yet.
          for (let i = 0; i < 200; i++) await db.query(text);
        } catch (err) {
          return err;
        }
        return null;
      };
      const full = await failure("insert into t (v) select repeat('y', 500) from generate_series(1, 100)");
      expect(notWritableCause(full)).toMatchObject({ code: '53100', message: expect.stringContaining('No space left on device') });
      // A value the column cannot hold is that report's own fault, not a full disk.
      expect(notWritableCause(await failure('insert into t (n) values (100000)'))).toBeNull();
      rmSync(ballast);
      ballast = undefined;
      await db.query("insert into t (v) select repeat('z', 500) from generate_series(1, 100)");
    } finally {
      if (ballast) rmSync(ballast, { force: true });
      // Closed with room to spare: its closing checkpoint must be able to write.
      await db.close();
      mount.unmount();
    }
  }, 30_000);
});

const config = () =>
  loadConfig({ LOG_LEVEL: 'info', ADMIN_PASSWORD, DEMO_PASSWORD, SEED_DEMO: 'false', INTAKE_DEVICE_RATE: '1000', INTAKE_DEVICE_BURST: '100000' });
const logStream = (lines: Line[]) => ({ write: (s: string) => void lines.push(JSON.parse(s) as Line) });
const STORED = sql`select coalesce(d.device_id, '') || '|' || to_char(t.time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as k
  from telemetry t join devices d on d.id = t.device_ref where d.device_id like 'DISKFULL-%' or d.device_id like '0139%'`;

scenario('a full disk under PGlite (data directory on a small tmpfs)', async (lines) => {
  // PGlite's files take some 60 MB; the rest is the reserve it is kept from (64 MB) and a margin.
  const mount = mountTmpfs('192m') as { dir: string; unmount: () => void };
  try {
    const app = await buildApp({ ...config(), dataDir: join(mount.dir, 'data'), mqtt: false }, { logStream: logStream(lines) });
    return {
      app,
      fillDir: mount.dir,
      stored: async () => rowsOf<{ k: string }>(await app.database.db.execute(STORED)).map((r) => r.k),
      cleanup: async () => {
        await app.close();
        mount.unmount();
      },
    };
  } catch (err) {
    mount.unmount();
    throw err;
  }
});

const base = process.env.DATABASE_URL;
describe.skipIf(!base)('PostgreSQL', () => {
  scenario('a full disk under PostgreSQL (the database in a tablespace on a small tmpfs)', async (lines) => {
    const mount = mountTmpfs('48m') as { dir: string; unmount: () => void };
    const tsDir = join(mount.dir, 'ts');
    mkdirSync(tsDir);
    const { uid, gid } = { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
    chownSync(tsDir, uid, gid);
    const suffix = `${process.pid}_${Date.now().toString(36)}`;
    const space = `iotc_full_${suffix}`;
    const name = `iotc_t_full_${suffix}`;
    const adminQuery = async (text: string) => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(text);
      } finally {
        await c.end();
      }
    };
    const dropAll = async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await adminQuery(`DROP TABLESPACE IF EXISTS ${space}`).catch(() => undefined);
      mount.unmount();
    };
    try {
      await adminQuery(`CREATE TABLESPACE ${space} LOCATION '${tsDir}'`);
      await adminQuery(`CREATE DATABASE ${name} TABLESPACE ${space}`);
      const url = new URL(base!);
      url.pathname = `/${name}`;
      const app = await buildApp({ ...config(), dataDir: '', databaseUrl: url.toString(), mqtt: false }, { logStream: logStream(lines) });
      return {
        app,
        fillDir: mount.dir,
        stored: async () => rowsOf<{ k: string }>(await app.database.db.execute(STORED)).map((r) => r.k),
        cleanup: async () => {
          await app.close();
          await dropAll();
        },
      };
    } catch (err) {
      await dropAll();
      throw err;
    }
  });
});

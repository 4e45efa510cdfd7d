// The readings archive's job (job.ts) and the one reader (reader.ts, fixes.ts): the job packs
// each closed day once, never today, every reading of it; a read gives the same readings and
// fixes from packs as from the rows, with the rows gone too; a reading stored late for a packed
// day marks its pack stale at once (a read in between merges the day's rows in) and the next run
// packs the day again with it, also once the day's rows are gone; two runs at once pack once;
// deleting a device deletes its packs; the track summary finds the same trips and stops.
// On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { TrackSummary } from '@iotc/shared/track';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { rowsOf } from '../../db/client.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { archiveTick, removePackedRows } from './job.ts';
import { countReadings, readPackRows, readRows, readReadings } from './reader.ts';
import { fixesOf, readFixes } from './fixes.ts';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('the readings archive', () => {
  let t: TestApp;
  let token: string;
  let orgId: string;
  let dev: DeviceWithSecret;
  // Three whole past days and today, at one reading a minute: parked, a 40-minute drive east, parked.
  const today = Math.floor(Date.now() / DAY) * DAY;
  const first = today - 3 * DAY;

  /** A day of readings: parked until 08:00, driving east at 60 km/h for 40 minutes, parked; one without a fix at 12:00, one LBS at 13:00. */
  function dayOf(day: number, lonAt = 121.5) {
    const out: { time: string; lat: number | null; lon: number | null; positioning: string; speed: number | null; temp: number }[] = [];
    for (let m = 0; m < 1440; m++) {
      const tm = day + m * 60_000;
      if (tm >= Date.now() - 120_000) break;
      const driving = m >= 480 && m < 520;
      const lon = lonAt + (m < 480 ? 0 : Math.min(40, m - 480) * 1000 * (1 / (111_195 * Math.cos((31 * Math.PI) / 180))));
      out.push({ time: iso(tm), lat: m === 720 ? null : 31, lon: m === 720 ? null : lon, positioning: m === 780 ? 'LBS' : 'GPS', speed: driving ? 60 : m % 2 ? 0 : null, temp: 4 + (m % 30) / 10 });
    }
    return out;
  }

  async function insert(rows: ReturnType<typeof dayOf>) {
    await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
      select ${orgId}::uuid, ${dev.id}::uuid, time, lat, lon, positioning, speed,
        jsonb_build_object('3', jsonb_build_object('temp', round(temp * 10)), 'note', 'a "quoted" é'), jsonb_build_object('temperature', temp)
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(time timestamptz, lat float8, lon float8, positioning text, speed float8, temp float8)`);
  }

  const db = () => t.app.database.db;
  const packs = async () =>
    rowsOf<{ day: string; readings: number; stale: boolean }>(await db().execute(sql`select to_char(day, 'YYYY-MM-DD') as day, readings, stale from reading_days where device_ref = ${dev.id} order by day`));
  const rowCount = async () => Number(rowsOf<{ n: string }>(await db().execute(sql`select count(*) as n from telemetry where device_ref = ${dev.id}`))[0]!.n);
  const untilCaughtUp = async () => {
    let r = await archiveTick(db());
    while (!r.caughtUp) r = await archiveTick(db());
    return r;
  };

  beforeAll(async () => {
    t = await testApp();
    const [demo] = rowsOf<{ id: string }>(await t.app.database.db.execute(sql`select id from orgs where code = 'demo'`));
    await addOrgUser(t.app.database.db, { orgId: demo!.id, account: 'archive-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
    token = await login(t.app, 'archive-admin', DEMO_PASSWORD);
    const res = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token, body: { deviceId: 'ARCH-1', name: 'archive test' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    dev = res.body.data!;
    orgId = rowsOf<{ org_id: string }>(await t.app.database.db.execute(sql`select org_id from devices where id = ${dev.id}`))[0]!.org_id;
    for (let d = first; d <= today; d += DAY) await insert(dayOf(d, 121.5 + (d - first) / DAY));
    // Received a while ago: readings received within OVERLAP_MS before a run are packed again by
    // the next one (one committing late may have been missed), which is not what is tested here.
    await t.app.database.db.execute(sql`update telemetry set received_at = received_at - interval '10 minutes'`);
  });
  afterAll(async () => t?.close());

  it('packs each closed day once, not today, and reads the same readings and fixes from packs as from the rows', async () => {
    const from = first + 6 * 3600_000;
    const to = Date.now();
    const range = { from, to };
    const rows = await readRows(db(), dev.id, range, { raw: true });
    const fromRows = fixesOf(rows);
    const readingsBefore = await readReadings(db(), dev.id, range, { raw: true });
    const r = await archiveTick(db());
    expect(r.ran).toBe(true);
    await untilCaughtUp();
    const mine = await packs();
    expect(mine.map((p) => p.day)).toEqual([0, 1, 2].map((k) => iso(first + k * DAY).slice(0, 10)));
    // Every reading of a day, the one without a fix included.
    expect(mine.every((p) => p.readings === 1440 && !p.stale)).toBe(true);
    expect((await archiveTick(db())).packed).toBe(0);

    // The rows of the packed days go: the packs alone answer for them.
    expect(await removePackedRows(db(), dev.id, iso(today).slice(0, 10))).toBe(3 * 1440);
    expect(await rowCount()).toBe(rows.length + 6 * 60 - 3 * 1440);

    const read = await readFixes(db(), dev.id, from, to);
    // The first day is partial (from 06:00) and the two whole days come from their packs; today: rows.
    expect(read.packedDays).toBe(3);
    expect([...read.fixes.t]).toEqual([...fromRows.t]);
    expect([...read.fixes.lat]).toEqual([...fromRows.lat]);
    expect([...read.fixes.lon]).toEqual([...fromRows.lon]);
    expect([...read.fixes.lbs]).toEqual([...fromRows.lbs]);
    expect(read.fixes.speed.map((v) => (Number.isNaN(v) ? -1 : v)).join()).toBe(fromRows.speed.map((v) => (Number.isNaN(v) ? -1 : v)).join());

    // Every column, the raw report byte for byte.
    expect(await readPackRows(db(), dev.id, range, { raw: true })).toEqual(rows);
    expect(await readReadings(db(), dev.id, range, { raw: true })).toEqual(readingsBefore);
    expect(await countReadings(db(), dev.id, range)).toBe(rows.length);
    // Pages in either order, across packs and rows.
    const newest = await readPackRows(db(), dev.id, range, { desc: true, offset: 1500, limit: 700, raw: true });
    const want = [...rows].reverse().slice(1500, 2200);
    expect(newest.map((p) => p.timeUs)).toEqual(want.map((p) => p.timeUs));
    expect(newest).toEqual(want);
    const inclusive = await readPackRows(db(), dev.id, { from: first + DAY, to: first + 2 * DAY, toInclusive: true }, { sensors: false });
    expect(inclusive).toHaveLength(1441);
  });

  it('marks a pack stale when a reading of its day arrives late, merges it in reads, and packs the day again with it', async () => {
    const day = first + DAY;
    const late = day + 12 * 3600_000 + 30_000;
    await t.app.readings.submit([{ orgId, deviceRef: dev.id, time: new Date(late), lat: 31.001, lon: 122.6, positioning: 'GPS', speed: 0, raw: { late: true }, sensors: { temperature: 9.5 }, acc: null }]);
    // Stale at once with the reading's transaction: a read in between merges the day's rows in.
    expect((await packs()).find((p) => p.day === iso(day).slice(0, 10))?.stale).toBe(true);
    const between = await readFixes(db(), dev.id, day, day + DAY);
    expect([...between.fixes.t]).toContain(late);
    expect(await countReadings(db(), dev.id, { from: day, to: day + DAY })).toBe(1441);
    const r = await archiveTick(db());
    expect(r.packed).toBe(1);
    const again = (await packs()).find((p) => p.day === iso(day).slice(0, 10))!;
    expect(again).toMatchObject({ readings: 1441, stale: false });
    // Its row goes as the others did, and the pack still has it.
    await db().execute(sql`update reading_days set packed_at = now() where device_ref = ${dev.id}`);
    expect(await removePackedRows(db(), dev.id, iso(today).slice(0, 10))).toBe(1);
    const after = await readReadings(db(), dev.id, { from: day, to: day + DAY }, { raw: true });
    expect(after).toHaveLength(1441);
    expect(after.find((x) => x.time.getTime() === late)).toMatchObject({ lat: 31.001, raw: { late: true }, sensors: { temperature: 9.5 } });
  });

  it('keeps the first reading of a time when a repeat arrives after the rows are gone', async () => {
    const day = first + DAY;
    const at = day + 3600_000;
    const [before] = await readReadings(db(), dev.id, { from: at, to: at + 1 });
    await t.app.readings.submit([{ orgId, deviceRef: dev.id, time: new Date(at), lat: 1, lon: 1, positioning: 'GPS', speed: 99, raw: {}, sensors: {}, acc: null }]);
    const [between] = await readReadings(db(), dev.id, { from: at, to: at + 1 });
    expect(between).toEqual(before);
    await untilCaughtUp();
    expect(await readReadings(db(), dev.id, { from: at, to: at + 1 })).toEqual([before]);
    expect((await packs()).find((p) => p.day === iso(day).slice(0, 10))).toMatchObject({ readings: 1441, stale: false });
  });

  it('runs on one node at a time', async () => {
    await db().execute(sql`update reading_archive_state set closed_through = ${iso(first).slice(0, 10)}::date`);
    await db().execute(sql`update reading_days set stale = true where device_ref = ${dev.id}`);
    const [a, b] = await Promise.all([archiveTick(db()), archiveTick(db())]);
    expect([a.ran, b.ran].filter(Boolean)).toHaveLength(1);
    expect((await packs()).filter((p) => !p.stale)).toHaveLength(3);
  });

  it('gives the summary the same trips and stops from the packs as from the rows', async () => {
    const q = `deviceId=${dev.id}&from=${iso(first)}&to=${iso(today)}`;
    const packed = await call<TrackSummary>(t.app, { method: 'GET', url: `/api/iot/v2/tracks/summary?${q}`, token });
    expect(packed.status).toBe(200);
    expect(packed.body.data!.trips).toHaveLength(3);
    // The same readings as rows only: unpacked into the table again, the packs gone.
    const all = await readPackRows(db(), dev.id, { from: first, to: today }, { raw: true });
    await db().execute(sql`delete from reading_days where device_ref = ${dev.id}`);
    // (A repeated reading's row, which the packs outvoted, goes too.)
    await db().execute(sql`delete from telemetry where device_ref = ${dev.id} and time < ${iso(today)}::timestamptz`);
    await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, positioning, network, speed, course, raw, sensors)
      select org_id, ${dev.id}::uuid, timestamptz 'epoch' + t_us * interval '1 microsecond', timestamptz 'epoch' + r_us * interval '1 microsecond', lat, lon, positioning, network, speed, course, raw::jsonb, sensors::jsonb
      from jsonb_to_recordset(${JSON.stringify(all.map((p) => ({ ...p, org_id: p.orgId, t_us: p.timeUs, r_us: p.receivedUs })))}::jsonb)
        as x(org_id uuid, t_us int8, r_us int8, lat float8, lon float8, positioning text, network text, speed float8, course float8, raw text, sensors text)
      on conflict do nothing`);
    expect(await readPackRows(db(), dev.id, { from: first, to: today }, { raw: true })).toEqual(all);
    const rows = await call<TrackSummary>(t.app, { method: 'GET', url: `/api/iot/v2/tracks/summary?${q}`, token });
    expect(packed.body.data!.trips).toEqual(rows.body.data!.trips);
    expect(packed.body.data!.stops).toEqual(rows.body.data!.stops);
    expect(packed.body.data!.stats).toEqual(rows.body.data!.stats);
  });

  it('deletes the packs with the device', async () => {
    await db().execute(sql`update reading_archive_state set closed_through = ${iso(first).slice(0, 10)}::date`);
    await untilCaughtUp();
    expect((await packs()).length).toBe(3);
    const res = await call(t.app, { method: 'DELETE', url: `/api/iot/v2/devices/${dev.id}`, token });
    expect(res.status).toBe(200);
    expect(await packs()).toHaveLength(0);
  });
});

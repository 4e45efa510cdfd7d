// The position archive (archive.ts): packs round-trip exactly; the job packs each closed day once,
// never today; a read of a range gives the same fixes from packs as from the rows; a reading
// stored late for a packed day drops that pack at once and the next run packs it again with the
// reading; two runs at once pack once; deleting a device deletes its packs; and the summary of a
// range of packed days through the API finds the same trips and stops as from the rows (an
// out-of-range position left out both ways).
// On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { TrackSummary } from '@iotc/shared/track';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { rowsOf } from '../../db/client.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { archiveTick, decodePack, encodePack, packLength, readFixRows, readFixes, type Fixes } from './archive.ts';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('packs', () => {
  it('round-trip every column exactly, NaN speeds and LBS flags included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ t: fc.integer({ min: 0, max: 4e12 }), lat: fc.double({ min: -90, max: 90, noNaN: true }), lon: fc.double({ min: -180, max: 180, noNaN: true }), speed: fc.option(fc.double({ min: 0, max: 300, noNaN: true })), lbs: fc.boolean() }), { maxLength: 200 }),
        (pts) => {
          const f: Fixes = {
            t: Float64Array.from(pts, (p) => p.t),
            lat: Float64Array.from(pts, (p) => p.lat),
            lon: Float64Array.from(pts, (p) => p.lon),
            speed: Float64Array.from(pts, (p) => (p.speed === null ? Number.NaN : p.speed)),
            lbs: Uint8Array.from(pts, (p) => (p.lbs ? 1 : 0)),
          };
          const bytes = encodePack(f);
          expect(packLength(bytes)).toBe(pts.length);
          // Decoded at an offset into larger columns, as a read of several days does.
          const into: Fixes = { t: new Float64Array(pts.length + 3), lat: new Float64Array(pts.length + 3), lon: new Float64Array(pts.length + 3), speed: new Float64Array(pts.length + 3), lbs: new Uint8Array(pts.length + 3) };
          expect(decodePack(bytes, into, 3)).toBe(pts.length);
          expect([...into.t.subarray(3)]).toEqual([...f.t]);
          expect([...into.lat.subarray(3)]).toEqual([...f.lat]);
          expect([...into.lon.subarray(3)]).toEqual([...f.lon]);
          expect([...into.speed.subarray(3)]).toEqual([...f.speed]);
          expect([...into.lbs.subarray(3)]).toEqual([...f.lbs]);
        },
      ),
    );
  });
});

describe('the archive', () => {
  let t: TestApp;
  let token: string;
  let orgId: string;
  let dev: DeviceWithSecret;
  // Three whole past days and today, at one reading a minute: parked, a 40-minute drive east, parked.
  const today = Math.floor(Date.now() / DAY) * DAY;
  const first = today - 3 * DAY;

  /** A day of readings: parked until 08:00, driving east at 60 km/h for 40 minutes, parked; one without a fix at 12:00, one LBS at 13:00. */
  function dayOf(day: number, lonAt = 121.5) {
    const out: { time: string; lat: number | null; lon: number | null; positioning: string; speed: number | null }[] = [];
    for (let m = 0; m < 1440; m++) {
      const tm = day + m * 60_000;
      if (tm >= Date.now() - 120_000) break;
      const driving = m >= 480 && m < 520;
      const lon = lonAt + (m < 480 ? 0 : Math.min(40, m - 480) * 1000 * (1 / (111_195 * Math.cos((31 * Math.PI) / 180))));
      out.push({ time: iso(tm), lat: m === 720 ? null : 31, lon: m === 720 ? null : lon, positioning: m === 780 ? 'LBS' : 'GPS', speed: driving ? 60 : m % 2 ? 0 : null });
    }
    return out;
  }

  async function insert(rows: ReturnType<typeof dayOf>) {
    await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
      select ${orgId}::uuid, ${dev.id}::uuid, time, lat, lon, positioning, speed, '{}'::jsonb, '{}'::jsonb
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(time timestamptz, lat float8, lon float8, positioning text, speed float8)`);
  }

  const packs = async () =>
    rowsOf<{ day: string; points: number }>(await t.app.database.db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, points from track_days where device_ref = ${dev.id} order by day`));

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

  it('packs each closed day once, not today, and reads the same fixes from packs as from the rows', async () => {
    const from = first + 6 * 3600_000;
    const to = Date.now();
    const fromRows = await readFixRows(t.app.database.db, dev.id, from, to);
    // Runs until caught up (the seeded demo devices have days too).
    let r = await archiveTick(t.app.database.db);
    expect(r.ran).toBe(true);
    while (!r.caughtUp) r = await archiveTick(t.app.database.db);
    const mine = await packs();
    expect(mine.map((p) => p.day)).toEqual([0, 1, 2].map((k) => iso(first + k * DAY).slice(0, 10)));
    // 1,440 readings a day, one without a fix.
    expect(mine.every((p) => p.points === 1439)).toBe(true);
    const again = await archiveTick(t.app.database.db);
    expect(again.packed).toBe(0);

    const read = await readFixes(t.app.database.db, dev.id, from, to);
    // The first day is partial (from 06:00): rows; the next two whole days: packs; today: rows.
    expect(read.packedDays).toBe(2);
    expect(read.fixes.t.length).toBe(fromRows.t.length);
    expect([...read.fixes.t]).toEqual([...fromRows.t]);
    expect([...read.fixes.lat]).toEqual([...fromRows.lat]);
    expect([...read.fixes.lon]).toEqual([...fromRows.lon]);
    expect([...read.fixes.lbs]).toEqual([...fromRows.lbs]);
    expect(read.fixes.speed.map((v) => (Number.isNaN(v) ? -1 : v)).join()).toBe(fromRows.speed.map((v) => (Number.isNaN(v) ? -1 : v)).join());
  });

  it('drops a pack when a reading of its day arrives late, and packs the day again with it', async () => {
    const day = first + DAY;
    const late = day + 12 * 3600_000 + 30_000;
    await t.app.readings.submit([{ orgId, deviceRef: dev.id, time: new Date(late), lat: 31.001, lon: 122.6, positioning: 'GPS', speed: 0, raw: {}, sensors: {}, acc: null }]);
    // Gone at once with the reading's transaction: a read in between takes the rows, with it.
    expect((await packs()).map((p) => p.day)).not.toContain(iso(day).slice(0, 10));
    const between = await readFixes(t.app.database.db, dev.id, day, day + DAY);
    expect(between.packedDays).toBe(0);
    expect([...between.fixes.t]).toContain(late);
    const r = await archiveTick(t.app.database.db);
    expect(r.packed).toBe(1);
    expect((await packs()).find((p) => p.day === iso(day).slice(0, 10))?.points).toBe(1440);
    const after = await readFixes(t.app.database.db, dev.id, day, day + DAY);
    expect(after.packedDays).toBe(1);
    expect([...after.fixes.t]).toContain(late);
  });

  it('runs on one node at a time', async () => {
    await t.app.database.db.execute(sql`delete from track_days where device_ref = ${dev.id}`);
    await t.app.database.db.execute(sql`update track_archive_state set closed_through = ${iso(first).slice(0, 10)}::date`);
    await t.app.database.db.execute(sql`update telemetry set received_at = received_at - interval '10 minutes' where device_ref = ${dev.id} and received_at > now() - interval '5 minutes'`);
    const [a, b] = await Promise.all([archiveTick(t.app.database.db), archiveTick(t.app.database.db)]);
    expect([a.ran, b.ran].filter(Boolean)).toHaveLength(1);
    expect((await packs()).length).toBe(3);
    expect((a.ran ? a : b).packed).toBe(3);
  });

  it('gives the summary the same trips and stops from the packs as from the rows', async () => {
    const q = `deviceId=${dev.id}&from=${iso(first)}&to=${iso(today)}`;
    // A position out of range in a packed day: left out of the pack, and of the rows read in its place.
    await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
      values (${orgId}, ${dev.id}, ${iso(first + DAY + 15 * 3600_000 + 30_000)}::timestamptz, 95, 121.5, 'GPS', 0, '{}'::jsonb, '{}'::jsonb)`);
    const packed = await call<TrackSummary>(t.app, { method: 'GET', url: `/api/iot/v2/tracks/summary?${q}`, token });
    expect(packed.status).toBe(200);
    await t.app.database.db.execute(sql`delete from track_days where device_ref = ${dev.id}`);
    const rows = await call<TrackSummary>(t.app, { method: 'GET', url: `/api/iot/v2/tracks/summary?${q}`, token });
    expect(packed.body.data!.trips).toHaveLength(3);
    expect(packed.body.data!.trips).toEqual(rows.body.data!.trips);
    expect(packed.body.data!.stops).toEqual(rows.body.data!.stops);
    expect(packed.body.data!.stats).toEqual(rows.body.data!.stats);
  });

  it('deletes the packs with the device', async () => {
    await archiveTick(t.app.database.db);
    await t.app.database.db.execute(sql`update track_archive_state set closed_through = ${iso(first).slice(0, 10)}::date`);
    await archiveTick(t.app.database.db);
    expect((await packs()).length).toBe(3);
    const res = await call(t.app, { method: 'DELETE', url: `/api/iot/v2/devices/${dev.id}`, token });
    expect(res.status).toBe(200);
    expect(await packs()).toHaveLength(0);
  });
});

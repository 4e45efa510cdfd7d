// Retention by whole months (issue 24, item 2's promise kept by item 3): a closed month whose
// every row may go by the rows rule, each held by a fresh pack, loses its partition in one drop
// (not row by row), with a 'rows' removal per device and every reading still read from the packs;
// a month with an unpacked day, or a held device's rows, keeps its partition (the rows that may go
// are deleted one device at a time as before). On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { addMonths, createMonth, listPartitions, monthOf } from '../../db/partitions.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { packDay } from '../archive/job.ts';
import { countReadings } from '../archive/reader.ts';
import { retentionTick } from './job.ts';

const DAY = 86_400_000;

describe('retention by whole months', () => {
  let t: TestApp;
  let demoId: string;
  const dev = { A: '', B: '', H: '' };
  const db = () => t.app.database.db;
  const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await db().execute(q))[0]!;
  // Three closed months, five to three months back.
  const month = (k: number) => addMonths(monthOf(new Date()), -k);
  const dayIn = (m: string, d: number) => `${m}-${String(d).padStart(2, '0')}`;
  const months = () => listPartitions(db()).then((ps) => ps.map((p) => p.month));
  const rows = async (ref: string) => Number((await one<{ n: string }>(sql`select count(*) as n from telemetry where device_ref = ${ref}`)).n);

  async function device(code: string): Promise<string> {
    return (await one<{ id: string }>(sql`insert into devices (org_id, device_id, name, secret_hash) values (${demoId}, ${code}, ${code}, 'x') returning id`)).id;
  }
  /** 24 hourly readings on the day, received a minute after each; the day packed unless told not to. */
  async function day(ref: string, d: string, pack = true) {
    await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, positioning, raw, sensors)
      select ${demoId}::uuid, ${ref}::uuid, x, x + interval '1 minute', 31, 121.5, 'GPS', '{"3":{"temp":45}}'::jsonb, '{"temperature":4.5}'::jsonb
      from generate_series(${d}::timestamptz, ${d}::timestamptz + interval '23 hours', interval '1 hour') as x`);
    if (pack) await packDay(db(), ref, d, new Date());
  }

  beforeAll(async () => {
    t = await testApp();
    demoId = (await one<{ id: string }>(sql`select id from orgs where code = 'demo'`)).id;
    for (const k of [5, 4, 3]) await createMonth(db(), month(k));
    dev.A = await device('MON-A');
    dev.B = await device('MON-B');
    dev.H = await device('MON-H');
    // Month 5: A and B, every day packed. Month 4: A packed, B with a day not packed. Month 3: H (held) packed, A packed.
    for (const ref of [dev.A, dev.B]) for (const d of [3, 17]) await day(ref, dayIn(month(5), d));
    await day(dev.A, dayIn(month(4), 9));
    await day(dev.B, dayIn(month(4), 10), false);
    await day(dev.A, dayIn(month(3), 2));
    await day(dev.H, dayIn(month(3), 2));
    await db().execute(sql`insert into legal_holds (org_id, subject_kind, subject_id, reason) values (${demoId}, 'device', ${dev.H}, 'audit 2026-3')`);
    // Rows kept 30 days, packs forever: every row of these months may go once packed.
    await db().execute(sql`insert into retention_rules (org_id, rows_inherit, rows_days, packs_inherit, packs_days) values (${demoId}, false, 30, false, null)
      on conflict (org_id) do update set rows_inherit = false, rows_days = 30, packs_inherit = false, packs_days = null`);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('drops a month whose every row a fresh pack holds; keeps the partitions of a month with an unpacked day or a held device', async () => {
    const before = { A: await countReadings(db(), dev.A, { from: Date.parse(`${month(5)}-01`), to: Date.now() }) };
    expect(before.A).toBe(24 * 4);
    const audits: string[] = [];
    const ran = await retentionTick(db(), { audit: async (_q, e) => void audits.push(`${e.orgId} ${e.action}: ${e.detail}`) });

    const left = await months();
    expect(left).not.toContain(month(5));
    expect(left).toContain(month(4));
    expect(left).toContain(month(3));
    // Month 5's rows went with its partition, one 'rows' removal per device saying so.
    const removals = rowsOf<{ device_ref: string; what: string; readings: string; policy: string; from_time: Date | string }>(
      await db().execute(sql`select device_ref, what, readings::text, policy, from_time from retention_removals order by device_ref, from_time`),
    );
    const of = (ref: string) => removals.filter((r) => r.device_ref === ref).map((r) => [r.what, Number(r.readings), new Date(r.from_time).toISOString().slice(0, 10)]);
    expect(of(dev.B)).toEqual([['rows', 48, dayIn(month(5), 3)]]);
    // A: month 5 by the drop; months 4 and 3 row by row (their partitions stay for B's and H's rows).
    expect(of(dev.A)).toEqual([
      ['rows', 48, dayIn(month(5), 3)],
      ['rows', 48, dayIn(month(4), 9)],
    ]);
    expect(of(dev.H)).toEqual([]);
    expect(removals.every((r) => r.policy === removals[0]!.policy && /^rows kept 30 days/.test(r.policy))).toBe(true);
    expect(ran.rowsRemoved).toBe(48 + 48 + 48);
    expect(audits.join('\n')).toContain('rows of 2 device(s), 144 readings');

    // Nothing lost: A's readings come from the packs; B's unpacked day and H's held day are still rows.
    expect(await rows(dev.A)).toBe(0);
    expect(await countReadings(db(), dev.A, { from: Date.parse(`${month(5)}-01`), to: Date.now() })).toBe(before.A);
    expect(await rows(dev.B)).toBe(24);
    expect(await rows(dev.H)).toBe(24);

    // Once B's day is packed and H's hold released, the next run drops month 4 and month 3 whole.
    await packDay(db(), dev.B, dayIn(month(4), 10), new Date());
    await db().execute(sql`update legal_holds set released_at = now() where subject_id = ${dev.H}`);
    await retentionTick(db(), { audit: async () => undefined });
    const after = await months();
    expect(after).not.toContain(month(4));
    expect(after).not.toContain(month(3));
    expect(after).toContain(monthOf(new Date()));
    for (const ref of [dev.A, dev.B, dev.H]) expect(await rows(ref)).toBe(0);
    expect(await countReadings(db(), dev.B, { from: Date.parse(`${month(5)}-01`), to: Date.now() })).toBe(24 * 3);
    expect(await countReadings(db(), dev.H, { from: Date.parse(`${month(5)}-01`), to: Date.now() - 40 * DAY })).toBe(24);
  });
});

// Readings removed by retention, as the ledger proves them (issue 24): a removal of packs written
// to retention_removals is logged once as its own leaf (retention.removal) and its row gets the
// leaf's index; the records call then gives each sensor minute of that device inside the
// removal's span the logged removal with its proof, and the shared verifier (the one the
// browser, the certificate and the command-line verifier use) answers "removed under policy X
// on date Y" for a minute whose readings are gone, not "changed". A minute outside the span whose
// readings are gone, or one inside it whose readings were edited in place, still fails; the
// command-line verifier passes the removed minutes and names the edited one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { RecordsAnswer } from '@iotc/shared/ledger/api';
import { fromBase64 } from '@iotc/shared/ledger/bytes';
import { decodeLeaf } from '@iotc/shared/ledger/leaf';
import { rowsOf } from '../../db/client.ts';
import { orgs } from '../../db/schema.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { packDay } from '../archive/job.ts';
import { retentionTick } from '../retention/job.ts';
import { verifyLedger } from './cli.ts';
import { verifyRecords } from './verify.ts';

let t: TestApp;
let dataDir: string;
let admin: string;
let demoOrg: string;
let device: DeviceWithSecret & { id: string };
let base: number;
const POLICY = 'Packs kept 365 days (Demo Org)';

const db = () => t.app.database.db;
const iso = (ms: number) => new Date(ms).toISOString();

async function insertReadings(minuteStart: number, temps: number[]) {
  for (const [i, temp] of temps.entries()) {
    const at = minuteStart + 5_000 + i * 10_000;
    await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, speed, raw, sensors)
      values (${demoOrg}, ${device.id}, ${iso(at - 2_000)}::timestamptz, ${iso(at)}::timestamptz, 31.2, 121.5, 40, '{}'::jsonb, ${JSON.stringify({ temperature: temp })}::jsonb)`);
  }
}

async function tickUntilQuiet() {
  while ((await t.app.ledger.tick()) > 0);
}

async function records(): Promise<RecordsAnswer> {
  const res = await call<RecordsAnswer>(t.app, {
    method: 'GET',
    url: `/api/iot/v2/ledger/records?deviceId=${device.id}&from=${encodeURIComponent(iso(base - 60_000))}&to=${encodeURIComponent(iso(Date.now() + 3_600_000))}`,
    token: admin,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

/** Each record's kind and minute (or removal) with its verdict. */
async function verdicts() {
  const answer = await records();
  const v = await verifyRecords(answer);
  return answer.items.map((item, i) => {
    const r = item.record;
    return { what: r.kind === 'sensor.minute' ? r.minute : r.kind, reason: v[i]!.reason, removal: v[i]!.removal };
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ledger-retention-'));
  t = await testApp({ dataDir });
  demoOrg = (await db().select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db(), { orgId: demoOrg, account: 'rt-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'rt-admin', DEMO_PASSWORD);
  const made = await call<DeviceWithSecret & { id: string }>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: 'RT00000001', name: 'Retention tracker' } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  device = made.body.data!;
  // Four minutes stored twenty to seventeen minutes ago: 3, 2, 2 and 1 readings.
  base = Math.floor(Date.now() / 60_000) * 60_000 - 20 * 60_000;
  for (const [i, temps] of [[-18.1, -18.2, -18.3], [-18.4, -18.5], [-19, -19.1], [-19.2]].entries()) await insertReadings(base + i * 60_000, temps);
  await tickUntilQuiet();
  await t.app.ledger.checkpoint();
});

afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('readings removed by retention, in the ledger', () => {
  it('verifies the removed minutes as removed under the logged policy, and nothing else', async () => {
    expect((await verdicts()).map((v) => v.reason)).toEqual([null, null, null, null]);

    // Retention removes the readings stored in the first two minutes and one of the third's
    // (stored until base + 2 min 5 s), as its job does: the rows go, and a removal row says so.
    const removedAt = new Date(Date.now() - 60_000);
    await db().execute(sql`delete from telemetry where device_ref = ${device.id} and received_at <= ${iso(base + 2 * 60_000 + 5_000)}::timestamptz`);
    await db().execute(sql`insert into retention_removals (org_id, device_ref, what, from_time, to_time, received_from, received_to, readings, policy_org_id, policy, removed_at)
      values (${demoOrg}, ${device.id}, 'packs', ${iso(base)}::timestamptz, ${iso(base + 2 * 60_000 + 5_000)}::timestamptz,
        ${iso(base + 5_000)}::timestamptz, ${iso(base + 2 * 60_000 + 5_000)}::timestamptz, 6, ${demoOrg}, ${POLICY}, ${removedAt.toISOString()}::timestamptz)`);

    // Before the ledger has logged the removal, the gone readings are just gone.
    expect((await verdicts()).map((v) => v.reason)).toEqual(['digest-mismatch', 'digest-mismatch', 'digest-mismatch', null]);

    // The feeder logs the removal once; its row gets the leaf's index.
    await tickUntilQuiet();
    await tickUntilQuiet();
    const logged = rowsOf<{ idx: string; data: string }>(await db().execute(sql`select idx::text, encode(data, 'hex') as data from ledger_leaves where kind = 'retention.removal'`));
    expect(logged).toHaveLength(1);
    expect(decodeLeaf(fromBase64(Buffer.from(logged[0]!.data, 'hex').toString('base64')))).toEqual({
      v: 1,
      kind: 'retention.removal',
      orgId: demoOrg,
      deviceId: 'RT00000001',
      from: iso(base),
      to: iso(base + 3 * 60_000),
      readings: 6,
      policy: POLICY,
      removedAt: removedAt.toISOString(),
    });
    const [row] = rowsOf<{ ledger_index: string | number }>(await db().execute(sql`select ledger_index from retention_removals where device_ref = ${device.id}`));
    expect(Number(row!.ledger_index)).toBe(Number(logged[0]!.idx));

    // Logged but not yet under a signed head: pending, not changed.
    expect((await verdicts()).slice(0, 3).map((v) => v.reason)).toEqual(['pending', 'pending', 'pending']);

    await t.app.ledger.checkpoint();
    const removal = { policy: POLICY, removedAt: removedAt.toISOString(), index: Number(logged[0]!.idx) };
    expect(await verdicts()).toEqual([
      { what: iso(base), reason: 'removed', removal },
      { what: iso(base + 60_000), reason: 'removed', removal },
      { what: iso(base + 2 * 60_000), reason: 'removed', removal },
      { what: iso(base + 3 * 60_000), reason: null, removal: undefined },
      // The removal itself is a record of the device's log.
      { what: 'retention.removal', reason: null, removal: undefined },
    ]);

    // The command-line verifier passes the removed minutes and says how many.
    const audit = await verifyLedger({ db: db(), dataDir, headsFile: join(dataDir, 'heads.txt'), env: {}, save: false });
    expect(audit.checks.filter((c) => !c.ok)).toEqual([]);
    expect(audit.checks.find((c) => c.name === 'records')!.note).toContain('1 retention removals (the readings of 3 sensor minutes removed under them)');
  });

  it('still flags a minute outside the removal whose readings are gone, and nothing is logged twice', async () => {
    const last = base + 3 * 60_000;
    await db().execute(sql`delete from telemetry where device_ref = ${device.id} and received_at >= ${iso(last)}::timestamptz`);
    try {
      await tickUntilQuiet();
      const v = await verdicts();
      expect(v.map((x) => x.reason)).toEqual(['removed', 'removed', 'removed', 'digest-mismatch', null]);
      const audit = await verifyLedger({ db: db(), dataDir, headsFile: join(dataDir, 'heads.txt'), env: {}, save: false });
      const failures = audit.checks.find((c) => c.name === 'records')!.failures;
      expect(failures.map((f) => f.message)).toEqual([expect.stringContaining(`minute ${iso(last)}: its 1 reading(s) are no longer stored`)]);
      expect(Number(rowsOf<{ n: string }>(await db().execute(sql`select count(*)::text as n from ledger_leaves where kind = 'retention.removal'`))[0]!.n)).toBe(1);
    } finally {
      await insertReadings(last, [-19.2]);
    }
    expect((await verdicts()).map((x) => x.reason)).toEqual(['removed', 'removed', 'removed', null, null]);
  });

  it('does not excuse readings edited in place inside the removal span', async () => {
    // The third minute's removed reading put back with another value: as many readings as logged, other values.
    const third = base + 2 * 60_000;
    await insertReadings(third, [-25]);
    try {
      const v = await verdicts();
      expect(v[2]).toMatchObject({ what: iso(third), reason: 'digest-mismatch' });
      expect(v[2]!.removal).toBeUndefined();
    } finally {
      await db().execute(sql`delete from telemetry where device_ref = ${device.id} and received_at = ${iso(third + 5_000)}::timestamptz`);
    }
    expect((await verdicts())[2]).toMatchObject({ reason: 'removed' });
  });

  it('through the retention job: a logger backlog packed, its day past the packs rule, removed and verified as removed', async () => {
    // A logger uploads five-day-old readings now: the ledger logs them by the minute they were stored.
    const made = await call<DeviceWithSecret & { id: string }>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: 'RT00000002', name: 'Logger' } });
    const logger = made.body.data!;
    const day = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 5 * 86_400_000);
    const stored = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000;
    for (let i = 0; i < 3; i++) {
      await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, raw, sensors)
        values (${demoOrg}, ${logger.id}, ${iso(day.getTime() + 60_000 + i * 600_000)}::timestamptz, ${iso(stored + 5_000 + i * 10_000)}::timestamptz, 31.2, 121.5, '{}'::jsonb, ${JSON.stringify({ temperature: 4 + i })}::jsonb)`);
    }
    await db().execute(sql`update ledger_watermarks set value = ${JSON.stringify({ minute: iso(stored), deviceRef: '00000000-0000-0000-0000-000000000000' })} where source = 'sensor'`);
    await tickUntilQuiet();
    await t.app.ledger.checkpoint();
    const scope = `deviceId=${logger.id}&from=${encodeURIComponent(iso(stored - 60_000))}&to=${encodeURIComponent(iso(Date.now() + 3_600_000))}`;
    const check = async () => {
      const res = await call<RecordsAnswer>(t.app, { method: 'GET', url: `/api/iot/v2/ledger/records?${scope}`, token: admin });
      return { answer: res.body.data!, verdicts: await verifyRecords(res.body.data!) };
    };
    expect((await check()).verdicts.map((v) => v.reason)).toEqual([null]);

    // The day is packed, and the organisation keeps packs three days.
    expect(await packDay(db(), logger.id, day.toISOString().slice(0, 10), new Date())).toBe(3);
    await db().execute(sql`insert into retention_rules (org_id, packs_inherit, packs_days) values (${demoOrg}, false, 3)
      on conflict (org_id) do update set packs_inherit = false, packs_days = 3`);
    const audits: string[] = [];
    const ran = await retentionTick(db(), { audit: async (_q, e) => void audits.push(`${e.action}: ${e.detail}`) });
    expect(ran.packReadingsRemoved).toBeGreaterThanOrEqual(3);
    expect(rowsOf(await db().execute(sql`select 1 from telemetry where device_ref = ${logger.id}`))).toHaveLength(0);
    expect(audits.join('\n')).toContain('packs kept 3 days');

    await tickUntilQuiet();
    await t.app.ledger.checkpoint();
    const { answer, verdicts: v } = await check();
    expect(answer.items.map((i) => i.kind)).toEqual(['sensor.minute', 'retention.removal']);
    expect(v.map((x) => x.reason)).toEqual(['removed', null]);
    expect(v[0]!.removal!.policy).toMatch(/^packs kept 3 days \(rule of .+\)$/);
    const audit = await verifyLedger({ db: db(), dataDir, headsFile: join(dataDir, 'heads.txt'), env: {}, save: false });
    expect(audit.checks.filter((c) => !c.ok)).toEqual([]);
  });
});

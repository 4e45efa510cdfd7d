// The ledger through the API and its service: readings per stored minute, a task's events, an
// alarm and a warehouse record logged once each; signed checkpoints verified with the published
// key; every inclusion proof and a consistency proof verified with the shared verifier; the
// errors of bad parameters; organisation isolation; tampering with a stored reading found as
// exactly that minute's record; warehouse batches (their approved records only, isolated per
// organisation, shared, a changed quantity found as exactly its record); a task's hand-over (a
// changed receiver found as exactly its record); share links; and two
// feeders on one database making one log.
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { ConsistencyProof, InclusionProof, LeafAnswer, PublicRecordsAnswer, RecordsAnswer, ShareAnswer } from '@iotc/shared/ledger/api';
import { fromBase64 } from '@iotc/shared/ledger/bytes';
import { openCheckpoint, parseVerifierKey } from '@iotc/shared/ledger/checkpoint';
import { decodeLeaf } from '@iotc/shared/ledger/leaf';
import { leafHash, leavesReader, rootOf, verifyConsistency, verifyInclusion } from '@iotc/shared/ledger/merkle';
import type { TaskDetail } from '@iotc/shared/transport';
import { openDatabase, rowsOf, type Database } from '../../db/client.ts';
import { alarmEvents, alarmLevels, alarms, orgs, transportTasks, warehouseRecords } from '../../db/schema.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { loadSigner } from './keys.ts';
import { ledgerService } from './service.ts';
import { verifyRecords } from './verify.ts';

const L = '/api/iot/v2/ledger';
let t: TestApp;
let dataDir: string;
let admin: string;
let rival: string;
let demoOrg: string;
let device: DeviceWithSecret & { id: string };
let task: TaskDetail;
let alarmId: string;
let warehouseId: string;
/** The batch B-7's approved outbound record (warehouseId is its inbound one). */
let batchOutId: string;
/** Minute starts (ms) of the seeded readings, oldest first. */
const minutes: number[] = [];

const api = <T>(method: 'GET' | 'POST', url: string, token?: string, body?: unknown) => call<T>(t.app, { method, url, token, body });
const db = () => t.app.database.db;
const iso = (ms: number) => new Date(ms).toISOString();

async function insertReadings(deviceRef: string, minuteStart: number, temps: number[]) {
  for (const [i, temp] of temps.entries()) {
    const at = minuteStart + 5_000 + i * 10_000;
    await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, speed, raw, sensors)
      values (${demoOrg}, ${deviceRef}, ${iso(at - 2_000)}::timestamptz, ${iso(at)}::timestamptz, 31.2, 121.5, 40, '{}'::jsonb, ${JSON.stringify({ temperature: temp, humidity: 55 })}::jsonb)`);
  }
}

/**
 * Readings inserted here carry a past stored time, which the feeder has passed once it ran (a
 * real write is stored now): its sensor position goes back to that minute, as if not reached yet.
 */
async function rewindSensor(minuteStart: number) {
  await db().execute(sql`update ledger_watermarks set value = ${JSON.stringify({ minute: iso(minuteStart), deviceRef: '00000000-0000-0000-0000-000000000000' })} where source = 'sensor'`);
}

async function leafCount(where = sql`true`): Promise<number> {
  return Number(rowsOf<{ n: string }>(await db().execute(sql`select count(*)::text as n from ledger_leaves where ${where}`))[0]!.n);
}

async function tickUntilQuiet() {
  while ((await t.app.ledger.tick()) > 0);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ledger-test-'));
  t = await testApp({ dataDir });
  demoOrg = (await db().select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db(), { orgId: demoOrg, account: 'lg-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  const rivalOrg = (await createTenantUser(db(), { code: 'lg-rival', account: 'lg-rival', password: DEMO_PASSWORD, permissions: ['device:read', 'transport:read', 'warehouse:read'] })).org.id;
  admin = await login(t.app, 'lg-admin', DEMO_PASSWORD);
  rival = await login(t.app, 'lg-rival', DEMO_PASSWORD);
  const made = await api<DeviceWithSecret & { id: string }>('POST', '/api/iot/v2/devices', admin, { deviceId: 'LG00000001', name: 'Ledger tracker' });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  device = made.body.data!;

  // Readings stored over three minutes, ten to eight minutes ago: 3, 4 and 2 of them.
  const base = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
  for (const [i, temps] of [[-18.1, -18.2, -18.3], [-18.4, -18.5, -18.6, -18.7], [-19, -19.1]].entries()) {
    minutes.push(base + i * 60_000);
    await insertReadings(device.id, base + i * 60_000, temps);
  }

  // A task created and started by hand (its start moved back to cover the readings).
  const res = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', admin, {
    goodsName: 'Vaccines',
    deviceIds: [device.id],
    origin: { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 },
    destination: { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  task = res.body.data!;
  const moved = await api('POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, admin, { to: 'in_transit' });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  await db().update(transportTasks).set({ startedAt: new Date(base - 60_000) }).where(eq(transportTasks.id, task.id));
  // The goods handed over on the way.
  const handed = await api('POST', `/api/iot/v2/transport-tasks/${task.id}/handover`, admin, { from: 'Wang (carrier)', to: 'Hangzhou Store', place: 'Dock 3', seals: ['S-1', 'S-2'], temperature: -18.4, signed: true });
  expect(handed.status, JSON.stringify(handed.body)).toBe(200);

  // An alarm of the device and the task, opened and cleared.
  const level = (await db().select().from(alarmLevels).where(eq(alarmLevels.orgId, demoOrg)))[0]!;
  const [alarm] = await db()
    .insert(alarms)
    .values({ orgId: demoOrg, policyName: 'Cold chain', ruleId: 'r1', type: 'temperature_high', levelId: level.id, deviceRef: device.id, taskId: task.id, status: 'cleared', startedAt: new Date(base), lastAt: new Date(base + 60_000), endedAt: new Date(base + 120_000), threshold: -15, value: -14 })
    .returning();
  alarmId = alarm!.id;
  await db().insert(alarmEvents).values([
    { alarmId, at: new Date(base), kind: 'created', actor: null, detail: { value: -14 } },
    { alarmId, at: new Date(base + 30_000), kind: 'acknowledged', actor: 'lg-admin', detail: {} },
    { alarmId, at: new Date(base + 120_000), kind: 'cleared', actor: null, detail: { value: -17 } },
  ]);

  // An approved inbound record.
  const [record] = await db()
    .insert(warehouseRecords)
    .values({ orgId: demoOrg, warehouseCode: 'WH-1', warehouseName: 'Shanghai cold store', direction: 'in', goodsName: 'Vaccines', batchNo: 'B-7', quantity: 120, unit: 'box', time: new Date(base), handler: 'Li Lei', createdBy: 'lg-admin', auditStatus: 'approved', reviewer: 'demo', reviewedAt: new Date() })
    .returning();
  warehouseId = record!.id;
  // More of batch B-7 (one approved, one pending: not logged), another batch, and another organisation's batch.
  const wh = { warehouseCode: 'WH-1', warehouseName: 'Shanghai cold store', unit: 'box', time: new Date(base + 60_000), handler: 'Li Lei', createdBy: 'lg-admin' };
  const approved = { auditStatus: 'approved' as const, reviewer: 'demo', reviewedAt: new Date() };
  const more = await db()
    .insert(warehouseRecords)
    .values([
      { ...wh, ...approved, orgId: demoOrg, direction: 'out', goodsName: 'Insulin', batchNo: 'B-7', quantity: 30 },
      { ...wh, orgId: demoOrg, direction: 'out', goodsName: 'Vaccines', batchNo: 'B-7', quantity: 5 },
      { ...wh, ...approved, orgId: demoOrg, direction: 'in', goodsName: 'Vaccines', batchNo: 'B-8', quantity: 50 },
      { ...wh, ...approved, orgId: rivalOrg, direction: 'in', goodsName: 'Rival goods', batchNo: 'B-RIVAL', quantity: 9 },
    ])
    .returning();
  batchOutId = more[0]!.id;
});

afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the feeder', () => {
  it('logs each stored minute, custody event and alarm event once; a second tick adds nothing', async () => {
    await tickUntilQuiet();
    expect(await leafCount(sql`device_ref = ${device.id} and kind = 'sensor.minute'`)).toBe(3);
    const refs = rowsOf<{ ref: string }>(await db().execute(sql`select ref from ledger_leaves where task_id = ${task.id} or warehouse_record_id = ${warehouseId} order by idx`)).map((r) => r.ref);
    expect(refs.filter((r) => r.startsWith('custody:task.created:'))).toHaveLength(1);
    expect(refs.filter((r) => r.startsWith('custody:task.started:'))).toHaveLength(1);
    expect(refs.filter((r) => r.startsWith(`custody:task.handover:${task.id}:`))).toHaveLength(1);
    // Opened and cleared are logged; acknowledged is not a ledger event.
    expect(refs.filter((r) => r.startsWith(`alarm:opened:${alarmId}:`))).toHaveLength(1);
    expect(refs.filter((r) => r.startsWith(`alarm:closed:${alarmId}:`))).toHaveLength(1);
    expect(refs).toContain(`custody:warehouse.in:${warehouseId}`);
    const before = await leafCount();
    expect(await t.app.ledger.tick()).toBe(0);
    expect(await leafCount()).toBe(before);
  });

  it('grows with minutes, not with readings', async () => {
    const m = minutes[2]! + 60_000;
    minutes.push(m);
    await insertReadings(device.id, m, [-19.2, -19.3, -19.4, -19.5, -19.6]);
    await rewindSensor(m);
    await tickUntilQuiet();
    expect(await leafCount(sql`device_ref = ${device.id} and kind = 'sensor.minute'`)).toBe(4);
    const leaf = rowsOf<{ data: string }>(await db().execute(sql`select encode(data, 'hex') as data from ledger_leaves where ref = ${`sensor:${device.id}:${iso(m)}`}`))[0]!;
    const record = decodeLeaf(Uint8Array.from(Buffer.from(leaf.data, 'hex')));
    expect(record).toMatchObject({ kind: 'sensor.minute', deviceId: 'LG00000001', minute: iso(m), count: 5, orgId: demoOrg });
  });

  it('keeps the signer key under DATA_DIR with mode 0600 and publishes the verifier key', async () => {
    const file = join(dataDir, 'ledger', 'signer.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const res = await t.app.inject({ method: 'GET', url: `${L}/public-key` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body.trim()).toBe(readFileSync(join(dataDir, 'ledger', 'verifier.key'), 'utf8').trim());
    parseVerifierKey(res.body.trim());
    const json = await api<{ verifierKey: string; origin: string }>('GET', `${L}/public-key?format=json`);
    expect(json.body.data!.verifierKey).toBe(res.body.trim());
    // The same file is read again on the next start.
    const again = await loadSigner({ dataDir });
    expect(again.verifierKey).toBe(res.body.trim());
    // A key given in the environment wins, and is published beside it.
    const other = mkdtempSync(join(tmpdir(), 'ledger-key-'));
    try {
      const given = await loadSigner({ dataDir: other, signerKey: readFileSync(join(dataDir, 'ledger', 'signer.key'), 'utf8').trim(), origin: 'example.com/log' });
      expect(given).toMatchObject({ verifierKey: res.body.trim(), origin: 'example.com/log' });
      expect(readFileSync(join(other, 'ledger', 'verifier.key'), 'utf8').trim()).toBe(given.verifierKey);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('checkpoints and proofs', () => {
  let firstSize: number;
  let firstRoot: Uint8Array;
  let vkey: string;

  it('signs a checkpoint that verifies with the published key; every inclusion proof leads to its root', async () => {
    expect((await t.app.inject({ method: 'GET', url: `${L}/checkpoint` })).statusCode).toBe(404);
    expect((await api<RecordsAnswer>('GET', `${L}/records?taskId=${task.id}`, admin)).body.data!).toMatchObject({ checkpoint: null, signedAt: null });
    const signed = await t.app.ledger.checkpoint();
    expect(signed).not.toBeNull();
    const answer = (await api<RecordsAnswer>('GET', `${L}/records?taskId=${task.id}`, admin)).body.data!;
    expect(Math.abs(Date.parse(answer.signedAt!) - Date.now())).toBeLessThan(60_000);
    expect(await t.app.ledger.checkpoint()).toBeNull(); // no growth, no new head
    vkey = (await t.app.inject({ method: 'GET', url: `${L}/public-key` })).body.trim();
    const note = (await t.app.inject({ method: 'GET', url: `${L}/checkpoint` })).body;
    const cp = await openCheckpoint(note, vkey);
    expect(cp.size).toBe(await leafCount());
    firstSize = cp.size;
    firstRoot = cp.rootHash;
    const hashes: Uint8Array[] = [];
    for (let i = 0; i < cp.size; i++) {
      const p = await api<InclusionProof>('GET', `${L}/proof/inclusion?index=${i}&size=${cp.size}`);
      expect(p.status).toBe(200);
      const leaf = fromBase64(p.body.data!.leafHash);
      hashes.push(leaf);
      expect(verifyInclusion(i, cp.size, leaf, p.body.data!.proof.map(fromBase64), cp.rootHash)).toBe(true);
    }
    expect(rootOf(hashes)).toEqual(cp.rootHash);
    // Without size: the latest checkpoint's.
    expect((await api<InclusionProof>('GET', `${L}/proof/inclusion?index=0`)).body.data!.size).toBe(cp.size);
  });

  it('proves the next checkpoint consistent with the first', async () => {
    const m = minutes.at(-1)! + 60_000;
    minutes.push(m);
    await insertReadings(device.id, m, [-20]);
    await rewindSensor(m);
    await tickUntilQuiet();
    await t.app.ledger.checkpoint();
    const cp = await openCheckpoint((await t.app.inject({ method: 'GET', url: `${L}/checkpoint` })).body, vkey);
    expect(cp.size).toBeGreaterThan(firstSize);
    const p = await api<ConsistencyProof>('GET', `${L}/proof/consistency?from=${firstSize}&to=${cp.size}`);
    expect(p.status).toBe(200);
    expect(verifyConsistency(firstSize, cp.size, firstRoot, cp.rootHash, p.body.data!.proof.map(fromBase64))).toBe(true);
    const same = await api<ConsistencyProof>('GET', `${L}/proof/consistency?from=${cp.size}&to=${cp.size}`);
    expect(same.body.data!.proof).toEqual([]);
  });

  it('answers bad parameters with 400 and a clear message', async () => {
    const size = await leafCount();
    const cases: [string, string, string][] = [
      [`${L}/proof/inclusion?index=${size}&size=${size}`, 'LEDGER_INDEX_OUT_OF_RANGE', 'The leaf index must be below the tree size'],
      [`${L}/proof/inclusion?index=0&size=${size + 1}`, 'LEDGER_SIZE_TOO_LARGE', 'The tree size is larger than the ledger'],
      [`${L}/proof/consistency?from=3&to=2`, 'LEDGER_RANGE_INVERTED', 'The first tree size must not be larger than the second'],
      [`${L}/proof/consistency?from=1&to=${size + 5}`, 'LEDGER_SIZE_TOO_LARGE', 'The tree size is larger than the ledger'],
      [`${L}/proof/consistency?from=0&to=2`, 'VALIDATION', 'From must be at least 1'],
      [`${L}/proof/inclusion?index=abc`, 'VALIDATION', 'Index must be a number'],
      [`${L}/proof/inclusion?index=-1&size=2`, 'VALIDATION', 'Index must be at least 0'],
    ];
    for (const [url, code, text] of cases) {
      const r = await api('GET', url);
      expect(r.status, url).toBe(400);
      expect(r.body.errorcode, url).toBe(code);
      expect(r.body.errormsg, url).toContain(text);
    }
  });

  it('serves a leaf to its organisation only', async () => {
    const idx = Number(rowsOf<{ i: string }>(await db().execute(sql`select min(idx)::text as i from ledger_leaves where device_ref = ${device.id}`))[0]!.i);
    const own = await api<LeafAnswer>('GET', `${L}/leaves/${idx}`, admin);
    expect(own.status).toBe(200);
    expect(leafHash(fromBase64(own.body.data!.data))).toEqual(fromBase64(own.body.data!.leafHash));
    expect((await api('GET', `${L}/leaves/${idx}`, rival)).status).toBe(404);
    expect((await api('GET', `${L}/leaves/999999`, admin)).status).toBe(404);
    expect((await api('GET', `${L}/leaves/${idx}`)).status).toBe(401);
  });
});

describe('verification', () => {
  const deviceRange = () => `deviceId=${device.id}&from=${iso(minutes[0]! - 3_600_000)}&to=${iso(Date.now() + 60_000)}`;

  it('verifies every record of a device, a task and a warehouse record', async () => {
    await t.app.ledger.checkpoint();
    for (const q of [deviceRange(), `taskId=${task.id}`, `warehouseRecordId=${warehouseId}`]) {
      const r = await api<RecordsAnswer>('GET', `${L}/records?${q}`, admin);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data!.items.length).toBeGreaterThan(0);
      const verdicts = await verifyRecords(r.body.data!);
      expect(verdicts.filter((v) => !v.ok), q).toEqual([]);
    }
    const byTask = (await api<RecordsAnswer>('GET', `${L}/records?taskId=${task.id}`, admin)).body.data!;
    expect(byTask.items.filter((i) => i.kind === 'sensor.minute').length).toBe(minutes.length);
    expect(byTask.items.some((i) => i.kind === 'alarm')).toBe(true);
    const rivalAsk = await api('GET', `${L}/records?taskId=${task.id}`, rival);
    expect(rivalAsk.status).toBe(404);
    const noScope = await api('GET', `${L}/records`, admin);
    expect(noScope.status).toBe(400);
    expect(noScope.body.errorcode).toBe('LEDGER_SCOPE_REQUIRED');
  });

  it('finds exactly the minute whose stored reading was changed in the database', async () => {
    const target = minutes[1]!;
    await db().execute(sql`update telemetry set sensors = jsonb_set(sensors, '{temperature}', '-25')
      where device_ref = ${device.id} and received_at = ${iso(target + 15_000)}::timestamptz`);
    const r = (await api<RecordsAnswer>('GET', `${L}/records?${deviceRange()}`, admin)).body.data!;
    const verdicts = await verifyRecords(r);
    const bad = verdicts.filter((v) => !v.ok);
    expect(bad).toEqual([{ index: expect.any(Number), ref: `sensor:${device.id}:${iso(target)}`, ok: false, reason: 'digest-mismatch' }]);
    expect(verdicts.length).toBeGreaterThan(1);
    // The public page of a share covering that minute reports the same record.
    const share = (await api<ShareAnswer>('POST', `${L}/shares`, admin, { deviceId: device.id, from: iso(minutes[0]!), to: iso(minutes[2]!) })).body.data!;
    const published = (await api<PublicRecordsAnswer>('GET', share.apiUrl)).body.data!;
    expect((await verifyRecords(published)).filter((v) => !v.ok).map((v) => [v.ref, v.reason])).toEqual([[bad[0]?.ref, 'digest-mismatch']]);
    // The tree head itself is checked too.
    const forged = r.checkpoint!.replace(/\n\n— (\S+) (\S+)\n$/, (_m, name: string, sig: string) => `\n\n— ${name} ${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}\n`);
    expect((await verifyRecords({ ...r, checkpoint: forged })).every((v) => v.reason === 'bad-signature')).toBe(true);
    // A logged leaf changed in the ledger's own table is no longer in the signed tree.
    const one = r.items.find((i) => i.kind === 'custody' || i.kind === 'alarm') ?? r.items.find((i) => i.ref !== bad[0]!.ref)!;
    const proofless = { ...r, items: [{ ...one, proof: one.proof!.slice(1) }] };
    expect((await verifyRecords(proofless))[0]!.reason).toBe('not-included');
    // Put back.
    await db().execute(sql`update telemetry set sensors = jsonb_set(sensors, '{temperature}', '-18.5')
      where device_ref = ${device.id} and received_at = ${iso(target + 15_000)}::timestamptz`);
    expect((await verifyRecords((await api<RecordsAnswer>('GET', `${L}/records?${deviceRange()}`, admin)).body.data!)).every((v) => v.ok)).toBe(true);
  });

  it("verifies a warehouse batch: exactly its approved records; another organisation's batch is 404", async () => {
    await t.app.ledger.checkpoint();
    const r = await api<RecordsAnswer>('GET', `${L}/records?warehouseBatch=${encodeURIComponent(' B-7 ')}`, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data!.items.map((i) => i.ref).sort()).toEqual([`custody:warehouse.in:${warehouseId}`, `custody:warehouse.out:${batchOutId}`].sort());
    expect(r.body.data!.signedAt).toEqual(expect.any(String));
    expect((await verifyRecords(r.body.data!)).every((v) => v.ok)).toBe(true);
    expect((await api<RecordsAnswer>('GET', `${L}/records?warehouseBatch=B-8`, admin)).body.data!.items).toHaveLength(1);
    expect((await api('GET', `${L}/records?warehouseBatch=B-RIVAL`, admin)).status).toBe(404);
    expect((await api('GET', `${L}/records?warehouseBatch=B-7`, rival)).status).toBe(404);
    expect((await api('GET', `${L}/records?warehouseBatch=B-404`, admin)).status).toBe(404);
    expect((await api('GET', `${L}/records?warehouseBatch=${'x'.repeat(65)}`, admin)).status).toBe(400);
    const two = await api('GET', `${L}/records?warehouseBatch=B-7&taskId=${task.id}`, admin);
    expect(two.body.errorcode).toBe('LEDGER_SCOPE_REQUIRED');
  });

  it('finds a changed custody record', async () => {
    await db().update(warehouseRecords).set({ quantity: 12 }).where(eq(warehouseRecords.id, warehouseId));
    const r = (await api<RecordsAnswer>('GET', `${L}/records?warehouseRecordId=${warehouseId}`, admin)).body.data!;
    expect((await verifyRecords(r)).map((v) => v.reason)).toEqual(['digest-mismatch']);
    await db().update(warehouseRecords).set({ quantity: 120 }).where(eq(warehouseRecords.id, warehouseId));
  });
});

describe('hand-overs', () => {
  it('log a task.handover record with the hand-over that verifies; a changed receiver is found as exactly that record', async () => {
    await t.app.ledger.checkpoint();
    const r = (await api<RecordsAnswer>('GET', `${L}/records?taskId=${task.id}`, admin)).body.data!;
    const item = r.items.find((i) => i.ref.startsWith(`custody:task.handover:${task.id}:`))!;
    expect(item).toBeDefined();
    expect(decodeLeaf(fromBase64(item.data))).toEqual(item.record);
    expect(item.record).toMatchObject({
      kind: 'custody',
      event: 'task.handover',
      subjectId: task.id,
      actor: 'lg-admin',
      fields: { code: task.code, from: 'Wang (carrier)', to: 'Hangzhou Store', place: 'Dock 3', seals: ['S-1', 'S-2'], temperature: -18.4, signed: true, note: '' },
    });
    expect((await verifyRecords(r)).filter((v) => !v.ok)).toEqual([]);
    const eventId = Number(item.ref.split(':')[3]);
    const setTo = (to: string) => db().execute(sql`update transport_task_events set detail = jsonb_set(detail, '{to}', ${JSON.stringify(to)}::jsonb) where id = ${eventId}`);
    await setTo('Someone else');
    try {
      const changed = (await api<RecordsAnswer>('GET', `${L}/records?taskId=${task.id}`, admin)).body.data!;
      expect((await verifyRecords(changed)).filter((v) => !v.ok).map((v) => [v.ref, v.reason])).toEqual([[item.ref, 'digest-mismatch']]);
    } finally {
      await setTo('Hangzhou Store');
    }
  });
});

describe('share links', () => {
  it('publish only their scope without login; a made-up token is 404', async () => {
    const made = await api<ShareAnswer>('POST', `${L}/shares`, admin, { taskId: task.id, expiresInDays: 30 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data!.url).toBe(`/verify/${made.body.data!.token}`);
    const pub = await api<PublicRecordsAnswer>('GET', made.body.data!.apiUrl);
    expect(pub.status).toBe(200);
    const answer = pub.body.data!;
    expect(answer.subject).toMatchObject({ kind: 'task', code: task.code, goodsName: 'Vaccines' });
    expect(answer.items.length).toBeGreaterThan(0);
    for (const item of answer.items) {
      expect(item.ref.includes(task.id) || item.ref.startsWith(`sensor:${device.id}:`) || item.ref.includes(alarmId)).toBe(true);
    }
    expect(answer.items.some((i) => i.ref.includes(warehouseId))).toBe(false);
    expect((await verifyRecords(answer)).every((v) => v.ok)).toBe(true);
    expect((await api('GET', `${L}/public/${'x'.repeat(43)}`)).status).toBe(404);

    const range = await api<ShareAnswer>('POST', `${L}/shares`, admin, { deviceId: device.id, from: iso(minutes[0]!), to: iso(minutes[1]! + 60_000) });
    const ranged = (await api<PublicRecordsAnswer>('GET', range.body.data!.apiUrl)).body.data!;
    expect(ranged.subject).toMatchObject({ kind: 'device', deviceId: 'LG00000001' });
    expect(ranged.items.filter((i) => i.kind === 'sensor.minute').map((i) => i.ref)).toEqual(minutes.slice(0, 2).map((m) => `sensor:${device.id}:${iso(m)}`));

    expect((await api('POST', `${L}/shares`, rival, { taskId: task.id })).status).toBe(404);
    expect((await api('POST', `${L}/shares`, undefined, { taskId: task.id })).status).toBe(401);
    const bad = await api('POST', `${L}/shares`, admin, { deviceId: device.id });
    expect(bad.status).toBe(400);
    expect(bad.body.errorcode).toBe('LEDGER_SCOPE_REQUIRED');
  });
});

describe('warehouse share links', () => {
  it('publish a batch without login; a changed quantity flags exactly that record', async () => {
    const made = await api<ShareAnswer>('POST', `${L}/shares`, admin, { warehouseBatch: 'B-7' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const pub = (await api<PublicRecordsAnswer>('GET', made.body.data!.apiUrl)).body.data!;
    expect(pub.subject).toEqual({ kind: 'batch', batchNo: 'B-7', records: 2, goods: ['Insulin', 'Vaccines'] });
    expect(pub.signedAt).toEqual(expect.any(String));
    expect(pub.items.map((i) => i.ref).sort()).toEqual([`custody:warehouse.in:${warehouseId}`, `custody:warehouse.out:${batchOutId}`].sort());
    expect((await verifyRecords(pub)).every((v) => v.ok)).toBe(true);

    await db().execute(sql`update warehouse_records set quantity = 31 where id = ${batchOutId}`);
    try {
      const changed = (await api<PublicRecordsAnswer>('GET', made.body.data!.apiUrl)).body.data!;
      expect((await verifyRecords(changed)).filter((v) => !v.ok).map((v) => [v.ref, v.reason])).toEqual([[`custody:warehouse.out:${batchOutId}`, 'digest-mismatch']]);
    } finally {
      await db().execute(sql`update warehouse_records set quantity = 30 where id = ${batchOutId}`);
    }
    expect((await api('POST', `${L}/shares`, rival, { warehouseBatch: 'B-7' })).status).toBe(404);
  });

  it('publish one warehouse record', async () => {
    const made = await api<ShareAnswer>('POST', `${L}/shares`, admin, { warehouseRecordId: warehouseId });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const pub = (await api<PublicRecordsAnswer>('GET', made.body.data!.apiUrl)).body.data!;
    expect(pub.subject).toMatchObject({ kind: 'warehouseRecord', batchNo: 'B-7', goodsName: 'Vaccines', warehouse: 'Shanghai cold store', direction: 'in' });
    expect(pub.items.map((i) => i.ref)).toEqual([`custody:warehouse.in:${warehouseId}`]);
    expect((await verifyRecords(pub)).every((v) => v.ok)).toBe(true);
  });
});

describe('several feeders', () => {
  it('make one consistent log on one database', async () => {
    // A second device with readings over five minutes, and a second connection when on PostgreSQL.
    const other = await api<DeviceWithSecret & { id: string }>('POST', '/api/iot/v2/devices', admin, { deviceId: 'LG00000002', name: 'Second tracker' });
    const base = Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000;
    for (let i = 0; i < 5; i++) await insertReadings(other.body.data!.id, base + i * 60_000, [1, 2]);
    await rewindSensor(base);
    let second: Database | undefined;
    if (t.databaseUrl) second = await openDatabase({ kind: 'postgres', url: t.databaseUrl });
    try {
      const opts = { log: t.app.log };
      const a = ledgerService(db(), opts);
      // Small batches: many transactions interleave, and the sensor position stops inside a window.
      const b = ledgerService(second?.db ?? db(), { ...opts, batchSize: 2 });
      for (let round = 0; round < 50; round++) {
        const [x, y] = await Promise.all([a.tick(), b.tick()]);
        if (x + y === 0 && round > 0) break;
      }
      await Promise.all([a.checkpoint(), b.checkpoint()]);
      expect(await leafCount(sql`device_ref = ${other.body.data!.id}`)).toBe(5);
      const leaves = rowsOf<{ idx: string; ref: string; h: string }>(await db().execute(sql`select idx::text as idx, ref, encode(leaf_hash, 'hex') as h from ledger_leaves order by ledger_leaves.idx`));
      expect(leaves.map((l) => Number(l.idx))).toEqual(leaves.map((_, i) => i));
      expect(new Set(leaves.map((l) => l.ref)).size).toBe(leaves.length);
      const hashes = leaves.map((l) => Uint8Array.from(Buffer.from(l.h, 'hex')));
      // Every stored subtree is what the leaves make.
      const reader = leavesReader(hashes);
      const nodes = rowsOf<{ level: number; idx: string; h: string }>(await db().execute(sql`select level, idx::text as idx, encode(hash, 'hex') as h from ledger_nodes`));
      for (const n of nodes) expect(Buffer.from(reader(Number(n.level), Number(n.idx))).toString('hex')).toBe(n.h);
      // And every checkpoint's root.
      const heads = rowsOf<{ size: string; root: string }>(await db().execute(sql`select size::text as size, encode(root_hash, 'hex') as root from ledger_checkpoints`));
      for (const head of heads) expect(Buffer.from(rootOf(hashes.slice(0, Number(head.size)))).toString('hex')).toBe(head.root);
    } finally {
      await second?.close();
    }
  });
});

describe('the API description', () => {
  it('includes the ledger calls', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([`${L}/proof/inclusion`, `${L}/records`, `${L}/public/{token}`]));
  });
});

// The command-line verifier against a log the real app made: a clean log verifies and its head is
// saved; a reading changed in the database is named by device and minute; a forged checkpoint
// row (root or note) is named by its size; a saved head of a forked log is reported; remote mode
// checks the published heads; a server holding the PGlite directory makes the bin refuse.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { formatCheckpoint, generateNoteKeys, parseSignerKey, signNote } from '@iotc/shared/ledger/checkpoint';
import type { TaskDetail } from '@iotc/shared/transport';
import { rowsOf } from '../../db/client.ts';
import { orgs } from '../../db/schema.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { formatAudit, main, parseHeads, verifyLedger, type VerifyOptions } from './cli.ts';
import { dataDirHolder } from '../../db/data-lock.ts';

let t: TestApp;
let dataDir: string;
let headsFile: string;
let admin: string;
let demoOrg: string;
let device: DeviceWithSecret & { id: string };
const minutes: number[] = [];

const db = () => t.app.database.db;
const iso = (ms: number) => new Date(ms).toISOString();
const run = (o: Partial<VerifyOptions> = {}) => verifyLedger({ db: db(), dataDir, headsFile, env: {}, ...o });

async function insertReadings(deviceRef: string, minuteStart: number, temps: number[]) {
  for (const [i, temp] of temps.entries()) {
    const at = minuteStart + 5_000 + i * 10_000;
    await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, speed, raw, sensors)
      values (${demoOrg}, ${deviceRef}, ${iso(at - 2_000)}::timestamptz, ${iso(at)}::timestamptz, 31.2, 121.5, 40, '{}'::jsonb, ${JSON.stringify({ temperature: temp })}::jsonb)`);
  }
}

async function grow(minute: number, temps: number[]) {
  await insertReadings(device.id, minute, temps);
  await db().execute(sql`update ledger_watermarks set value = ${JSON.stringify({ minute: iso(minute), deviceRef: '00000000-0000-0000-0000-000000000000' })} where source = 'sensor'`);
  while ((await t.app.ledger.tick()) > 0);
  await t.app.ledger.checkpoint();
}

/** A fetch over app.inject, for remote mode. */
const injectFetch = async (url: string) => {
  const u = new URL(url);
  const res = await t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
  return { status: res.statusCode, text: async () => res.body };
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ledger-cli-'));
  headsFile = join(dataDir, 'ledger', 'trusted-heads.txt');
  t = await testApp({ dataDir });
  demoOrg = (await db().select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db(), { orgId: demoOrg, account: 'cli-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'cli-admin', DEMO_PASSWORD);
  const made = await call<DeviceWithSecret & { id: string }>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: 'CL00000001', name: 'CLI tracker' } });
  device = made.body.data!;
  const base = Math.floor(Date.now() / 60_000) * 60_000 - 20 * 60_000;
  for (const [i, temps] of [[-18.1, -18.2], [-18.4, -18.5, -18.6], [-19, -19.1], [-19.2]].entries()) {
    minutes.push(base + i * 60_000);
    await insertReadings(device.id, base + i * 60_000, temps);
  }
  const task = await call<TaskDetail>(t.app, {
    method: 'POST',
    url: '/api/iot/v2/transport-tasks',
    token: admin,
    body: { goodsName: 'Vaccines', deviceIds: [device.id], origin: { name: 'A', lat: 31.2, lon: 121.5, radiusM: 500 }, destination: { name: 'B', lat: 30.27, lon: 120.15, radiusM: 800 } },
  });
  expect(task.status).toBe(200);
  while ((await t.app.ledger.tick()) > 0);
  await t.app.ledger.checkpoint();
  // A second head, so that there is a consistency proof between stored checkpoints.
  await grow(base + 5 * 60_000, [-20]);
});

afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('verify-ledger', () => {
  it('verifies a clean log and saves its latest head; the heads grow with the log', async () => {
    const a = await run();
    expect(a.checks.filter((c) => !c.ok)).toEqual([]);
    expect(a).toMatchObject({ ok: true, exitCode: 0, mode: 'database' });
    expect(a.leaves).toBeGreaterThanOrEqual(minutes.length + 2);
    expect(a.checks.find((c) => c.name === 'signatures')!.checked).toBe(2);
    expect(a.heads.appended).toBe(true);
    expect(parseHeads(readFileSync(headsFile, 'utf8'))).toHaveLength(1);
    // Nothing new: nothing appended.
    expect((await run()).heads.appended).toBe(false);
    expect(formatAudit(a)).toContain('RESULT: OK');

    await grow(minutes.at(-1)! + 10 * 60_000, [-21, -21.5]);
    const b = await run();
    expect(b.ok).toBe(true);
    expect(b.checks.find((c) => c.name === 'heads')).toMatchObject({ ok: true, checked: 1 });
    const saved = parseHeads(readFileSync(headsFile, 'utf8'));
    expect(saved).toHaveLength(2);
    expect(saved[1]).toBe((await t.app.inject({ method: 'GET', url: '/api/iot/v2/ledger/checkpoint' })).body);
    // --no-save leaves the file alone.
    await grow(minutes.at(-1)! + 11 * 60_000, [-22]);
    expect((await run({ save: false })).heads.appended).toBe(false);
    expect(parseHeads(readFileSync(headsFile, 'utf8'))).toHaveLength(2);
    expect((await run()).checks.find((c) => c.name === 'heads')).toMatchObject({ ok: true, checked: 2 });
  });

  it('names exactly the device and minute whose stored reading was changed; exit code 1', async () => {
    const target = minutes[1]!;
    const where = sql`device_ref = ${device.id} and received_at = ${iso(target + 15_000)}::timestamptz`;
    await db().execute(sql`update telemetry set sensors = jsonb_set(sensors, '{temperature}', '-30') where ${where}`);
    try {
      const a = await run();
      expect(a).toMatchObject({ ok: false, exitCode: 1 });
      const records = a.checks.find((c) => c.name === 'records')!;
      expect(records.failures).toEqual([
        expect.objectContaining({ problem: 'changed', kind: 'sensor.minute', deviceId: 'CL00000001', minute: iso(target), ref: `sensor:${device.id}:${iso(target)}` }),
      ]);
      // Nothing else is wrong: the log itself is intact.
      expect(a.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['records']);
      expect(a.heads.appended).toBe(false);
      const text = formatAudit(a);
      expect(text).toMatch(/FAILED records match the rows stored now/);
      expect(text).toContain(`sensor.minute device CL00000001 minute ${iso(target)}`);
      expect(text).toContain('RESULT: FAILED (1 problem)');
      // A deleted reading too.
      await db().execute(sql`delete from telemetry where device_ref = ${device.id} and received_at >= ${iso(minutes[3]!)}::timestamptz and received_at < ${iso(minutes[3]! + 60_000)}::timestamptz`);
      const b = await run();
      expect(b.checks.find((c) => c.name === 'records')!.failures.map((f) => [f.problem, f.minute])).toEqual([
        ['changed', iso(target)],
        ['gone', iso(minutes[3]!)],
      ]);
    } finally {
      await db().execute(sql`update telemetry set sensors = jsonb_set(sensors, '{temperature}', '-18.5') where ${where}`);
      await insertReadings(device.id, minutes[3]!, [-19.2]);
    }
    expect((await run()).ok).toBe(true);
  });

  it('names a checkpoint whose stored root or note was forged', async () => {
    const size = Number(rowsOf<{ s: string }>(await db().execute(sql`select min(size)::text as s from ledger_checkpoints`))[0]!.s);
    const [row] = rowsOf<{ root: string; note: string }>(await db().execute(sql`select encode(root_hash, 'hex') as root, note from ledger_checkpoints where size = ${size}`));
    try {
      await db().execute(sql`update ledger_checkpoints set root_hash = decode(${'ab'.repeat(32)}, 'hex') where size = ${size}`);
      const a = await run();
      expect(a.exitCode).toBe(1);
      const failed = a.checks.filter((c) => !c.ok);
      expect(failed.map((c) => c.name).sort()).toEqual(['signatures', 'tree']);
      for (const c of failed) expect(c.failures.every((f) => f.size === size)).toBe(true);
      expect(failed.find((c) => c.name === 'tree')!.failures.map((f) => f.problem)).toContain('root-mismatch');
      await db().execute(sql`update ledger_checkpoints set root_hash = decode(${row!.root}, 'hex') where size = ${size}`);

      const forged = row!.note.replace(/\n\n— (\S+) (\S+)\n$/, (_m, name: string, sig: string) => `\n\n— ${name} ${sig.slice(0, 12)}${sig[12] === 'A' ? 'B' : 'A'}${sig.slice(13)}\n`);
      await db().execute(sql`update ledger_checkpoints set note = ${forged} where size = ${size}`);
      const b = await run();
      expect(b.exitCode).toBe(1);
      expect(b.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['signatures']);
      expect(b.checks.find((c) => c.name === 'signatures')!.failures).toEqual([expect.objectContaining({ problem: 'bad-signature', size })]);
      expect(formatAudit(b)).toContain(`checkpoint ${size}`);
    } finally {
      await db().execute(sql`update ledger_checkpoints set root_hash = decode(${row!.root}, 'hex'), note = ${row!.note} where size = ${size}`);
    }
    expect((await run()).ok).toBe(true);
  });

  it('reports a saved head of a forked log, and one signed by another key', async () => {
    const key = await parseSignerKey(readFileSync(join(dataDir, 'ledger', 'signer.key'), 'utf8').trim());
    const fork = await signNote(formatCheckpoint({ origin: key.name, size: 2, rootHash: new Uint8Array(32).fill(7) }), key.name, key.seed);
    const stranger = await generateNoteKeys(key.name);
    const other = await parseSignerKey(stranger.signerKey);
    const foreign = await signNote(formatCheckpoint({ origin: key.name, size: 1, rootHash: new Uint8Array(32).fill(9) }), other.name, other.seed);
    const file = join(dataDir, 'forked-heads.txt');
    writeFileSync(file, `${fork}\n${foreign}`);
    const a = await run({ headsFile: file });
    expect(a.exitCode).toBe(1);
    expect(a.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['heads']);
    expect(a.checks.find((c) => c.name === 'heads')!.failures.map((f) => [f.problem, f.size])).toEqual([
      ['bad-signature', 1],
      ['fork', 2],
    ]);
    expect(parseHeads(readFileSync(file, 'utf8'))).toHaveLength(2); // not saved after a failure

    // Remote mode sees the same fork from the published heads alone.
    const remote = await verifyLedger({ url: 'http://console.test', fetch: injectFetch, headsFile: file, env: {} });
    expect(remote).toMatchObject({ mode: 'remote', exitCode: 1 });
    expect(remote.checks.find((c) => c.name === 'heads')!.failures.map((f) => f.problem).sort()).toEqual(['bad-signature', 'inconsistent']);
  });

  it('remote mode verifies the published head against saved ones and saves the latest', async () => {
    const file = join(dataDir, 'remote-heads.txt');
    writeFileSync(file, readFileSync(headsFile, 'utf8'));
    const before = parseHeads(readFileSync(file, 'utf8')).length;
    expect(before).toBeGreaterThanOrEqual(2);
    await grow(minutes.at(-1)! + 12 * 60_000, [-23]);
    const a = await verifyLedger({ url: 'http://console.test', fetch: injectFetch, headsFile: file, env: {} });
    expect(a.checks.filter((c) => !c.ok)).toEqual([]);
    expect(a).toMatchObject({ ok: true, exitCode: 0, heads: { appended: true, saved: before } });
    expect(parseHeads(readFileSync(file, 'utf8'))).toHaveLength(before + 1);
    // A key pinned with --key that the server does not use.
    const wrong = join(dataDir, 'wrong.key');
    writeFileSync(wrong, `${(await generateNoteKeys('someone-else')).verifierKey}\n`);
    expect((await verifyLedger({ url: 'http://console.test', fetch: injectFetch, headsFile: file, keyFile: wrong, env: {} })).exitCode).toBe(1);
  });

  it('answers usage errors with exit code 2', async () => {
    expect(await main(['--bogus'])).toBe(2);
    const empty = mkdtempSync(join(tmpdir(), 'ledger-cli-empty-'));
    try {
      const a = await verifyLedger({ dataDir: empty, env: {} });
      expect(a.exitCode).toBe(2);
      expect(a.error).toMatch(/verifier key/);
      writeFileSync(join(empty, 'k'), readFileSync(join(dataDir, 'ledger', 'verifier.key')));
      const b = await verifyLedger({ dataDir: empty, keyFile: join(empty, 'k'), env: {} });
      expect(b.error).toMatch(/no database/);
      expect(formatAudit(b)).toContain('ERROR');
      expect(dataDirHolder(empty)).toBeNull();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it.skipIf(Boolean(process.env.DATABASE_URL))('the bin refuses a PGlite directory a running server holds', async () => {
    expect(existsSync(join(dataDir, 'pglite', 'postmaster.pid'))).toBe(true);
    const cli = resolve(import.meta.dirname, 'cli.ts');
    const res = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, '--data-dir', dataDir], { env: { ...process.env, DATABASE_URL: '' } }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(res.code).toBe(2);
    expect(res.stdout).toContain(`process ${process.pid}`);
    expect(res.stdout).toMatch(/stop the server/);
  }, 60_000);
});
